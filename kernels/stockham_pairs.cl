/* Column and row pairs of the Stockham leaf: the R2C post-process in the last pass of a four-step whose
 * columns pair with their mirrors (STAGE_R2C_POST_PAIRS, PAIR_GROUP after each slot), and the C2R
 * pre-process in the first pass of one whose row blocks pair with theirs (STAGE_C2R_PRE_PAIRS, PAIR_LOAD),
 * so that neither needs a pass of its own.
 */
#if REAL_STAGE == STAGE_R2C_POST_PAIRS
#if (VW != 8 && VW != 16) || P != 1 || LOAD_MUL || STORE_MUL || POST_TW || defined(LONE_DIM) || PAIR_DIMS < 1 || PAIR_DIMS > 2
#error "column pairs take 8 or 16 lanes, one item per slot, one or two column dimensions and nothing else fused"
#endif
#endif

#if REAL_STAGE == STAGE_C2R_PRE_PAIRS
#if (VW != 8 && VW != 16) || P != 1 || SPW % 2 || LOAD_MUL || IN_KIND != KIND_COMPLEX || IN_MODE != MODE_COLS || NBATCH < 1
#error "row pairs take 8 or 16 lanes of adjacent complex rows, one item and two slots a pair, and no load factor"
#endif
#endif

#if REAL_STAGE == STAGE_R2C_POST_PAIRS
/* Column pairs. Slot s of a row of C columns holds columns 4s..4s+3 in lanes 0-3 and C-4s-4..C-4s-1 in lanes
 * 4-7 (s < C / 8), so that both runs start on a vector boundary. Column c's mirror is C - c (element N - 1 - k
 * for element k; column 0 is its own, element N - k mod N): lanes 1-3 find theirs in lanes 7-5 of the same
 * slot, lane 0 in lane 4 of slot s - 1 and lane 4 in lane 0 of slot s + 1. So each work-item runs its slots in
 * order, keeping the previous one's FFT (PRE), and after slot s stores group s: columns 4s..4s+3 (lanes 0-3 of
 * slot s) and C-4s..C-4s+3 (lanes 4-7 of slot s - 1). Group 0 is columns 0..3 alone, and with them the Nyquist
 * value; group C / 8, after the last slot, is columns C/2..C/2+3, whose mirrors all lie in that slot. A
 * work-item's first slot s0 > 0 starts from slot s0 - 1, transformed again. MODE: 0 first group, 1 middle,
 * 2 last; CUR holds the FFT of slot s (MODE 2: of the last slot). Written for VW = 8; VW = 16 doubles every
 * lane and column count (runs of 8 columns, a 64-byte line in single precision). */
#define PAIR_GROUP(MODE, s, CRE, CIM, PRE, PIM)                                                     \
    do {                                                                                            \
        REAL cr_[VW], ci_[VW];                                                                      \
        UNROLL for (int l_ = 0; l_ < VW; l_++) {                                                    \
            const IDX c_ = l_ < VW / 2 ? (VW / 2) * (s) + l_ : pair_cols - (VW / 2) * (s) + l_ - VW / 2; \
            cr_[l_] = tw[2 * (RT_OFF + N + 1 + c_)];                                                \
            ci_[l_] = tw[2 * (RT_OFF + N + 1 + c_) + 1];                                            \
        }                                                                                           \
        const V cwr_ = VLOADV(cr_), cwi_ = VLOADV(ci_);                                             \
        IDX lo_, hi_, unused_;                                                                      \
        transform_position(params, t0 + (VW / 2) * (s), coord, &unused_, &lo_);                     \
        transform_position(params, t0 + (pair_cols - (VW / 2) * (s)) % pair_cols, coord, &unused_, &hi_); \
        PAIR_CARRY_SETUP(MODE, s);                                                                  \
        for (int k_ = 0; k_ <= N; k_++) {                                                           \
            const int a_ = k_ % N, m_ = N - 1 - a_;                                                 \
            V vr_, vi_, mr_, mi_;                                                                   \
            if ((MODE) == 1) {                                                                      \
                vr_ = SHUFFLE2(PRE[LIX(a_)], CRE[LIX(a_)], PAIR_VALUE_MASK);                        \
                vi_ = SHUFFLE2(PIM[LIX(a_)], CIM[LIX(a_)], PAIR_VALUE_MASK);                        \
                mr_ = SHUFFLE2(PRE[LIX(m_)], CRE[LIX(m_)], PAIR_MIRROR_MASK);                       \
                mi_ = SHUFFLE2(PIM[LIX(m_)], CIM[LIX(m_)], PAIR_MIRROR_MASK);                       \
            } else if ((MODE) == 0) {                                                               \
                const int z_ = (N - a_) % N;                                                        \
                vr_ = CRE[LIX(a_)];                                                                 \
                vi_ = CIM[LIX(a_)];                                                                 \
                mr_ = SHUFFLE2(CRE[LIX(z_)], CRE[LIX(m_)], PAIR_FIRST_MASK);                        \
                mi_ = SHUFFLE2(CIM[LIX(z_)], CIM[LIX(m_)], PAIR_FIRST_MASK);                        \
            } else {                                                                                \
                vr_ = CRE[LIX(a_)];                                                                 \
                vi_ = CIM[LIX(a_)];                                                                 \
                mr_ = SHUFFLE1(CRE[LIX(m_)], PAIR_LAST_MASK);                                       \
                mi_ = SHUFFLE1(CIM[LIX(m_)], PAIR_LAST_MASK);                                       \
            }                                                                                       \
            const REAL rr_ = tw[2 * (RT_OFF + k_)], ri_ = tw[2 * (RT_OFF + k_) + 1];                \
            const V wr_ = cwr_ * rr_ - cwi_ * ri_, wi_ = cwr_ * ri_ + cwi_ * rr_;                   \
            V xr_, xi_;                                                                             \
            HERMITIAN_COMBINE_W(vr_, vi_, mr_, mi_, wr_, wi_, K(0.5), xr_, xi_);                    \
            xr_ *= scale;                                                                           \
            xi_ *= scale * conj_out;                                                                \
            if (k_ == N) {                                                                          \
                /* The Nyquist value X_H, from the DC of column 0 with the root w_2H^H = -1. */     \
                if ((MODE) == 0)                                                                    \
                    OUT_AT(lo_ + (IDX)N * out_stride, xr_.s0, xi_.s0);                              \
            } else {                                                                                \
                PAIR_STORE(MODE, k_, lo_ + (IDX)k_ * out_stride, hi_ + (IDX)k_ * out_stride, xr_, xi_); \
            }                                                                                       \
        }                                                                                           \
    } while (0)
#if PAIR_CARRY
/* Whole output lines (PAIR_CARRY, streaming stores of half vectors that are whole lines): where a transform's
 * output starts off the vector grid, the half vector a group stores in a row straddles two lines, whose
 * other parts the neighbouring groups store a whole column later, by then out of the cache, so each line
 * was read for ownership and written twice. A group whose shift r_ (values to the next grid boundary) is
 * not 0 instead stores the lines it completes with the previous group's values as aligned vectors, which
 * stream. Lower halves run up the columns and upper halves down them, so a line takes values r_.. of the
 * previous lower half or values ..r_ - 1 of the previous upper half: one vector per row (carry) keeps both.
 * The last group's upper half (columns C / 2 on) continues the lower halves, and where one work-item runs
 * groups 0 and 1 (rows_joined_), the upper half of group 1 in row k (the row's last columns) completes its
 * line with group 0's lower half in row k + 1, which group 0 carries whole. A work-item's first and last
 * group store their values in lines shared with another work-item or transform one by one. */
#define PAIR_CARRY_SETUP(MODE, s)                                                                   \
    const int r_ = GRID_SHIFT(lo_);                                                                 \
    const int lo_first_ = (s) == s0, lo_last_ = (s) == s0 + SPW - 1 && s0 + SPW != pair_slots;      \
    const int hi_first_ = (s) == max(s0, (IDX)1);                                                   \
    const int hi_last_ = (s) == s0 + SPW - 1 && s0 + SPW != pair_slots;                             \
    const int rows_joined_ = s0 == 0 && (SPW > 1 || pair_slots == 1);                               \
    const MASK upper_part_ = (MASK)(2 * r_)
/* Row k's lower half (columns from plo, not in MODE 2) and upper half (from phi, not in MODE 0). */
#define PAIR_STORE(MODE, k, plo, phi, xr, xi)                                                       \
    do {                                                                                            \
        if (r_ == 0) {                                                                              \
            if ((MODE) != 2)                                                                        \
                OUT_LO_HALF(plo, xr, xi);                                                           \
            if ((MODE) != 0)                                                                        \
                OUT_HI_HALF(phi, xr, xi);                                                           \
            break;                                                                                  \
        }                                                                                           \
        const V lo_v_ = INTERLEAVE_LO(xr, xi), hi_v_ = INTERLEAVE_HI(xr, xi), prev_ = carry[k];      \
        if ((MODE) != 2) {                                                                          \
            if (!lo_first_)                                                                         \
                LINE_OUT(prev_, lo_v_, r_, (plo) + r_ - HALF_VW);                                   \
            else if (!rows_joined_ || (k) == 0)                                                     \
                VALUES_OUT(plo, lo_v_, 0, r_);                                                      \
            if (lo_last_)                                                                           \
                VALUES_OUT(plo, lo_v_, r_, HALF_VW);                                                \
        }                                                                                           \
        if ((MODE) != 0) {                                                                          \
            if (!hi_first_)                                                                         \
                LINE_OUT(hi_v_, prev_, r_, (phi) + r_);                                             \
            else if (rows_joined_ && (k) != N - 1)                                                  \
                LINE_OUT(hi_v_, carry[(k) + 1], r_, (phi) + r_);                                    \
            else                                                                                    \
                VALUES_OUT(phi, hi_v_, r_, HALF_VW);                                                \
            if ((MODE) == 2)                                                                        \
                LINE_OUT(prev_, hi_v_, r_, (phi) + r_ - HALF_VW);                                   \
            else if (hi_last_)                                                                      \
                VALUES_OUT(phi, hi_v_, 0, r_);                                                      \
        }                                                                                           \
        if ((MODE) == 0)                                                                            \
            carry[k] = lo_v_;                                                                       \
        else if ((MODE) == 1)                                                                       \
            carry[k] = select(lo_v_, hi_v_, LANE_INDEX < upper_part_);                              \
    } while (0)
#else
#define PAIR_CARRY_SETUP(MODE, s) (void)0
#define PAIR_STORE(MODE, k, plo, phi, xr, xi)                                                       \
    do {                                                                                            \
        if ((MODE) != 2)                                                                            \
            OUT_LO_HALF(plo, xr, xi);                                                               \
        if ((MODE) != 0)                                                                            \
            OUT_HI_HALF(phi, xr, xi);                                                               \
    } while (0)
#endif
/* Group s from slots s - 1 (PRE) and s (CUR): values of lanes 0-3 from CUR, 4-7 from PRE; mirrors, lane 0
 * from PRE's lane 4, 1-3 from CUR's 7-5, 4 from CUR's 0, 5-7 from PRE's 3-1. Group 0: column 0's mirror is
 * its own lane at N - k. The last group: lane 4 is its own mirror, 5-7 from 3-1. */
#if VW == 8
#define PAIR_VALUE_MASK (8, 9, 10, 11, 4, 5, 6, 7)
#define PAIR_MIRROR_MASK (4, 15, 14, 13, 8, 3, 2, 1)
#define PAIR_FIRST_MASK (0, 15, 14, 13, 4, 5, 6, 7)
#define PAIR_LAST_MASK (0, 1, 2, 3, 4, 3, 2, 1)
#else
#define PAIR_VALUE_MASK (16, 17, 18, 19, 20, 21, 22, 23, 8, 9, 10, 11, 12, 13, 14, 15)
#define PAIR_MIRROR_MASK (8, 31, 30, 29, 28, 27, 26, 25, 16, 7, 6, 5, 4, 3, 2, 1)
#define PAIR_FIRST_MASK (0, 31, 30, 29, 28, 27, 26, 25, 8, 9, 10, 11, 12, 13, 14, 15)
#define PAIR_LAST_MASK (0, 1, 2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2, 1)
#endif

/* After the passes of slot s: the group its FFT completes with the previous slot's, then this slot's FFT
 * becomes the previous one and its buffer takes the next slot's passes. */
#define PAIR_SLOT_STORE()                                                                           \
    do {                                                                                            \
        if (s == 0)                                                                                 \
            PAIR_GROUP(0, s, fre, fim, pre, pim);                                                   \
        else if (slot >= 0)                                                                         \
            PAIR_GROUP(1, s, fre, fim, pre, pim);                                                   \
        {                                                                                           \
            __local V *t_ = fre;                                                                    \
            if (fre == are) {                                                                       \
                are = pre;                                                                          \
                aim = pim;                                                                          \
            } else {                                                                                \
                bre = pre;                                                                          \
                bim = pim;                                                                          \
            }                                                                                       \
            pre = t_;                                                                               \
            pim = fim;                                                                              \
        }                                                                                           \
    } while (0)
/* The last group, after a row's last slot (MODE 2). */
#define PAIR_LAST_GROUP()                                                                           \
    if (s0 + SPW == pair_slots)                                                                     \
    PAIR_GROUP(2, pair_slots, pre, pim, pre, pim)
#else
#define PAIR_LAST_GROUP()
#endif

#if REAL_STAGE == STAGE_C2R_PRE_PAIRS
/* Row pairs. Row t's element n is index t + R n, whose mirror H - t - R n is row R - t's element N - 1 - n
 * (row 0's: row R, past the last, is row 0 one element on, and at n = 0 the Nyquist value H). A work-item
 * takes row blocks in pairs, b (rows t..t+7, in A) and its mirror block (rows R - 8 - t..R - 1 - t, in PRE):
 * lanes 1-7 of either find their mirrors in lanes 7-1 of the other, lane 0 in the row just past the other
 * block. So the mirrors of either block are the other's rows one on, read as one more vector and reversed
 * (PAIR_PRE_BLOCK): fewer instructions than blending them from the other block's vector and a scalar (per
 * element n of both blocks, compiled for AVX2 with 16 lanes: single 228 against 260, double 436 against
 * 459). Both blocks are pre-processed in one loop (conj(X) -> conj(Z') as in STAGE_C2R_PRE), and the second
 * slot runs its passes from PRE. Written for VW = 8; VW = 16 takes blocks of 16 rows. */
#if IN_PREFETCH == PREFETCH_COLUMNS
/* Both blocks' elements PREFETCH_AHEAD on, the mirror block's walking down its rows. */
#define PAIR_PREFETCH(n, nm)                                                                        \
    do {                                                                                            \
        PREFETCH_IN(ib[0] + (IDX)min((n) + PREFETCH_AHEAD, N - 1) * in_stride, 3);                  \
        PREFETCH_IN(mirror_ + (IDX)max((nm) - PREFETCH_AHEAD, 0) * in_stride, 3);                   \
    } while (0)
#else
#define PAIR_PREFETCH(n, nm) ((void)0)
#endif
/* One block's pre-processed values (xr, xi): its rows from `own`, their mirrors reversed from `partner`, the
 * mirror block's rows one on (lane l's mirror is lane VW - 1 - l there), k the index of lane 0. */
#define PAIR_PRE_BLOCK(own, partner, k, zero_dc, xr, xi)                                            \
    do {                                                                                            \
        V ar_, ai_, br_, bi_, wr_, wi_;                                                             \
        IN_LANES(own, ar_, ai_);                                                                    \
        IN_LANES(partner, br_, bi_);                                                                \
        ai_ *= conj_in;                                                                             \
        br_ = REVERSE(br_);                                                                         \
        bi_ = REVERSE(bi_) * conj_in;                                                               \
        if (zero_dc) {                                                                              \
            /* The DC's and the Nyquist value's imaginary parts are redundant. */                  \
            ai_.s0 = K(0.0);                                                                        \
            bi_.s0 = K(0.0);                                                                        \
        }                                                                                           \
        REAL_ROOTS_V(k, wr_, wi_);                                                                  \
        HERMITIAN_COMBINE_W(ar_, ai_, br_, bi_, wr_, wi_, K(1.0), xr, xi);                          \
    } while (0)
#define PAIR_LOAD()                                                                                 \
    do {                                                                                            \
        const IDX rows_ = (IDX)DIM_COUNT(0), t_ = row0, tm_ = rows_ - VW - t_;                      \
        const IDX mirror_ = ib[0] + (tm_ - t_);                                                     \
        for (int n_ = 0; n_ < N; n_++) {                                                            \
            const int nm_ = N - 1 - n_;                                                             \
            PAIR_PREFETCH(n_, nm_);                                                                 \
            PAIR_PRE_BLOCK(ib[0] + (IDX)n_ * in_stride, mirror_ + 1 + (IDX)nm_ * in_stride,         \
                           t_ + rows_ * n_, t_ == 0 && n_ == 0, are[LIX(n_)], aim[LIX(n_)]);       \
            PAIR_PRE_BLOCK(mirror_ + (IDX)nm_ * in_stride, ib[0] + 1 + (IDX)n_ * in_stride,         \
                           tm_ + rows_ * nm_, 0, pre[LIX(nm_)], pim[LIX(nm_)]);                    \
        }                                                                                           \
    } while (0)
/* The load of a slot: the first of a pair loads and pre-processes both blocks; the second, the mirror block,
 * runs its passes from PRE. */
#define PAIR_SLOT_LOAD()                                                                            \
    if (!pair_second)                                                                               \
        PAIR_LOAD();                                                                                \
    else                                                                                            \
        SWAP_BUFFERS(are, pre, aim, pim)
#endif
