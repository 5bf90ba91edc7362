/* fftx common definitions: precision, the lane vector type V and its helpers.
 *
 * Host defines:
 *   FFTX_DOUBLE   double precision when defined, single otherwise
 *   VW            lanes per work-item (1, 2, 4, 8 or 16): each lane carries one independent transform,
 *                 so butterflies are plain vertical SIMD and twiddles are broadcast scalars.
 *   IDX           index type for buffer offsets (uint or ulong, chosen from the largest extent)
 */

/* Without AVX-512, clang warns at each call passing or returning a vector wider than 256 bits (16 float
 * lanes, 8 double) that its ABI differs from AVX-512's. The kernels and PoCL's builtin library are built
 * for the same target, so no call crosses the two; under -Werror (the tests) the warning failed every such
 * build on AVX2. */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wpsabi"
#endif
#ifdef FFTX_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double REAL;
#define K(x) x
#define RNAME double
#else
typedef float REAL;
#define K(x) x##f
#define RNAME float
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define UNROLL _Pragma("unroll")
#define AI static __attribute__((always_inline)) inline

#if VW == 1
typedef REAL V;
#define VLOADV(p) (*(p))
#define VSTOREV(v, p) (*(p) = (v))
#else
typedef CAT(RNAME, VW) V;
#define VLOADV(p) CAT(vload, VW)(0, p)
#define VSTOREV(v, p) CAT(vstore, VW)(v, 0, p)
#endif

/* A root from a two-level table (codegen::twiddle::split_table): the product of table entries lo and hi. */
#define SPLIT_ROOT(lo, hi, wr, wi)                                                                  \
    do {                                                                                            \
        __global const REAL *lo_ = tw + 2 * (lo), *hi_ = tw + 2 * (hi);                             \
        wr = lo_[0] * hi_[0] - lo_[1] * hi_[1];                                                     \
        wi = lo_[0] * hi_[1] + lo_[1] * hi_[0];                                                     \
    } while (0)

/* (ar + i ai) * (br + i bi), written to (dr, di); safe when d aliases a. */
#define CMUL(dr, di, ar, ai, br, bi)                                                                \
    do {                                                                                            \
        V cmul_t_ = (ar) * (br) - (ai) * (bi);                                                      \
        (di) = (ar) * (bi) + (ai) * (br);                                                           \
        (dr) = cmul_t_;                                                                             \
    } while (0)

#ifdef FFTX_DOUBLE
#define MASK_ELEM ulong
#else
#define MASK_ELEM uint
#endif
