/* How a kernel reads its input and writes its output, element by element or a vector at a time.
 *
 * Each side has a kind (host defines IN_KIND / OUT_KIND), a planar flag, and a mode:
 *   KIND_COMPLEX      complex values, interleaved (re, im) or planar (two arrays); positions in complex units
 *   KIND_REAL_PAIRS   an even-length real sequence seen as half as many complex values: element n is
 *                     (x[p], x[p + half]), p in real units, `half` the real stride; or, IN_PAIRS_APART
 *                     (OUT_PAIRS_APART), the reals of two transforms `half` apart, read as one complex value
 *   KIND_REAL         real values only: element n is (x[p], 0); on output only the real part is written
 *   MODE_ROWS         VW consecutive elements of one transform are adjacent (unit element stride): rows are
 *                     loaded as vectors and transposed so that each vector holds one element of VW transforms
 *   MODE_COLS         the VW transforms of a slot are adjacent (batch dimension 0 has unit stride, or
 *                     two reals for adjacent pairs): one vector holds one element of all of them directly
 *   MODE_GATHER       anything else, one scalar per lane
 * The macros below expect in_re/in_im/out_re/out_im, in_half/out_half in scope.
 */
#define KIND_COMPLEX 0
#define KIND_REAL_PAIRS 1
#define KIND_REAL 2

#define MODE_GATHER 0
#define MODE_ROWS 1
#define MODE_COLS 2

/* IN_PREFETCH: what the loads prefetch (stockham.cl) */
#define PREFETCH_NONE 0
#define PREFETCH_COLUMNS 1
#define PREFETCH_NEXT_SLOT 2

/* ---- input: one element at position p, a row of VW elements at p, the VW lanes' elements at p ---- */
#if IN_KIND == KIND_COMPLEX && IN_PLANAR
#define IN_AT(p, re, im) ((re) = in_re[p], (im) = in_im[p])
#define IN_ROW(p, re, im) ((re) = VLOADV(in_re + (p)), (im) = VLOADV(in_im + (p)))
#define IN_LANES(p, re, im) IN_ROW(p, re, im)
#elif IN_KIND == KIND_COMPLEX
#define IN_AT(p, re, im) ((re) = in_re[2 * (p)], (im) = in_re[2 * (p) + 1])
#define IN_ROW(p, re, im) SPLIT_PAIRS(in_re + 2 * (p), re, im)
#define IN_LANES(p, re, im) SPLIT_PAIRS(in_re + 2 * (p), re, im)
#elif IN_KIND == KIND_REAL_PAIRS
#define IN_AT(p, re, im) ((re) = in_re[p], (im) = in_re[(p) + in_half])
#if defined(IN_PAIRS_APART) && IN_PAIRS_APART
#define IN_LANES(p, re, im) ((re) = VLOADV(in_re + (p)), (im) = VLOADV(in_re + (p) + in_half))
#define IN_ROW(p, re, im) IN_LANES(p, re, im)
#else
/* Adjacent pairs: a row of one transform and the lanes of neighbouring transforms alike are VW pairs. */
#define IN_ROW(p, re, im) SPLIT_PAIRS(in_re + (p), re, im)
#define IN_LANES(p, re, im) IN_ROW(p, re, im)
#endif
#else
#define IN_AT(p, re, im) ((re) = in_re[p], (im) = K(0.0))
#define IN_ROW(p, re, im) ((re) = VLOADV(in_re + (p)), (im) = (V)(0))
#define IN_LANES(p, re, im) IN_ROW(p, re, im)
#endif

/* PREFETCH_IN(p, locality): asks the caches for the lines IN_LANES(p) (alike IN_ROW(p)) reads, into L1 with
 * locality 3, L2 with 2 (IN_PREFETCH). */
#if defined(IN_PREFETCH) && IN_PREFETCH && defined(__has_builtin)
#if __has_builtin(__builtin_prefetch)
#define PREFETCH_SPAN(ptr, reals, locality)                                                         \
    do {                                                                                            \
        UNROLL for (int o_ = 0; o_ < (reals); o_ += 64 / (int)sizeof(REAL))                         \
            __builtin_prefetch((ptr) + o_, 0, locality);                                            \
        __builtin_prefetch((ptr) + (reals) - 1, 0, locality);                                       \
    } while (0)
#if IN_KIND == KIND_COMPLEX && IN_PLANAR
#define PREFETCH_IN(p, locality)                                                                    \
    do {                                                                                            \
        PREFETCH_SPAN(in_re + (p), VW, locality);                                                   \
        PREFETCH_SPAN(in_im + (p), VW, locality);                                                   \
    } while (0)
#elif IN_KIND == KIND_COMPLEX
#define PREFETCH_IN(p, locality) PREFETCH_SPAN(in_re + 2 * (p), 2 * VW, locality)
#elif IN_KIND == KIND_REAL_PAIRS && defined(IN_PAIRS_APART) && IN_PAIRS_APART
#define PREFETCH_IN(p, locality)                                                                    \
    do {                                                                                            \
        PREFETCH_SPAN(in_re + (p), VW, locality);                                                   \
        PREFETCH_SPAN(in_re + (p) + in_half, VW, locality);                                         \
    } while (0)
#elif IN_KIND == KIND_REAL_PAIRS
#define PREFETCH_IN(p, locality) PREFETCH_SPAN(in_re + (p), 2 * VW, locality)
#else
#define PREFETCH_IN(p, locality) PREFETCH_SPAN(in_re + (p), VW, locality)
#endif
#endif
#endif
#ifndef PREFETCH_IN
#define PREFETCH_IN(p, locality) ((void)0)
#endif

/* ---- output: the same three shapes ---- */
/* OUT_STREAM makes vector stores non-temporal where the compiler offers it (clang's builtin, so PoCL): whole
 * lines are written, and the cache then need not read them first. Only aligned vectors stream. */
#if defined(OUT_STREAM) && VW > 1 && defined(__has_builtin)
#if OUT_STREAM && __has_builtin(__builtin_nontemporal_store)
#define STORE_OUT_V(v, p)                                                                           \
    ((((ulong)(p)) & (sizeof(V) - 1)) == 0 ? __builtin_nontemporal_store((v), (__global V *)(p)) : VSTOREV(v, p))
#endif
#endif
#ifndef STORE_OUT_V
#define STORE_OUT_V(v, p) VSTOREV(v, p)
#endif
#if OUT_KIND == KIND_COMPLEX && OUT_PLANAR
#define OUT_AT(p, re, im) (out_re[p] = (re), out_im[p] = (im))
#define OUT_ROW(p, re, im) (STORE_OUT_V(re, out_re + (p)), STORE_OUT_V(im, out_im + (p)))
#define OUT_LANES(p, re, im) OUT_ROW(p, re, im)
/* OUT_LO_HALF, OUT_HI_HALF: the lower or upper half of the lanes as a run at p. */
#define VSTORE_HALF CAT(vstore, HALF_VW)
#define OUT_LO_HALF(p, re, im) (VSTORE_HALF((re).lo, 0, out_re + (p)), VSTORE_HALF((im).lo, 0, out_im + (p)))
#define OUT_HI_HALF(p, re, im) (VSTORE_HALF((re).hi, 0, out_re + (p)), VSTORE_HALF((im).hi, 0, out_im + (p)))
#elif OUT_KIND == KIND_COMPLEX
#define OUT_AT(p, re, im) (out_re[2 * (p)] = (re), out_re[2 * (p) + 1] = (im))
#define OUT_ROW(p, re, im) JOIN_PAIRS(out_re + 2 * (p), re, im)
#define OUT_LANES(p, re, im) JOIN_PAIRS(out_re + 2 * (p), re, im)
#define OUT_LO_HALF(p, re, im) STORE_OUT_V(INTERLEAVE_LO(re, im), out_re + 2 * (p))
#define OUT_HI_HALF(p, re, im) STORE_OUT_V(INTERLEAVE_HI(re, im), out_re + 2 * (p))
#elif OUT_KIND == KIND_REAL_PAIRS
#define OUT_AT(p, re, im) (out_re[p] = (re), out_re[(p) + out_half] = (im))
#if defined(OUT_PAIRS_APART) && OUT_PAIRS_APART
#define OUT_LANES(p, re, im) (STORE_OUT_V(re, out_re + (p)), STORE_OUT_V(im, out_re + (p) + out_half))
#define OUT_ROW(p, re, im) OUT_LANES(p, re, im)
/* A lone transform's own half: the twin half belongs to another transform, stored elsewhere. */
#define OUT_AT_OWN(p, re, im) (out_re[p] = (re))
#define OUT_ROW_OWN(p, re, im) STORE_OUT_V(re, out_re + (p))
#else
#define OUT_ROW(p, re, im) JOIN_PAIRS(out_re + (p), re, im)
#define OUT_LANES(p, re, im) OUT_ROW(p, re, im)
#endif
#else
#define OUT_AT(p, re, im) (out_re[p] = (re))
#define OUT_ROW(p, re, im) STORE_OUT_V(re, out_re + (p))
#define OUT_LANES(p, re, im) OUT_ROW(p, re, im)
#endif

/* IN_LANE_STEP: how far apart IN_LANES reads neighbouring lanes, in position units. */
#if IN_KIND == KIND_REAL_PAIRS && !(defined(IN_PAIRS_APART) && IN_PAIRS_APART)
#define IN_LANE_STEP 2
#else
#define IN_LANE_STEP 1
#endif
/* OUT_LANE_STEP: how far apart OUT_LANES puts neighbouring lanes, in position units. */
#if OUT_KIND == KIND_REAL_PAIRS && !(defined(OUT_PAIRS_APART) && OUT_PAIRS_APART)
#define OUT_LANE_STEP 2
#else
#define OUT_LANE_STEP 1
#endif

#ifndef OUT_AT_OWN
#define OUT_AT_OWN(p, re, im) OUT_AT(p, re, im)
#define OUT_ROW_OWN(p, re, im) OUT_ROW(p, re, im)
#endif
/* A store of a transform that is lone (stores only its own half) or not. */
#define OUT_AT_LONE(lone, p, re, im)                                                                \
    do {                                                                                            \
        if (lone)                                                                                   \
            OUT_AT_OWN(p, re, im);                                                                  \
        else                                                                                        \
            OUT_AT(p, re, im);                                                                      \
    } while (0)
#define OUT_ROW_LONE(lone, p, re, im)                                                               \
    do {                                                                                            \
        if (lone)                                                                                   \
            OUT_ROW_OWN(p, re, im);                                                                 \
        else                                                                                        \
            OUT_ROW(p, re, im);                                                                     \
    } while (0)

/* Interleaved (re, im) pairs <-> vectors of real and imaginary parts. */
#if VW > 1
#define SPLIT_PAIRS(ptr, re, im)                                                                    \
    do {                                                                                            \
        V lo_ = VLOADV(ptr), hi_ = VLOADV((ptr) + VW);                                              \
        (re) = EVEN(lo_, hi_);                                                                      \
        (im) = ODD(lo_, hi_);                                                                       \
    } while (0)
#define JOIN_PAIRS(ptr, re, im)                                                                     \
    (STORE_OUT_V(INTERLEAVE_LO(re, im), ptr), STORE_OUT_V(INTERLEAVE_HI(re, im), (ptr) + VW))
#else
#define SPLIT_PAIRS(ptr, re, im) ((re) = (ptr)[0], (im) = (ptr)[1])
#define JOIN_PAIRS(ptr, re, im) ((ptr)[0] = (re), (ptr)[1] = (im))
#endif

/* Real data has no imaginary parts to transpose. */
#if IN_KIND == KIND_REAL
#define TRANSPOSE_IN_IM(a)
#else
#define TRANSPOSE_IN_IM(a) TRANSPOSE(a)
#endif

/* Moves the buffer pointers to the kernel's offsets: complex units for interleaved data, reals otherwise. */
#if IN_KIND == KIND_COMPLEX && !IN_PLANAR
#define SHIFT_IN() (in_re += 2 * in_off)
#else
#define SHIFT_IN() (in_re += in_off, in_im += in_off)
#endif
#if OUT_KIND == KIND_COMPLEX && !OUT_PLANAR
#define SHIFT_OUT() (out_re += 2 * out_off)
#else
#define SHIFT_OUT() (out_re += out_off, out_im += out_off)
#endif
#define SHIFT_BUFFERS() (SHIFT_IN(), SHIFT_OUT())

/* ---- a user's clFFT callback fused into the loads (PRE_CALLBACK) or the stores (POST_CALLBACK) ----
 * Every element then passes through the user's function (PRE_FN, POST_FN), one at a time, at its offset from
 * the start of the user's buffer: in_off + p, in complex values for interleaved data and reals otherwise, as
 * clFFT counts them. CALLBACK_BASES keeps the unshifted buffers and the temporaries the macros below need
 * (CALLBACK_TEMPS, which helper functions that take the buffers as parameters declare themselves);
 * the kernel takes the user data, and local memory where the callback asks for it, after its own arguments
 * (PRE_PARAMS, POST_PARAMS). The helper functions take the kernel's names as parameters, so that PRE_ONE and
 * POST_ONE read the same in both. */
#if PRE_CALLBACK || POST_CALLBACK
typedef CAT(RNAME, 2) CB_REAL2;
#define CALLBACK_TEMPS()                                                                            \
    CB_REAL2 fftx_cb_v;                                                                             \
    REAL fftx_cb_re[VW], fftx_cb_im[VW]
#define CALLBACK_BASES()                                                                            \
    __global void *const fftx_cb_in_re = (__global void *)in_re, *const fftx_cb_in_im = (__global void *)in_im; \
    __global void *const fftx_cb_out_re = (__global void *)out_re, *const fftx_cb_out_im = (__global void *)out_im; \
    CALLBACK_TEMPS()
#else
#define CALLBACK_TEMPS()
#define CALLBACK_BASES()
#endif

#if PRE_CALLBACK
#if PRE_LOCAL
#define PRE_PARAMS , __global void *fftx_pre_user, __local void *fftx_pre_local
#define PRE_LOCAL_ARG , fftx_pre_local
#else
#define PRE_PARAMS , __global void *fftx_pre_user
#define PRE_LOCAL_ARG
#endif
#define PRE_ARGS , fftx_pre_user PRE_LOCAL_ARG
#define PRE_SCOPE __global void *fftx_cb_in_re, __global void *fftx_cb_in_im, const IDX in_off PRE_PARAMS
#define PRE_PASS fftx_cb_in_re, fftx_cb_in_im, in_off PRE_ARGS
#if IN_KIND == KIND_COMPLEX && IN_PLANAR
#define PRE_ONE(p) PRE_FN(fftx_cb_in_re, fftx_cb_in_im, in_off + (p) PRE_ARGS)
#else
#define PRE_ONE(p) PRE_FN(fftx_cb_in_re, in_off + (p) PRE_ARGS)
#endif
#undef IN_AT
#undef IN_ROW
#undef IN_LANES
#if IN_KIND == KIND_COMPLEX
/* VW complex values from p. */
AI void fftx_pre_run(PRE_SCOPE, const IDX p, REAL *re, REAL *im) {
    UNROLL for (int q = 0; q < VW; q++) {
        const CB_REAL2 v = PRE_ONE(p + q);
        re[q] = v.x;
        im[q] = v.y;
    }
}
#define IN_AT(p, re, im) (fftx_cb_v = PRE_ONE(p), (re) = fftx_cb_v.x, (im) = fftx_cb_v.y)
#define IN_ROW(p, re, im) (fftx_pre_run(PRE_PASS, (p), fftx_cb_re, fftx_cb_im), (re) = VLOADV(fftx_cb_re), (im) = VLOADV(fftx_cb_im))
#else
/* VW reals `step` apart from p. */
AI void fftx_pre_reals(PRE_SCOPE, const IDX p, const IDX step, REAL *re) {
    UNROLL for (int q = 0; q < VW; q++) re[q] = PRE_ONE(p + q * step);
}
#if IN_KIND == KIND_REAL_PAIRS
#define IN_AT(p, re, im) ((re) = PRE_ONE(p), (im) = PRE_ONE((p) + in_half))
#if defined(IN_PAIRS_APART) && IN_PAIRS_APART
#define IN_ROW(p, re, im)                                                                           \
    (fftx_pre_reals(PRE_PASS, (p), 1, fftx_cb_re), fftx_pre_reals(PRE_PASS, (p) + in_half, 1, fftx_cb_im), (re) = VLOADV(fftx_cb_re), \
     (im) = VLOADV(fftx_cb_im))
#else
#define IN_ROW(p, re, im)                                                                           \
    (fftx_pre_reals(PRE_PASS, (p), 2, fftx_cb_re), fftx_pre_reals(PRE_PASS, (p) + 1, 2, fftx_cb_im), (re) = VLOADV(fftx_cb_re), \
     (im) = VLOADV(fftx_cb_im))
#endif
#else
#define IN_AT(p, re, im) ((re) = PRE_ONE(p), (im) = K(0.0))
#define IN_ROW(p, re, im) (fftx_pre_reals(PRE_PASS, (p), 1, fftx_cb_re), (re) = VLOADV(fftx_cb_re), (im) = (V)(0))
#endif
#endif
#define IN_LANES(p, re, im) IN_ROW(p, re, im)
#else
#define PRE_PARAMS
#define PRE_ARGS
#endif

#if POST_CALLBACK
#if POST_LOCAL
#define POST_PARAMS , __global void *fftx_post_user, __local void *fftx_post_local
#define POST_LOCAL_ARG , fftx_post_local
#else
#define POST_PARAMS , __global void *fftx_post_user
#define POST_LOCAL_ARG
#endif
#define POST_ARGS , fftx_post_user POST_LOCAL_ARG
#define POST_SCOPE __global void *fftx_cb_out_re, __global void *fftx_cb_out_im, const IDX out_off POST_PARAMS
#define POST_PASS fftx_cb_out_re, fftx_cb_out_im, out_off POST_ARGS
#undef OUT_AT
#undef OUT_ROW
#undef OUT_LANES
#undef OUT_LO_HALF
#undef OUT_HI_HALF
#undef OUT_AT_OWN
#undef OUT_ROW_OWN
#if OUT_KIND == KIND_COMPLEX
#if OUT_PLANAR
#define POST_ONE(p, re, im) POST_FN(fftx_cb_out_re, fftx_cb_out_im, out_off + (p), fftx_post_user, (re), (im) POST_LOCAL_ARG)
#else
#define POST_ONE(p, re, im) POST_FN(fftx_cb_out_re, out_off + (p), fftx_post_user, (CB_REAL2)((re), (im)) POST_LOCAL_ARG)
#endif
/* Lanes first .. first + count - 1 of (re, im) to the complex values from p. */
AI void fftx_post_run(POST_SCOPE, const IDX p, const int first, const int count, const V re, const V im) {
    REAL r[VW], i[VW];
    VSTOREV(re, r);
    VSTOREV(im, i);
    UNROLL for (int q = 0; q < count; q++) POST_ONE(p + q, r[first + q], i[first + q]);
}
#define OUT_AT(p, re, im) POST_ONE(p, re, im)
#define OUT_ROW(p, re, im) fftx_post_run(POST_PASS, (p), 0, VW, (re), (im))
#define OUT_LO_HALF(p, re, im) fftx_post_run(POST_PASS, (p), 0, VW / 2, (re), (im))
#define OUT_HI_HALF(p, re, im) fftx_post_run(POST_PASS, (p), VW / 2, VW / 2, (re), (im))
#else
#define POST_ONE(p, x) POST_FN(fftx_cb_out_re, out_off + (p), fftx_post_user, (x) POST_LOCAL_ARG)
/* The lanes of x to the reals `step` apart from p. */
AI void fftx_post_reals(POST_SCOPE, const IDX p, const IDX step, const V x) {
    REAL r[VW];
    VSTOREV(x, r);
    UNROLL for (int q = 0; q < VW; q++) POST_ONE(p + q * step, r[q]);
}
#if OUT_KIND == KIND_REAL_PAIRS
#define OUT_AT(p, re, im) (POST_ONE(p, re), POST_ONE((p) + out_half, im))
#if defined(OUT_PAIRS_APART) && OUT_PAIRS_APART
#define OUT_ROW(p, re, im) (fftx_post_reals(POST_PASS, (p), 1, (re)), fftx_post_reals(POST_PASS, (p) + out_half, 1, (im)))
#define OUT_AT_OWN(p, re, im) POST_ONE(p, re)
#define OUT_ROW_OWN(p, re, im) fftx_post_reals(POST_PASS, (p), 1, (re))
#else
#define OUT_ROW(p, re, im) (fftx_post_reals(POST_PASS, (p), 2, (re)), fftx_post_reals(POST_PASS, (p) + 1, 2, (im)))
#endif
#else
#define OUT_AT(p, re, im) POST_ONE(p, re)
#define OUT_ROW(p, re, im) fftx_post_reals(POST_PASS, (p), 1, (re))
#endif
#endif
#define OUT_LANES(p, re, im) OUT_ROW(p, re, im)
#ifndef OUT_AT_OWN
#define OUT_AT_OWN(p, re, im) OUT_AT(p, re, im)
#define OUT_ROW_OWN(p, re, im) OUT_ROW(p, re, im)
#endif
#else
#define POST_PARAMS
#define POST_ARGS
#endif
