/* fftx_chirp: the elementwise passes of Bluestein's algorithm for a length N without a butterfly.
 *
 * With c_n = w_N^(n^2/2) = exp(-pi i (n^2 mod 2N) / N) and b the symmetric chirp conj(c_|m|) padded to a
 * smooth length M >= 2N - 1, X_k = c_k (a * b)_k where a_n = x_n c_n: a cyclic convolution done by FFTs of
 * length M. fftx only has forward FFT kernels, so the inverse one is FFT(conj(.)), conjugated afterwards:
 *   CHIRP_IN    out_m = x_m c_m for m < N, 0 up to M              (into scratch; table: c)
 *   POINTWISE   out_m = conj(A_m) conj(B_m), B = FFT_M(b) / M     (A = FFT_M(a); table: conj(B))
 *   CHIRP_OUT   out_k = conj(z_k) c_k for k < OUT_COUNT            (z = FFT_M of the previous; table: c)
 * One work-item per element (global x) of transform t (global y); arguments as fftx_stockham.
 */
#define CHIRP_IN 1
#define POINTWISE 2
#define CHIRP_OUT 3

__kernel void fftx_chirp(__global const REAL *in_re, __global const REAL *in_im, __global REAL *out_re,
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

    REAL xr = K(0.0), xi = K(0.0);
#if CHIRP == CHIRP_IN
    if (k < N) {
        IN_AT(ib + k * in_stride, xr, xi);
        xi *= conj_in;
    }
#else
    IN_AT(ib + k * in_stride, xr, xi);
    xi = -xi;
#endif
    __global const REAL *w = tw + 2 * (k < TABLE_LEN ? k : 0);
    REAL yr = xr * w[0] - xi * w[1], yi = xr * w[1] + xi * w[0];
    OUT_AT(ob + k * out_stride, yr * scale, yi * scale * conj_out);
}
