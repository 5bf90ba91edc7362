/* fftx_elementwise: one pass over memory that computes each output element from one or two input elements and
 * a table: the real-transform stage of real transforms too long for one Stockham kernel (real.cl has the
 * maths), the split of two odd real transforms run as one complex one, and Rader's permutations and
 * product (rader in src/codegen). One work-item per output element k (global x) of transform t (global y);
 * N is the complex length. OP selects:
 *   OP_R2C_POST    Z_0..Z_N-1 -> X_0..X_N                          (even R2C of length 2N; table: w_2N^k)
 *   OP_TRUNCATE    the first OUT_COUNT elements                    (odd R2C: keep N/2 + 1)
 *   OP_C2R_PRE     X_0..X_N -> Z'_0..Z'_N-1                         (even C2R of length 2N; table: w_2N^k)
 *   OP_EXPAND      X_0..X_N/2 -> X_0..X_N-1 by symmetry              (odd C2R)
 *   OP_TWIN_SPLIT  Z_0..Z_N-1 -> X_k = (Z_k + conj(Z_N-k)) / 2 and, TWIN_OUT further, Y_k = (Z_k - conj(Z_N-k)) / 2i
 *                  for k <= N / 2 (two odd real transforms x + iy; lone transforms store X only)
 *   OP_TWIN_MERGE  X_0..X_N/2 and, TWIN_IN further, Y_0..Y_N/2 -> Z_k = X_k + i Y_k for k < N, each extended by
 *                  symmetry (two odd C2R transforms as one complex one, whose result is x + iy; backward only)
 *   OP_RADER_GATHER   x_(g^k) for k < N - 1, then x_0                (Rader; table: g^k as REALs)
 *   OP_RADER_PRODUCT  conj(x_k) times entry k for k < N - 1, A_0 kept at N (table: Rader's spectrum)
 *   OP_RADER_SCATTER  x_0 + conj(z_q) to output g^-q, x_0 + A_0 to output 0, outputs below OUT_COUNT only
 *                     (table: g^-q as REALs; runs over q < N - 1)
 * LONE_DIM: a transform at coordinate 0 of that batch dimension (a lone one) stores no twin: not the split's
 * Y, nor the twin half of pairs far apart on output (OUT_AT_OWN); another pair stores it as its own.
 * Each work-item runs PER_ITEM consecutive elements of the LOOP_COUNT.
 * PAIRED (the real stages and twin ops on CPUs at unit strides, VW lanes): output k and its mirror N - k read
 * the same two inputs (and share the root, w_2N^(N-k) = -conj(w_2N^k)), so a work-item takes CHUNKS_PER_ITEM
 * chunks of VW outputs k = c VW .. c VW + VW - 1 (c = 1 .. CHUNKS, all below N / 2) together with their
 * mirrors, as vectors; the work-item at x = 0 also computes the outputs no chunk covers.
 * Arguments match fftx_stockham, so a plan launches either the same way, fused callbacks' ones included
 * (PRE_CALLBACK, POST_CALLBACK: access.cl).
 */
#define OP_R2C_POST 1
#define OP_TRUNCATE 2
#define OP_C2R_PRE 3
#define OP_EXPAND 4
#define OP_RADER_GATHER 5
#define OP_RADER_PRODUCT 6
#define OP_RADER_SCATTER 7
#define OP_TWIN_SPLIT 8
#define OP_TWIN_MERGE 9

/* element() and mirrored_chunk() load and store for the kernel, so they take its fused callbacks' scope as
 * parameters after their own (CALLBACK_SCOPE; the kernel passes CALLBACK_PASS) and declare the temporaries
 * access.cl's callback macros use (CALLBACK_TEMPS). */
#if PRE_CALLBACK || POST_CALLBACK
#define CALLBACK_SCOPE                                                                              \
    , __global void *const fftx_cb_in_re, __global void *const fftx_cb_in_im, __global void *const fftx_cb_out_re, \
        __global void *const fftx_cb_out_im, const IDX in_off, const IDX out_off PRE_PARAMS POST_PARAMS
#define CALLBACK_PASS , fftx_cb_in_re, fftx_cb_in_im, fftx_cb_out_re, fftx_cb_out_im, in_off, out_off PRE_ARGS POST_ARGS
#else
#define CALLBACK_SCOPE
#define CALLBACK_PASS
#endif

#define ELEMENT(n, re, im) IN_AT(ib + (IDX)(n) * in_stride, re, im)

/* Element k of the transform at input offset ib and output offset ob. */
AI void element(__global const REAL *in_re, __global const REAL *in_im, __global REAL *out_re,
                __global REAL *out_im, __global const REAL *tw, const IDX in_stride, const IDX out_stride,
                const IDX in_half, const IDX out_half, const IDX ib, const IDX ob, const IDX k,
                const int lone, const REAL conj_in, const REAL conj_out, const REAL scale CALLBACK_SCOPE) {
    CALLBACK_TEMPS();
    REAL xr = K(0.0), xi = K(0.0);
    IDX dest = k;
#if OP == OP_R2C_POST
    REAL ar, ai, br, bi;
    ELEMENT(k % N, ar, ai);
    ELEMENT((N - k) % N, br, bi);
    HERMITIAN_COMBINE(ar, ai, br, bi, k, K(0.5), xr, xi);
#elif OP == OP_TRUNCATE
    ELEMENT(k, xr, xi);
#elif OP == OP_C2R_PRE
    REAL ar, ai, br, bi;
    ELEMENT(k, ar, ai);
    ELEMENT(N - k, br, bi);
    /* In the conjugated domain of backward transforms (real.cl); DC and Nyquist are real. */
    ai = k == 0 ? K(0.0) : ai * conj_in;
    bi = k == 0 ? K(0.0) : bi * conj_in;
    HERMITIAN_COMBINE(ar, ai, br, bi, k, K(1.0), xr, xi);
#elif OP == OP_EXPAND
    ELEMENT(k <= N / 2 ? k : N - k, xr, xi);
    xi = k == 0 ? K(0.0) : (k <= N / 2 ? xi : -xi) * conj_in;
#elif OP == OP_RADER_GATHER
    ELEMENT(k < N - 1 ? (IDX)tw[k] : 0, xr, xi);
    xi *= conj_in;
#elif OP == OP_RADER_SCATTER
    REAL x0r, x0i;
    ELEMENT(N - 1, x0r, x0i);
    ELEMENT(k, xr, xi);
    xr = x0r + xr;
    xi = x0i - xi;
    dest = (IDX)tw[k];
    if (k == 0) {
        REAL ar, ai;
        ELEMENT(N, ar, ai);
        OUT_AT_LONE(lone, ob, (x0r + ar) * scale, (x0i + ai) * scale * conj_out);
    }
    if (dest >= OUT_COUNT)
        return;
#elif OP == OP_TWIN_SPLIT
    REAL ar, ai, br, bi;
    ELEMENT(k, ar, ai);
    ELEMENT((N - k) % N, br, bi);
    /* Halved before the sums, which may exceed the largest float where the results do not. */
    xr = K(0.5) * ar + K(0.5) * br;
    xi = K(0.5) * ai - K(0.5) * bi;
    if (!lone)
        OUT_AT(ob + (IDX)TWIN_OUT + k * out_stride, (K(0.5) * ai + K(0.5) * bi) * scale,
               (K(0.5) * br - K(0.5) * ar) * scale * conj_out);
#elif OP == OP_TWIN_MERGE
    REAL ar, ai, br, bi;
    const IDX m = k <= N / 2 ? k : N - k;
    ELEMENT(m, ar, ai);
    IN_AT(ib + (IDX)TWIN_IN + m * in_stride, br, bi);
    /* Above N / 2 the values are conjugates of their mirrors; the DC is real. A C2R always runs backward, in
     * the conjugated domain: the result is conj(X + iY). As the first step (conj_in = -1) the pass reads X and
     * Y themselves, after an earlier pass (conj_in = 1) their conjugates A, B, and conj(X + iY) = A - iB. */
    const REAL sign = k == 0 ? K(0.0) : (k <= N / 2 ? K(1.0) : K(-1.0));
    xr = ar + conj_in * sign * bi;
    xi = conj_in * sign * ai - br;
#elif OP == OP_RADER_PRODUCT
    ELEMENT(k, xr, xi);
    /* The one work-item that reads A_0 keeps it: no other touches element N. */
    if (k == 0)
        OUT_AT(ob + (IDX)N * out_stride, xr, xi);
    xi = -xi;
    __global const REAL *w = tw + 2 * k;
    REAL yr = xr * w[0] - xi * w[1];
    xi = xr * w[1] + xi * w[0];
    xr = yr;
#endif
    OUT_AT_LONE(lone, ob + dest * out_stride, xr * scale, xi * scale * conj_out);
}


#if PAIRED
#if OP == OP_R2C_POST
#define PAIR_SCALE K(0.5)
#else
#define PAIR_SCALE K(1.0)
#endif
/* Outputs k .. k + VW - 1 and their mirrors (k >= VW, k + VW <= N / 2), both sides at unit stride. The twin
 * split stores no mirrors (its outputs end at N / 2) but X and Y; the twin merge reads X and Y. */
AI void mirrored_chunk(__global const REAL *in_re, __global const REAL *in_im, __global REAL *out_re,
                       __global REAL *out_im, __global const REAL *tw, const IDX ib, const IDX ob, const IDX k,
                       const int lone, const REAL conj_in, const REAL conj_out, const REAL scale CALLBACK_SCOPE) {
    CALLBACK_TEMPS();
    const IDX mirror = N - k - (VW - 1);
    V ar, ai, br, bi, xr, xi, yr, yi;
    IN_ROW(ib + k, ar, ai);
#if OP == OP_TWIN_MERGE
    /* As element(): conj(X + iY) = A - iB, with X_N-k = conj(X_k), Y_N-k = conj(Y_k). */
    IN_ROW(ib + (IDX)TWIN_IN + k, br, bi);
    xr = ar + conj_in * bi;
    xi = conj_in * ai - br;
    yr = REVERSE(ar - conj_in * bi);
    yi = REVERSE(-conj_in * ai - br);
    OUT_ROW(ob + k, xr * scale, xi * (scale * conj_out));
    OUT_ROW(ob + mirror, yr * scale, yi * (scale * conj_out));
#else
    IN_ROW(ib + mirror, br, bi);
    br = REVERSE(br);
    bi = REVERSE(bi);
#if OP == OP_TWIN_SPLIT
    /* As element(): X_k = (Z_k + conj(Z_N-k)) / 2, Y_k = (Z_k - conj(Z_N-k)) / 2i. */
    OUT_ROW(ob + k, (ar + br) * (K(0.5) * scale), (ai - bi) * (K(0.5) * scale * conj_out));
    if (!lone)
        OUT_ROW(ob + (IDX)TWIN_OUT + k, (ai + bi) * (K(0.5) * scale), (br - ar) * (K(0.5) * scale * conj_out));
#else
#if defined(RT_SHIFT) && (1 << RT_SHIFT) < VW
#error "a chunk's roots must share one high entry of the split table"
#endif
    V wr, wi;
#if OP == OP_C2R_PRE
    ai *= conj_in;
    bi *= conj_in;
#endif
    REAL_ROOTS_V(k, wr, wi);
    HERMITIAN_COMBINE_W(ar, ai, br, bi, wr, wi, PAIR_SCALE, xr, xi);
    HERMITIAN_COMBINE_W(br, bi, ar, ai, -wr, wi, PAIR_SCALE, yr, yi);
    OUT_ROW(ob + k, xr * scale, xi * (scale * conj_out));
    OUT_ROW(ob + mirror, REVERSE(yr) * scale, REVERSE(yi) * (scale * conj_out));
#endif
#endif
}

/* Outputs first .. last - 1 of one transform, element by element. */
#define ELEMENTS(first, last)                                                                       \
    for (IDX k = (first); k < (last); k++)                                                          \
    element(in_re, in_im, out_re, out_im, tw, in_stride, out_stride, in_half, out_half, ib, ob, k, lone, \
            conj_in, conj_out, scale CALLBACK_PASS)
#endif

#ifdef LONE_DIM
#define LONE(coord) ((coord)[LONE_DIM] == 0)
#else
#define LONE(coord) 0
#endif

__kernel void fftx_elementwise(__global const REAL *in_re, __global const REAL *in_im, __global REAL *out_re,
                               __global REAL *out_im, __global const REAL *tw, __global const ulong *params,
                               const IDX in_off, const IDX out_off, const REAL conj_in, const REAL conj_out,
                               const REAL scale PRE_PARAMS POST_PARAMS) {
    CALLBACK_BASES();
    SHIFT_BUFFERS();
    const IDX t = get_global_id(1);
    const IDX in_stride = (IDX)params[P_IN_STRIDE], out_stride = (IDX)params[P_OUT_STRIDE];
    const IDX in_half = (IDX)params[P_IN_HALF], out_half = (IDX)params[P_OUT_HALF];
    if (t >= (IDX)params[P_BATCH])
        return;
    IDX coord[NBATCH > 0 ? NBATCH : 1], ib, ob;
#if PAIRED
    const IDX c0 = 1 + get_global_id(0) * CHUNKS_PER_ITEM;
    if (c0 > CHUNKS && get_global_id(0) > 0)
        return;
    transform_position(params, t, coord, &ib, &ob);
    const int lone = LONE(coord);
    if (get_global_id(0) == 0) {
        if (CHUNKS == 0) {
            ELEMENTS(0, OUT_COUNT);
        } else {
            ELEMENTS(0, VW);
            ELEMENTS((CHUNKS + 1) * VW, min(N - (CHUNKS + 1) * VW + 1, OUT_COUNT));
            ELEMENTS(N - VW + 1, OUT_COUNT);
        }
    }
    for (IDX c = c0; c < c0 + CHUNKS_PER_ITEM && c <= CHUNKS; c++)
        mirrored_chunk(in_re, in_im, out_re, out_im, tw, ib, ob, c * VW, lone, conj_in, conj_out, scale CALLBACK_PASS);
#else
    const IDX k0 = get_global_id(0) * PER_ITEM;
    if (k0 >= LOOP_COUNT)
        return;
    transform_position(params, t, coord, &ib, &ob);
    const int lone = LONE(coord);
    /* A full run has a constant trip count, which the compiler vectorizes. */
    if (k0 + PER_ITEM <= LOOP_COUNT) {
        for (int e = 0; e < PER_ITEM; e++)
            element(in_re, in_im, out_re, out_im, tw, in_stride, out_stride, in_half, out_half, ib, ob, k0 + e,
                    lone, conj_in, conj_out, scale CALLBACK_PASS);
    } else {
        for (IDX k = k0; k < LOOP_COUNT; k++)
            element(in_re, in_im, out_re, out_im, tw, in_stride, out_stride, in_half, out_half, ib, ob, k,
                    lone, conj_in, conj_out, scale CALLBACK_PASS);
    }
#endif
}
