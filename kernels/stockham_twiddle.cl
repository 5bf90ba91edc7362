/* The four-step twiddle of the Stockham leaf (stockham.cl, POST_TW): output element k of a transform with
 * batch coordinates c is multiplied by w_n^e as it leaves, e advancing by a fixed step per element, with
 * roots from a two-level table. POST_TWIDDLE_SETUP and POST_TWIDDLE_LANE set up the exponents (tw_e,
 * tw_step) of a slot.
 */
/* (a * b) mod n for a < n < 2^63 and b < max(n, 2^32). One product serves while n <= 2^32; beyond, a long
 * multiplication, which inlined at each lane's calls made most of a twiddle pass's code (README, bakes). */
AI ulong mul_mod(ulong a, ulong b, ulong n) {
#if TW_WIDE_MOD
    if (mul_hi(a, b) == 0)
        return (a * b) % n;
    ulong r = 0;
    for (int bit = 63; bit >= 0; bit--) {
        r = (r << 1) % n;
        if ((b >> bit) & 1)
            r = (r + a) % n;
    }
    return r;
#else
    return (a * b) % n;
#endif
}

/* w_n^e from the two-level table: low bits index one table, high bits the other. */
#define ROOT(e, wr, wi) SPLIT_ROOT(PT_OFF + ((e) & tw_mask), tw_hi + ((e) >> tw_shift), wr, wi)

/* Lane factors w_n^(l kmul k) of POST_TW_LANES, stored per k as VW real parts then VW imaginary parts. */
#define LANE_RE(p) VLOADV(p)
#define LANE_IM(p) VLOADV((p) + VW)

#if POST_TW
/* The lanes from tw_run on take the root of the second run's exponent: x 1 + y 0 picks exactly. */
#if TW_RUNS == 2
#define SECOND_RUN_ROOT(br, bi)                                                                     \
    do {                                                                                            \
        REAL r1_, i1_;                                                                              \
        ROOT(tw_e[1], r1_, i1_);                                                                    \
        br = br * tw_first + r1_ * tw_second;                                                       \
        bi = bi * tw_first + i1_ * tw_second;                                                       \
    } while (0)
#else
#define SECOND_RUN_ROOT(br, bi)
#endif

/* Each exponent advances by tw_step per output element k (k visited in increasing order). The lane form
 * keeps one exponent per run of lanes (TW_RUNS), as if the run started at lane 0; the general form one per
 * lane. */
#define POST_TWIDDLE(xr, xi, k)                                                                     \
    do {                                                                                            \
        V w_re_, w_im_;                                                                             \
        if (tw_lane_form) {                                                                         \
            REAL r_, i_;                                                                            \
            ROOT(tw_e[0], r_, i_);                                                                  \
            V br_ = (V)(r_), bi_ = (V)(i_);                                                         \
            SECOND_RUN_ROOT(br_, bi_);                                                              \
            __global const REAL *lane_ = tw + 2 * (tw_lanes + (IDX)(k) * VW);                       \
            V lr_ = LANE_RE(lane_), li_ = LANE_IM(lane_);                                           \
            w_re_ = br_ * lr_ - bi_ * li_;                                                          \
            w_im_ = br_ * li_ + bi_ * lr_;                                                          \
        } else {                                                                                    \
            REAL wr_[VW], wi_[VW];                                                                  \
            UNROLL for (int l_ = 0; l_ < VW; l_++) ROOT(tw_e[l_], wr_[l_], wi_[l_]);                \
            w_re_ = VLOADV(wr_);                                                                    \
            w_im_ = VLOADV(wi_);                                                                    \
        }                                                                                           \
        CMUL(xr, xi, xr, xi, w_re_, w_im_);                                                         \
        /* The lane form skips the other lanes' updates (a constant count keeps tw_e in registers). */ \
        const int lanes_ = tw_lane_form ? TW_RUNS : VW;                                             \
        for (int l_ = 0; l_ < lanes_; l_++) {                                                       \
            tw_e[l_] += tw_step[l_];                                                                \
            tw_e[l_] -= tw_e[l_] >= tw_n ? tw_n : 0;                                                \
        }                                                                                           \
    } while (0)
#else
#define POST_TWIDDLE(xr, xi, k)
#endif

#if POST_TW && OUT_MODE == MODE_ROWS && P > 1
#error "the four-step twiddle visits output elements in order; ROWS stores with P > 1 do not"
#endif

/* ---- The exponents of a slot's four-step twiddle, set up once per slot (POST_TWIDDLE_SETUP) and per lane
 * (POST_TWIDDLE_LANE). ---- */
#if POST_TW
#if TW_RUNS == 2
#define TWIDDLE_RUNS()                                                                              \
    /* Or the first tw_run lanes end a row of batch dimension 0 and the others start the next. */   \
    const IDX tw_run = (IDX)DIM_COUNT(0) - coord[0];                                                \
    const int two_runs = t0 + VW <= batch && tw_run < VW && VW - tw_run <= (IDX)DIM_COUNT(0);       \
    V tw_first, tw_second;                                                                          \
    {                                                                                               \
        REAL first_[VW];                                                                            \
        UNROLL for (int l = 0; l < VW; l++) first_[l] = l < tw_run ? K(1.0) : K(0.0);               \
        tw_first = VLOADV(first_);                                                                  \
        tw_second = K(1.0) - tw_first;                                                              \
    }                                                                                               \
    const int tw_lane_form = POST_TW == POST_TW_LANES && (lanes_adjacent || two_runs);
#define SECOND_RUN_START(c, base)                                                                   \
    if (two_runs) {                                                                                 \
        /* The lane form has c_dim 0 and no base: lane l of the second run has c = c0 - rows + l. */ \
        ulong c1 = ((c) + tw_n - (ulong)DIM_COUNT(0) % tw_n) % tw_n;                                \
        tw_e[1] = mul_mod(c1, base, tw_n);                                                          \
        tw_step[1] = mul_mod(mul_mod(c1, tw_kmul, tw_n), (ulong)P % tw_n, tw_n);                    \
    }
#elif LIVE_LANES < VW
#define TWIDDLE_RUNS()                                                                              \
    const int two_runs = 0;                                                                         \
    /* The live lanes are one transform's parts from c = 0, so the lane form holds (idle lanes' roots go unused). */ \
    const int tw_lane_form = POST_TW == POST_TW_LANES;
#define SECOND_RUN_START(c, base)
#else
#define TWIDDLE_RUNS()                                                                              \
    const int two_runs = 0;                                                                         \
    const int tw_lane_form = POST_TW == POST_TW_LANES && lanes_adjacent;
#define SECOND_RUN_START(c, base)
#endif
#define POST_TWIDDLE_SETUP()                                                                        \
    const ulong tw_n = params[P_TW_N], tw_kmul = params[P_TW_KMUL];                                 \
    const uint tw_shift = (uint)params[P_TW_SHIFT];                                                 \
    const ulong tw_mask = (1ul << tw_shift) - 1;                                                    \
    const IDX tw_hi = (IDX)params[P_TW_HI], tw_lanes = (IDX)params[P_TW_LANES];                     \
    ulong tw_e[VW], tw_step[VW];                                                                    \
    TWIDDLE_RUNS()
#define POST_TWIDDLE_LANE(l)                                                                        \
    /* e(k) = c (base + kmul k) mod n is linear in k: start at k = lid, step by P. */               \
    if (!tw_lane_form || l == 0) {                                                                  \
        ulong c = coord[params[P_TW_C]] % tw_n, base = 0;                                           \
        UNROLL for (int d = 0; d < NBATCH; d++) base = (base + mul_mod(DIM_TW(d) % tw_n, coord[d] % tw_n, tw_n)) % tw_n; \
        base = (base + mul_mod(tw_kmul, (ulong)IO_LID, tw_n)) % tw_n;                               \
        tw_e[l] = mul_mod(c, base, tw_n);                                                           \
        tw_step[l] = mul_mod(mul_mod(c, tw_kmul, tw_n), (ulong)P % tw_n, tw_n);                     \
        SECOND_RUN_START(c, base);                                                                  \
    } else if (l >= (two_runs ? 2 : 1)) {                                                           \
        /* Unused; the lane form's second exponent (two_runs) was set with lane 0's. */             \
        tw_e[l] = 0;                                                                                \
        tw_step[l] = 0;                                                                             \
    }
#else
#define POST_TWIDDLE_SETUP()
#define POST_TWIDDLE_LANE(l)
#endif
