/* fftx_stockham: a batch of 1D FFTs along one axis, one execution-tree leaf.
 *
 * A slot is VW transforms, one per lane of V. A work-group holds T slots (local y) and P work-items per slot
 * (local x). The slot is loaded into local memory, transformed by NPASS self-sorting Stockham passes
 * (radix PR_q, span PL_q, twiddles at table offset PO_q), and stored. CPUs use P = 1 and VW = 8 or so:
 * every lane op is then a SIMD op and no barrier is needed. GPUs use VW = 1 and P > 1.
 *
 * Host defines (all compile-time constants):
 *   N, NPASS, PR_q, PL_q, PO_q           transform length and pass plan (q = 1..NPASS)
 *   P, T                                 work-items per slot, slots per work-group
 *   BATCH                                number of transforms
 *   NBATCH, BC_d, IS_d, OS_d             batch dimensions (d = 0..NBATCH-1): count, input and output stride
 *   IN_STRIDE, OUT_STRIDE                element stride along the transform
 *   IN_PLANAR, OUT_PLANAR                1 for separate real/imaginary arrays
 *   IN_MODE, OUT_MODE                    MODE_GATHER, MODE_ROWS (stride 1) or MODE_COLS (IS_0/OS_0 == 1)
 *   POST_TW, PT_N, PT_LO, PT_OFF         optional four-step twiddle on output element k: w_PT_N^e with
 *   PT_C, PT_KMUL, PT_MS                 e = c_PT_C * (sum_d PT_M[d] c_d + PT_KMUL k), c_d the transform's
 *                                        coordinate along batch dimension d; two-level table at PT_OFF
 *   LPAD                                 local arrays get one padding vector every 2^LPAD, which breaks the
 *                                        cache-set conflicts of power-of-two pass strides (large value: none)
 * Strides, offsets and counts are in complex elements.
 */
#define LIX(i) ((i) + ((i) >> LPAD))
#define LN (N + (N >> LPAD) + 1)

#define MODE_GATHER 0
#define MODE_ROWS 1
#define MODE_COLS 2

#if P > 1
#define SLOT_BARRIER() barrier(CLK_LOCAL_MEM_FENCE)
#else
#define SLOT_BARRIER()
#endif

#if IN_PLANAR
#define IN_RE(p) in_re[p]
#define IN_IM(p) in_im[p]
#else
#define IN_RE(p) in_re[2 * (p)]
#define IN_IM(p) in_re[2 * (p) + 1]
#endif
#if OUT_PLANAR
#define OUT_RE(p) out_re[p]
#define OUT_IM(p) out_im[p]
#else
#define OUT_RE(p) out_re[2 * (p)]
#define OUT_IM(p) out_re[2 * (p) + 1]
#endif

/* Coordinates of transform t along the batch dimensions, and its input and output offsets. */
AI void transform_position(IDX t, IDX *coord, IDX *in_off, IDX *out_off) {
    IDX i = 0, o = 0;
#define BATCH_DIM(d)                                                                                \
    coord[d] = t % CAT(BC, d);                                                                      \
    i += coord[d] * CAT(IS, d);                                                                     \
    o += coord[d] * CAT(OS, d);                                                                     \
    t /= CAT(BC, d);
#if NBATCH > 0
    BATCH_DIM(0)
#endif
#if NBATCH > 1
    BATCH_DIM(1)
#endif
#if NBATCH > 2
    BATCH_DIM(2)
#endif
#if NBATCH > 3
    BATCH_DIM(3)
#endif
#if NBATCH > 4
    BATCH_DIM(4)
#endif
#if NBATCH > 5
    BATCH_DIM(5)
#endif
#if NBATCH > 6
#error "at most 6 batch dimensions"
#endif
    *in_off = i;
    *out_off = o;
}

/* One Stockham pass: y[b*L + m*L/R + k] = sum_j w_R^(jm) w_L^(jk) x[g + j*N/R], g = b*L/R + k. */
#define PASS(R, L, OFF, SRE, SIM, DRE, DIM)                                                         \
    do {                                                                                            \
        const int Ls = (L) / (R);                                                                   \
        for (int g = lid; g < N / (R); g += P) {                                                    \
            const int k = g % Ls, b = g / Ls;                                                       \
            V xr[R], xi[R];                                                                         \
            UNROLL for (int j = 0; j < (R); j++) {                                                  \
                xr[j] = SRE[LIX(g + j * (N / (R)))];                                                     \
                xi[j] = SIM[LIX(g + j * (N / (R)))];                                                     \
            }                                                                                       \
            if (Ls > 1) {                                                                           \
                UNROLL for (int j = 1; j < (R); j++) {                                              \
                    __global const REAL *w = tw + 2 * ((OFF) + (j - 1) * Ls + k);                   \
                    CMUL(xr[j], xi[j], xr[j], xi[j], w[0], w[1]);                                   \
                }                                                                                   \
            }                                                                                       \
            CAT(fft, R)(xr, xi);                                                                    \
            UNROLL for (int m = 0; m < (R); m++) {                                                  \
                DRE[LIX(b * (L) + m * Ls + k)] = xr[m];                                                  \
                DIM[LIX(b * (L) + m * Ls + k)] = xi[m];                                                  \
            }                                                                                       \
        }                                                                                           \
        SLOT_BARRIER();                                                                             \
    } while (0)

#define STEP(q, SRE, SIM, DRE, DIM) PASS(CAT(PR, q), CAT(PL, q), CAT(PO, q), SRE, SIM, DRE, DIM)

#if POST_TW
__constant ulong PT_M[NBATCH] = {PT_MS};
#endif

/* Everything applied to output element k on its way out: four-step twiddle, scale, conjugation. */
#if POST_TW
#define POST_TWIDDLE(xr, xi, k)                                                                     \
    do {                                                                                            \
        REAL wr_[VW], wi_[VW];                                                                      \
        UNROLL for (int l_ = 0; l_ < VW; l_++) {                                                    \
            ulong e_ = (tw_c[l_] * ((tw_base[l_] + (ulong)PT_KMUL * (ulong)(k)) % (ulong)PT_N)) % (ulong)PT_N; \
            __global const REAL *lo_ = tw + 2 * (PT_OFF + e_ % PT_LO);                              \
            __global const REAL *hi_ = tw + 2 * (PT_OFF + PT_LO + e_ / PT_LO);                      \
            wr_[l_] = lo_[0] * hi_[0] - lo_[1] * hi_[1];                                            \
            wi_[l_] = lo_[0] * hi_[1] + lo_[1] * hi_[0];                                            \
        }                                                                                           \
        V w_re_ = VLOADV(wr_), w_im_ = VLOADV(wi_);                                                 \
        CMUL(xr, xi, xr, xi, w_re_, w_im_);                                                         \
    } while (0)
#else
#define POST_TWIDDLE(xr, xi, k)
#endif
#define FINISH(xr, xi, k)                                                                           \
    do {                                                                                            \
        POST_TWIDDLE(xr, xi, k);                                                                    \
        xr *= scale;                                                                                \
        xi *= scale * conj_out;                                                                     \
    } while (0)

/* Element n of every lane, from per-lane offsets: the general path. */
#define GATHER_IN(n, dre, dim)                                                                      \
    do {                                                                                            \
        REAL xr_[VW], xi_[VW];                                                                      \
        UNROLL for (int l_ = 0; l_ < VW; l_++) {                                                    \
            IDX p_ = ib[l_] + (IDX)(n) * IN_STRIDE;                                                 \
            xr_[l_] = IN_RE(p_);                                                                    \
            xi_[l_] = IN_IM(p_);                                                                    \
        }                                                                                           \
        dre = VLOADV(xr_);                                                                          \
        dim = VLOADV(xi_) * conj_in;                                                                \
    } while (0)

#define SCATTER_OUT(k, xr, xi)                                                                      \
    do {                                                                                            \
        REAL sr_[VW], si_[VW];                                                                      \
        VSTOREV(xr, sr_);                                                                           \
        VSTOREV(xi, si_);                                                                           \
        UNROLL for (int l_ = 0; l_ < VW; l_++) {                                                    \
            if (t0 + l_ < BATCH) {                                                                  \
                IDX p_ = ob[l_] + (IDX)(k) * OUT_STRIDE;                                            \
                OUT_RE(p_) = sr_[l_];                                                               \
                OUT_IM(p_) = si_[l_];                                                               \
            }                                                                                       \
        }                                                                                           \
    } while (0)

__kernel __attribute__((reqd_work_group_size(P, T, 1))) void
fftx_stockham(__global const REAL *in_re, __global const REAL *in_im, __global REAL *out_re,
              __global REAL *out_im, __global const REAL *tw, const IDX in_off, const IDX out_off,
              const REAL conj_in, const REAL conj_out, const REAL scale) {
#if IN_PLANAR
    in_re += in_off;
    in_im += in_off;
#else
    in_re += 2 * in_off;
#endif
#if OUT_PLANAR
    out_re += out_off;
    out_im += out_off;
#else
    out_re += 2 * out_off;
#endif
    const int lid = get_local_id(0);
    const int sl = get_local_id(1);
    const IDX t0 = (IDX)get_global_id(1) * VW;

    __local V lre[2][T][LN], lim[2][T][LN];
    __local V *are = lre[0][sl], *aim = lim[0][sl], *bre = lre[1][sl], *bim = lim[1][sl];

    /* Lanes past the batch read the last transform and never store. */
    IDX ib[VW], ob[VW], c0 = 0;
#if POST_TW
    ulong tw_c[VW], tw_base[VW];
#endif
    UNROLL for (int l = 0; l < VW; l++) {
        IDX t = t0 + l < BATCH ? t0 + l : BATCH - 1;
        IDX coord[NBATCH > 0 ? NBATCH : 1];
        transform_position(t, coord, &ib[l], &ob[l]);
        if (l == 0 && NBATCH > 0)
            c0 = coord[0];
#if POST_TW
        tw_c[l] = coord[PT_C];
        tw_base[l] = 0;
        UNROLL for (int d = 0; d < NBATCH; d++) tw_base[l] += ((ulong)PT_M[d] * coord[d]) % (ulong)PT_N;
#endif
    }
#if IN_MODE == MODE_COLS || OUT_MODE == MODE_COLS
    /* The lanes are VW neighbours along batch dimension 0. */
    const int lanes_adjacent = t0 + VW <= BATCH && c0 + VW <= BC0;
#endif

    /* ---- load the slot into A ---- */
#if IN_MODE == MODE_ROWS && VW > 1
    for (int n0 = lid * VW; n0 + VW <= N; n0 += P * VW) {
        V xr[VW], xi[VW];
        UNROLL for (int l = 0; l < VW; l++) {
#if IN_PLANAR
            xr[l] = VLOADV(in_re + ib[l] + n0);
            xi[l] = VLOADV(in_im + ib[l] + n0);
#else
            __global const REAL *p = in_re + 2 * (ib[l] + n0);
            V lo = VLOADV(p), hi = VLOADV(p + VW);
            xr[l] = EVEN(lo, hi);
            xi[l] = ODD(lo, hi);
#endif
        }
        TRANSPOSE(xr);
        TRANSPOSE(xi);
        UNROLL for (int q = 0; q < VW; q++) {
            are[LIX(n0 + q)] = xr[q];
            aim[LIX(n0 + q)] = xi[q] * conj_in;
        }
    }
    for (int n = (N / VW) * VW + lid; n < N; n += P)
        GATHER_IN(n, are[LIX(n)], aim[LIX(n)]);
#elif IN_MODE == MODE_COLS && VW > 1
    if (lanes_adjacent) {
        for (int n = lid; n < N; n += P) {
            IDX p = ib[0] + (IDX)n * IN_STRIDE;
#if IN_PLANAR
            are[LIX(n)] = VLOADV(in_re + p);
            aim[LIX(n)] = VLOADV(in_im + p) * conj_in;
#else
            V lo = VLOADV(in_re + 2 * p), hi = VLOADV(in_re + 2 * p + VW);
            are[LIX(n)] = EVEN(lo, hi);
            aim[LIX(n)] = ODD(lo, hi) * conj_in;
#endif
        }
    } else {
        for (int n = lid; n < N; n += P)
            GATHER_IN(n, are[LIX(n)], aim[LIX(n)]);
    }
#else
    for (int n = lid; n < N; n += P)
        GATHER_IN(n, are[LIX(n)], aim[LIX(n)]);
#endif
    SLOT_BARRIER();

    /* ---- Stockham passes, alternating A -> B -> A ... ---- */
#if NPASS >= 1
    STEP(1, are, aim, bre, bim);
#endif
#if NPASS >= 2
    STEP(2, bre, bim, are, aim);
#endif
#if NPASS >= 3
    STEP(3, are, aim, bre, bim);
#endif
#if NPASS >= 4
    STEP(4, bre, bim, are, aim);
#endif
#if NPASS >= 5
    STEP(5, are, aim, bre, bim);
#endif
#if NPASS >= 6
    STEP(6, bre, bim, are, aim);
#endif
#if NPASS >= 7
    STEP(7, are, aim, bre, bim);
#endif
#if NPASS >= 8
    STEP(8, bre, bim, are, aim);
#endif
#if NPASS >= 9
    STEP(9, are, aim, bre, bim);
#endif
#if NPASS >= 10
    STEP(10, bre, bim, are, aim);
#endif
#if NPASS >= 11
    STEP(11, are, aim, bre, bim);
#endif
#if NPASS >= 12
    STEP(12, bre, bim, are, aim);
#endif
#if NPASS > 12
#error "at most 12 passes"
#endif
#if NPASS % 2 == 1
    __local V *fre = bre, *fim = bim;
#else
    __local V *fre = are, *fim = aim;
#endif

    /* ---- store the slot ---- */
#if OUT_MODE == MODE_ROWS && VW > 1
    for (int k0 = lid * VW; k0 + VW <= N; k0 += P * VW) {
        V xr[VW], xi[VW];
        UNROLL for (int q = 0; q < VW; q++) {
            xr[q] = fre[LIX(k0 + q)];
            xi[q] = fim[LIX(k0 + q)];
            FINISH(xr[q], xi[q], k0 + q);
        }
        TRANSPOSE(xr);
        TRANSPOSE(xi);
        UNROLL for (int l = 0; l < VW; l++) {
            if (t0 + l < BATCH) {
#if OUT_PLANAR
                VSTOREV(xr[l], out_re + ob[l] + k0);
                VSTOREV(xi[l], out_im + ob[l] + k0);
#else
                __global REAL *p = out_re + 2 * (ob[l] + k0);
                VSTOREV(INTERLEAVE_LO(xr[l], xi[l]), p);
                VSTOREV(INTERLEAVE_HI(xr[l], xi[l]), p + VW);
#endif
            }
        }
    }
    for (int k = (N / VW) * VW + lid; k < N; k += P) {
        V xr = fre[LIX(k)], xi = fim[LIX(k)];
        FINISH(xr, xi, k);
        SCATTER_OUT(k, xr, xi);
    }
#elif OUT_MODE == MODE_COLS && VW > 1
    for (int k = lid; k < N; k += P) {
        V xr = fre[LIX(k)], xi = fim[LIX(k)];
        FINISH(xr, xi, k);
        if (lanes_adjacent) {
            IDX p = ob[0] + (IDX)k * OUT_STRIDE;
#if OUT_PLANAR
            VSTOREV(xr, out_re + p);
            VSTOREV(xi, out_im + p);
#else
            VSTOREV(INTERLEAVE_LO(xr, xi), out_re + 2 * p);
            VSTOREV(INTERLEAVE_HI(xr, xi), out_re + 2 * p + VW);
#endif
        } else {
            SCATTER_OUT(k, xr, xi);
        }
    }
#else
    for (int k = lid; k < N; k += P) {
        V xr = fre[LIX(k)], xi = fim[LIX(k)];
        FINISH(xr, xi, k);
        SCATTER_OUT(k, xr, xi);
    }
#endif
}
