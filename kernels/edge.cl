/* fftx_real_edge: the real-transform stage of a real transform too long for one Stockham kernel, as a
 * pass of its own over memory around a complex four-step (real.cl has the maths). One work-item per
 * output element k (global x) of transform t (global y). N is the complex length; EDGE selects:
 *   EDGE_R2C_POST   Z_0..Z_N-1 -> X_0..X_N                     (even R2C of length 2N)
 *   EDGE_TRUNCATE   the first OUT_COUNT elements               (odd R2C: keep N/2 + 1)
 *   EDGE_C2R_PRE    X_0..X_N -> Z'_0..Z'_N-1                    (even C2R of length 2N)
 *   EDGE_EXPAND     X_0..X_N/2 -> X_0..X_N-1 by symmetry         (odd C2R)
 * Arguments match fftx_stockham, so a plan launches either the same way.
 */
#define EDGE_R2C_POST 1
#define EDGE_TRUNCATE 2
#define EDGE_C2R_PRE 3
#define EDGE_EXPAND 4

#define ELEMENT(n, re, im) IN_AT(ib + (IDX)(n) * in_stride, re, im)

__kernel void fftx_real_edge(__global const REAL *in_re, __global const REAL *in_im, __global REAL *out_re,
                             __global REAL *out_im, __global const REAL *tw, __global const ulong *params,
                             const IDX in_off, const IDX out_off, const REAL conj_in, const REAL conj_out,
                             const REAL scale) {
#if IN_KIND == KIND_COMPLEX && !IN_PLANAR
    in_re += 2 * in_off;
#else
    in_re += in_off;
    in_im += in_off;
#endif
#if OUT_KIND == KIND_COMPLEX && !OUT_PLANAR
    out_re += 2 * out_off;
#else
    out_re += out_off;
    out_im += out_off;
#endif
    const IDX k = get_global_id(0), t = get_global_id(1);
    const IDX in_stride = (IDX)params[P_IN_STRIDE], out_stride = (IDX)params[P_OUT_STRIDE];
    const IDX in_half = (IDX)params[P_IN_HALF], out_half = (IDX)params[P_OUT_HALF];
    if (k >= OUT_COUNT || t >= (IDX)params[P_BATCH])
        return;
    IDX coord[NBATCH > 0 ? NBATCH : 1], ib, ob;
    transform_position(params, t, coord, &ib, &ob);

    REAL xr, xi;
#if EDGE == EDGE_R2C_POST
    REAL ar, ai, br, bi;
    ELEMENT(k % N, ar, ai);
    ELEMENT((N - k) % N, br, bi);
    HERMITIAN_COMBINE(ar, ai, br, bi, k, K(0.5), xr, xi);
#elif EDGE == EDGE_TRUNCATE
    ELEMENT(k, xr, xi);
#elif EDGE == EDGE_C2R_PRE
    REAL ar, ai, br, bi;
    ELEMENT(k, ar, ai);
    ELEMENT(N - k, br, bi);
    /* In the conjugated domain of backward transforms (real.cl); DC and Nyquist are real. */
    ai = k == 0 ? K(0.0) : ai * conj_in;
    bi = k == 0 ? K(0.0) : bi * conj_in;
    HERMITIAN_COMBINE(ar, ai, br, bi, k, K(1.0), xr, xi);
#else
    ELEMENT(k <= N / 2 ? k : N - k, xr, xi);
    xi = k == 0 ? K(0.0) : (k <= N / 2 ? xi : -xi) * conj_in;
#endif
    OUT_AT(ob + k * out_stride, xr * scale, xi * scale * conj_out);
}
