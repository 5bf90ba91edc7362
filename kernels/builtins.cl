/* The OpenCL builtins fftx's kernels call, declared as clang's opencl-c.h declares them.
 *
 * PoCL includes opencl-c.h (900 KB) ahead of every program, twice per build (it preprocesses, then compiles):
 * about 90 ms of a program's 100 ms floor. A program without user code builds there with FFTX_OWN_BUILTINS
 * and opencl-c.h's include guard defined (runtime/cache.rs), so only these declarations are parsed; the
 * types and constants still come from opencl-c-base.h, which PoCL includes on its own. Each name gets its
 * whole family of scalar and vector overloads but half's, so that overload resolution picks what it picks
 * with the full header. A builtin missing here fails the build, which the runtime then repeats with the
 * full header (or reports, under FFTX_OWN_BUILTINS=strict). */
#ifdef FFTX_OWN_BUILTINS
#define FFTX_OVERLOAD __attribute__((overloadable))
#define FFTX_CONST __attribute__((overloadable, const))
#define FFTX_PURE __attribute__((overloadable, pure))

size_t FFTX_CONST get_global_id(uint);
size_t FFTX_CONST get_local_id(uint);
size_t FFTX_CONST get_group_id(uint);
void FFTX_OVERLOAD __attribute__((convergent)) barrier(cl_mem_fence_flags);

/* M(N, ...) for the scalar (N empty) and every vector width. */
#define FFTX_EVERY_WIDTH(M, ...) M(, __VA_ARGS__) M(2, __VA_ARGS__) M(3, __VA_ARGS__) M(4, __VA_ARGS__) M(8, __VA_ARGS__) M(16, __VA_ARGS__)
#define FFTX_VECTOR_WIDTHS(M, ...) M(2, __VA_ARGS__) M(3, __VA_ARGS__) M(4, __VA_ARGS__) M(8, __VA_ARGS__) M(16, __VA_ARGS__)

/* M(T, signed T, unsigned T) for every scalar element type: the integers, then the reals. */
#define FFTX_EVERY_INTEGER(M)                                                                               \
    M(char, char, uchar) M(uchar, char, uchar) M(short, short, ushort) M(ushort, short, ushort)             \
    M(int, int, uint) M(uint, int, uint) M(long, long, ulong) M(ulong, long, ulong)
#define FFTX_EVERY_TYPE(M) FFTX_EVERY_INTEGER(M) M(float, int, uint) FFTX_DOUBLE_TYPE(M)
#ifdef cl_khr_fp64
#define FFTX_DOUBLE_TYPE(M) M(double, long, ulong)
#else
#define FFTX_DOUBLE_TYPE(M)
#endif

#define FFTX_MIN_MAX(N, T)                                                                                  \
    T##N FFTX_CONST min(T##N, T##N);                                                                        \
    T##N FFTX_CONST max(T##N, T##N);                                                                        \
    T##N FFTX_CONST min(T##N, T);                                                                           \
    T##N FFTX_CONST max(T##N, T);
#define FFTX_SELECT(N, T, I, U)                                                                             \
    T##N FFTX_CONST select(T##N, T##N, I##N);                                                               \
    T##N FFTX_CONST select(T##N, T##N, U##N);
#define FFTX_MUL_HI(N, T) T##N FFTX_CONST mul_hi(T##N, T##N);
#define FFTX_SQRT(N, T) T##N FFTX_CONST sqrt(T##N);

#if defined(__opencl_c_generic_address_space)
#define FFTX_VLOAD_VSTORE_GENERIC(N, T)                                                                     \
    T##N FFTX_PURE vload##N(size_t, const T *);                                                             \
    void FFTX_OVERLOAD vstore##N(T##N, size_t, T *);
#else
#define FFTX_VLOAD_VSTORE_GENERIC(N, T)
#endif
#if defined(__opencl_c_named_address_space_builtins) || !defined(__opencl_c_generic_address_space)
#define FFTX_VLOAD_VSTORE_NAMED(N, T)                                                                       \
    T##N FFTX_PURE vload##N(size_t, const __global T *);                                                    \
    T##N FFTX_PURE vload##N(size_t, const __local T *);                                                     \
    T##N FFTX_PURE vload##N(size_t, const __private T *);                                                   \
    void FFTX_OVERLOAD vstore##N(T##N, size_t, __global T *);                                               \
    void FFTX_OVERLOAD vstore##N(T##N, size_t, __local T *);                                                \
    void FFTX_OVERLOAD vstore##N(T##N, size_t, __private T *);
#else
#define FFTX_VLOAD_VSTORE_NAMED(N, T)
#endif
#define FFTX_VLOAD_VSTORE(N, T)                                                                             \
    T##N FFTX_PURE vload##N(size_t, const __constant T *);                                                  \
    FFTX_VLOAD_VSTORE_GENERIC(N, T)                                                                         \
    FFTX_VLOAD_VSTORE_NAMED(N, T)

#define FFTX_DECLARE_FOR_TYPE(T, I, U)                                                                      \
    FFTX_EVERY_WIDTH(FFTX_MIN_MAX, T)                                                                       \
    FFTX_EVERY_WIDTH(FFTX_SELECT, T, I, U)                                                                  \
    FFTX_VECTOR_WIDTHS(FFTX_VLOAD_VSTORE, T)
#define FFTX_DECLARE_FOR_INTEGER(T, I, U) FFTX_EVERY_WIDTH(FFTX_MUL_HI, T)

FFTX_EVERY_TYPE(FFTX_DECLARE_FOR_TYPE)
/* shuffle and shuffle2, which lanes.cl calls where __builtin_shufflevector does not serve. */
#if defined(OPENCL_SHUFFLES) || !defined(__has_builtin) || !__has_builtin(__builtin_shufflevector)
#define FFTX_SHUFFLE_TO(N, M, T, U)                                                                         \
    T##N FFTX_CONST shuffle(T##M, U##N);                                                                    \
    T##N FFTX_CONST shuffle2(T##M, T##M, U##N);
#define FFTX_MASK_WIDTHS(F, ...) F(2, __VA_ARGS__) F(4, __VA_ARGS__) F(8, __VA_ARGS__) F(16, __VA_ARGS__)
#define FFTX_SHUFFLE_FROM(M, T, U) FFTX_MASK_WIDTHS(FFTX_SHUFFLE_TO, M, T, U)
#define FFTX_SHUFFLES(T, I, U)                                                                              \
    FFTX_SHUFFLE_FROM(2, T, U) FFTX_SHUFFLE_FROM(4, T, U) FFTX_SHUFFLE_FROM(8, T, U) FFTX_SHUFFLE_FROM(16, T, U)
FFTX_EVERY_TYPE(FFTX_SHUFFLES)
#endif
FFTX_EVERY_INTEGER(FFTX_DECLARE_FOR_INTEGER)
FFTX_EVERY_WIDTH(FFTX_SQRT, float)
#ifdef cl_khr_fp64
FFTX_EVERY_WIDTH(FFTX_SQRT, double)
#endif
#endif
