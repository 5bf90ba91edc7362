/* Transposes: what transpose_square.cl, transpose_tiled.cl and transpose_cycles.cl share.
 *
 * A transpose moves complex values and does no arithmetic, except that it applies the plan's output scale
 * and conjugation, since it may be the last step of a transform: (re, im) -> (re s, im s c_in c_out).
 * The kernels take the arguments of fftx_stockham, so a plan launches any of them the same way; an in-place
 * transpose gets the same buffer and offset on both sides.
 *
 * Host defines: VW (lanes per work-item: VW > 1 is the CPU shape, blocks of VW x VW values transposed in
 * registers with lanes.cl's shuffles; VW == 1 is the GPU shape, tiles of TILE x TILE values through local
 * memory), TILE, NBATCH, IN_PLANAR, OUT_PLANAR, and IN_MODE / OUT_MODE (MODE_ROWS when the elements of a
 * matrix row are adjacent, so VW of them load as vectors; MODE_GATHER otherwise).
 *
 * Runtime shape in `params`: the layout.cl header, whose P_IN_STRIDE / P_OUT_STRIDE are the element strides
 * along a matrix row and whose batch dimensions place the matrices, then the kernel's own entries TP(i).
 */
#define TP_BASE (P_DIM + 4 * NBATCH)
#define TP(i) params[TP_BASE + (i)]

/* VW consecutive elements of a row starting at position p (element stride es), as vectors of real and
 * imaginary parts. */
#if IN_MODE == MODE_ROWS && VW > 1
#define LOAD_ROW(p, es, re, im) IN_ROW(p, re, im)
#else
#define LOAD_ROW(p, es, re, im)                                                                     \
    do {                                                                                            \
        REAL r_[VW], i_[VW];                                                                        \
        UNROLL for (int q_ = 0; q_ < VW; q_++) IN_AT((p) + (IDX)q_ * (es), r_[q_], i_[q_]);          \
        re = VLOADV(r_);                                                                            \
        im = VLOADV(i_);                                                                            \
    } while (0)
#endif

#if OUT_MODE == MODE_ROWS && VW > 1
#define STORE_ROW(p, es, re, im) OUT_ROW(p, re, im)
#else
#define STORE_ROW(p, es, re, im)                                                                    \
    do {                                                                                            \
        REAL r_[VW], i_[VW];                                                                        \
        VSTOREV(re, r_);                                                                            \
        VSTOREV(im, i_);                                                                            \
        UNROLL for (int q_ = 0; q_ < VW; q_++) OUT_AT((p) + (IDX)q_ * (es), r_[q_], i_[q_]);         \
    } while (0)
#endif

/* Moves one element from input position p to output position q, scaled. */
#define MOVE(p, q)                                                                                  \
    do {                                                                                            \
        REAL re_, im_;                                                                              \
        IN_AT(p, re_, im_);                                                                         \
        OUT_AT(q, re_ * scale, im_ * scale_im);                                                     \
    } while (0)

/* Applies the buffer offsets (complex elements for interleaved data, reals per plane otherwise). */
#if IN_PLANAR
#define IN_OFFSET() (in_re += in_off, in_im += in_off)
#else
#define IN_OFFSET() (in_re += 2 * in_off)
#endif
#if OUT_PLANAR
#define OUT_OFFSET() (out_re += out_off, out_im += out_off)
#else
#define OUT_OFFSET() (out_re += 2 * out_off)
#endif

#define TRANSPOSE_ARGS                                                                              \
    __global const REAL *in_re, __global const REAL *in_im, __global REAL *out_re, __global REAL *out_im, \
        __global const REAL *tw, __global const ulong *params, const IDX in_off, const IDX out_off,  \
        const REAL conj_in, const REAL conj_out, const REAL scale PRE_PARAMS POST_PARAMS
