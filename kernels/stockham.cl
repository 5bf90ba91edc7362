/* fftx_stockham: a batch of 1D FFTs along one axis, one execution-tree leaf.
 *
 * A slot is VW transforms, one per lane of V. A work-group holds T slots (local y) and P work-items per slot
 * (local x). The slot is loaded into local memory, transformed by NPASS self-sorting Stockham passes
 * (radix PR_q, span PL_q, twiddles at table offset PO_q), and stored. CPUs use P = 1 and VW = 8 or so:
 * every lane op is then a SIMD op and no barrier is needed. GPUs use VW = 1 and P > 1.
 *
 * Compile-time defines fix the shape of the code:
 *   N, NPASS, PR_q, PL_q, PO_q    transform length and pass plan (q = 1..NPASS)
 *   P, T, LPAD                    work-items per slot, slots per work-group, local padding (one vector
 *                                 every 2^LPAD breaks the cache-set conflicts of power-of-two strides)
 *   NBATCH                        batch dimensions
 *   IN_PLANAR, OUT_PLANAR         separate real and imaginary arrays
 *   IN_MODE, OUT_MODE             MODE_ROWS (element stride 1), MODE_COLS (lanes are neighbours along
 *                                 batch dimension 0, stride 1) or MODE_GATHER
 *   POST_TW                       0, or the four-step twiddle on output element k of a transform with batch
 *                                 coordinates c: w_n^e, e = c[PT_C] * (sum_d m_d c[d] + kmul k) mod n.
 *                                 POST_TW_LANES: e = (c0 + lane) kmul k, with a per-lane factor table.
 *   PT_OFF                        where the four-step tables start (after the pass twiddles)
 * Sizes and strides are runtime values in `params` (ulong, complex elements):
 *   P_IN_STRIDE, P_OUT_STRIDE, P_BATCH, P_TW_N (n), P_TW_KMUL, P_TW_SHIFT (log2 of the low table size),
 *   P_TW_HI (offset of the high table), P_TW_LANES (offset of the lane table), P_TW_C, then per batch
 *   dimension d at P_DIM + 4d: count, input stride, output stride, m_d.
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

#define POST_TW_NONE 0
#define POST_TW_LANES 1
#define POST_TW_GENERAL 2

#define P_IN_STRIDE 0
#define P_OUT_STRIDE 1
#define P_BATCH 2
#define P_TW_N 3
#define P_TW_KMUL 4
#define P_TW_SHIFT 5
#define P_TW_HI 6
#define P_TW_LANES 7
#define P_TW_C 8
#define P_DIM 9
#define DIM_COUNT(d) params[P_DIM + 4 * (d)]
#define DIM_IN(d) params[P_DIM + 4 * (d) + 1]
#define DIM_OUT(d) params[P_DIM + 4 * (d) + 2]
#define DIM_TW(d) params[P_DIM + 4 * (d) + 3]

/* Coordinates of transform t along the batch dimensions, and its input and output offsets. */
AI void transform_position(__global const ulong *params, IDX t, IDX *coord, IDX *in_off, IDX *out_off) {
    IDX i = 0, o = 0;
    UNROLL for (int d = 0; d < NBATCH; d++) {
        IDX count = (IDX)DIM_COUNT(d);
        coord[d] = t % count;
        t /= count;
        i += coord[d] * (IDX)DIM_IN(d);
        o += coord[d] * (IDX)DIM_OUT(d);
    }
    *in_off = i;
    *out_off = o;
}

/* Moves the coordinates one transform forward, carrying into outer dimensions. */
AI void next_transform(__global const ulong *params, IDX *coord, IDX *in_off, IDX *out_off) {
    UNROLL for (int d = 0; d < NBATCH; d++) {
        coord[d]++;
        *in_off += (IDX)DIM_IN(d);
        *out_off += (IDX)DIM_OUT(d);
        if (coord[d] < (IDX)DIM_COUNT(d))
            return;
        *in_off -= coord[d] * (IDX)DIM_IN(d);
        *out_off -= coord[d] * (IDX)DIM_OUT(d);
        coord[d] = 0;
    }
}

/* (a * b) mod n without overflow for a, b < n < 2^63. */
AI ulong mul_mod(ulong a, ulong b, ulong n) {
    ulong hi = mul_hi(a, b), lo = a * b;
    if (hi == 0)
        return lo % n;
    ulong r = 0;
    for (int bit = 63; bit >= 0; bit--) {
        r = (r << 1) % n;
        if ((b >> bit) & 1)
            r = (r + a) % n;
    }
    return r;
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

/* Everything applied to output element k on its way out: four-step twiddle, scale, conjugation. */
/* w_n^e from the two-level table: low bits index one table, high bits the other. */
#define ROOT(e, wr, wi)                                                                             \
    do {                                                                                            \
        __global const REAL *lo_ = tw + 2 * (PT_OFF + ((e) & tw_mask));                             \
        __global const REAL *hi_ = tw + 2 * (tw_hi + ((e) >> tw_shift));                            \
        wr = lo_[0] * hi_[0] - lo_[1] * hi_[1];                                                     \
        wi = lo_[0] * hi_[1] + lo_[1] * hi_[0];                                                     \
    } while (0)

#if POST_TW
/* Each lane's exponent advances by tw_step per output element k (k visited in increasing order). */
#define POST_TWIDDLE(xr, xi, k)                                                                     \
    do {                                                                                            \
        V w_re_, w_im_;                                                                             \
        if (POST_TW == POST_TW_LANES && lanes_adjacent) {                                           \
            REAL r_, i_;                                                                            \
            ROOT(tw_e[0], r_, i_);                                                                  \
            __global const REAL *lane_ = tw + 2 * (tw_lanes + (IDX)(k) * VW);                       \
            V lr_ = LANE_RE(lane_), li_ = LANE_IM(lane_);                                           \
            w_re_ = r_ * lr_ - i_ * li_;                                                            \
            w_im_ = r_ * li_ + i_ * lr_;                                                            \
        } else {                                                                                    \
            REAL wr_[VW], wi_[VW];                                                                  \
            UNROLL for (int l_ = 0; l_ < VW; l_++) ROOT(tw_e[l_], wr_[l_], wi_[l_]);                \
            w_re_ = VLOADV(wr_);                                                                    \
            w_im_ = VLOADV(wi_);                                                                    \
        }                                                                                           \
        CMUL(xr, xi, xr, xi, w_re_, w_im_);                                                         \
        UNROLL for (int l_ = 0; l_ < VW; l_++) {                                                    \
            tw_e[l_] += tw_step[l_];                                                                \
            tw_e[l_] -= tw_e[l_] >= tw_n ? tw_n : 0;                                                \
        }                                                                                           \
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
            IDX p_ = ib[l_] + (IDX)(n) * in_stride;                                                 \
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
            if (t0 + l_ < batch) {                                                                  \
                IDX p_ = ob[l_] + (IDX)(k) * out_stride;                                            \
                OUT_RE(p_) = sr_[l_];                                                               \
                OUT_IM(p_) = si_[l_];                                                               \
            }                                                                                       \
        }                                                                                           \
    } while (0)

#if POST_TW && OUT_MODE == MODE_ROWS && P > 1
#error "the four-step twiddle visits output elements in order; ROWS stores with P > 1 do not"
#endif

/* Lane factors w_n^(l kmul k) of POST_TW_LANES, stored per k as VW real parts then VW imaginary parts. */
#define LANE_RE(p) VLOADV(p)
#define LANE_IM(p) VLOADV((p) + VW)

__kernel __attribute__((reqd_work_group_size(P, T, 1))) void
fftx_stockham(__global const REAL *in_re, __global const REAL *in_im, __global REAL *out_re,
              __global REAL *out_im, __global const REAL *tw, __global const ulong *params, const IDX in_off,
              const IDX out_off, const REAL conj_in, const REAL conj_out, const REAL scale) {
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
    const IDX in_stride = (IDX)params[P_IN_STRIDE], out_stride = (IDX)params[P_OUT_STRIDE];
    const IDX batch = (IDX)params[P_BATCH];
    const IDX t0 = (IDX)get_global_id(1) * VW;

    __local V lre[2][T][LN], lim[2][T][LN];
    __local V *are = lre[0][sl], *aim = lim[0][sl], *bre = lre[1][sl], *bim = lim[1][sl];

    /* Lanes past the batch repeat the last transform and never store. */
    IDX coord[NBATCH > 0 ? NBATCH : 1];
    IDX ib[VW], ob[VW];
    transform_position(params, t0 < batch ? t0 : batch - 1, coord, &ib[0], &ob[0]);
    const IDX c0 = coord[0];
    /* The lanes are VW neighbours along batch dimension 0. */
#if NBATCH > 0
    const int lanes_adjacent = t0 + VW <= batch && c0 + VW <= (IDX)DIM_COUNT(0);
#else
    const int lanes_adjacent = 0;
#endif
#if POST_TW
    const ulong tw_n = params[P_TW_N], tw_kmul = params[P_TW_KMUL];
    const uint tw_shift = (uint)params[P_TW_SHIFT];
    const ulong tw_mask = (1ul << tw_shift) - 1;
    const IDX tw_hi = (IDX)params[P_TW_HI], tw_lanes = (IDX)params[P_TW_LANES];
    ulong tw_e[VW], tw_step[VW];
#endif
    UNROLL for (int l = 0; l < VW; l++) {
        if (l > 0) {
            ib[l] = ib[l - 1];
            ob[l] = ob[l - 1];
            if (t0 + l < batch)
                next_transform(params, coord, &ib[l], &ob[l]);
        }
#if POST_TW
        /* e(k) = c (base + kmul k) mod n is linear in k: start at k = lid, step by P. */
        if (l == 0 || POST_TW == POST_TW_GENERAL || !lanes_adjacent) {
            ulong c = coord[params[P_TW_C]] % tw_n, base = 0;
            UNROLL for (int d = 0; d < NBATCH; d++) base = (base + mul_mod(DIM_TW(d) % tw_n, coord[d] % tw_n, tw_n)) % tw_n;
            base = (base + mul_mod(tw_kmul, (ulong)lid, tw_n)) % tw_n;
            tw_e[l] = mul_mod(c, base, tw_n);
            tw_step[l] = mul_mod(mul_mod(c, tw_kmul, tw_n), (ulong)P % tw_n, tw_n);
        } else {
            tw_e[l] = 0;
            tw_step[l] = 0;
        }
#endif
    }

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
            IDX p = ib[0] + (IDX)n * in_stride;
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
            if (t0 + l < batch) {
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
            IDX p = ob[0] + (IDX)k * out_stride;
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
