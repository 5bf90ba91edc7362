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
