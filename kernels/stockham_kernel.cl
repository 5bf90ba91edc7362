/* The Stockham leaf's kernel (stockham.cl): each work-item runs SPW slots; a slot finds its lanes'
 * transforms, loads them, runs its real stage and its passes, and stores them. Everything it calls is in the
 * stockham_*.cl files before it.
 */
__kernel __attribute__((reqd_work_group_size(P, T, 1))) void
fftx_stockham(__global const REAL *in_re, __global const REAL *in_im, __global REAL *out_re,
              __global REAL *out_im, __global const REAL *tw, __global const ulong *params, const IDX in_off,
              const IDX out_off, const REAL conj_in, const REAL conj_out, const REAL scale PRE_PARAMS POST_PARAMS) {
    CALLBACK_BASES();
    SHIFT_BUFFERS();
    const int lid = get_local_id(0);
    const int sl = get_local_id(1);
#if SLOT_MAJOR_IO
    const int io_sl = (lid + P * sl) % T, io_lid = (lid + P * sl) / T;
#endif
    const IDX in_stride = (IDX)params[P_IN_STRIDE], out_stride = (IDX)params[P_OUT_STRIDE];
    const IDX in_half = (IDX)params[P_IN_HALF], out_half = (IDX)params[P_OUT_HALF];
    const IDX batch = (IDX)params[P_BATCH];

#ifndef ROWS_IN_REGISTERS
    /* Each buffer holds the group's T slots of LN values back to back, flat: slot-major loads and stores
     * reach other slots' rows from a slot's own pointer (IO_BUF), inside the buffer but past the row. */
#if LOCAL_BUFFERS == 1
    /* Nothing uses a second buffer; B names the first. */
    __local V lre[1][T * LN], lim[1][T * LN];
    __local V *are = lre[0] + sl * LN, *aim = lim[0] + sl * LN, *bre = are, *bim = aim;
#else
    __local V lre[2][T * LN], lim[2][T * LN];
    __local V *are = lre[0] + sl * LN, *aim = lim[0] + sl * LN, *bre = lre[1] + sl * LN, *bim = lim[1] + sl * LN;
#endif
#endif
#if REAL_STAGE == STAGE_R2C_POST_PAIRS || REAL_STAGE == STAGE_C2R_PRE_PAIRS
    __local V kre[T][LN], kim[T][LN];
    __local V *pre = kre[sl], *pim = kim[sl];
#endif
#if REAL_STAGE == STAGE_R2C_POST_PAIRS
#if PAIR_CARRY
    __local V pcarry[T][N];
    __local V *carry = pcarry[sl];
#endif
    /* The work-item's row of columns and its first slot (PAIR_GROUP). */
#if PAIR_DIMS == 2
    const IDX pair_cols = (IDX)DIM_COUNT(0) * (IDX)DIM_COUNT(1);
#else
    const IDX pair_cols = (IDX)DIM_COUNT(0);
#endif
    const IDX pair_slots = pair_cols / VW, items_per_row = pair_slots / SPW;
    const IDX t0 = (IDX)get_global_id(1) / items_per_row * pair_cols;
    const IDX s0 = (IDX)get_global_id(1) % items_per_row * SPW;
    IDX coord[NBATCH];
    if (t0 >= batch)
        return;
#define FIRST_SLOT (s0 > 0 ? -1 : 0)
#else
#define FIRST_SLOT 0
#endif

    /* Each work-item runs SPW consecutive slots: a small slot costs less than the per-item overhead. */
    for (int slot = FIRST_SLOT; slot < SPW; slot++) {
    IDX ib[VW], ob[VW];
    /* The SPAN transforms from t0 are neighbours along batch dimension 0, all within the batch. */
#define NEIGHBOURS_FROM_T0(SPAN) (t0 + (SPAN) <= batch && coord[0] + (SPAN) <= (IDX)DIM_COUNT(0))
#if REAL_STAGE == STAGE_R2C_POST_PAIRS
    const IDX s = slot < 0 ? s0 - 1 : s0 + slot;
    UNROLL for (int l = 0; l < VW; l++) {
        const IDX c = l < VW / 2 ? (VW / 2) * s + l : pair_cols - (VW / 2) * s - VW + l;
        transform_position(params, t0 + c, coord, &ib[l], &ob[l]);
    }
    const int lanes_adjacent = 0;
#else
    IDX coord[NBATCH > 0 ? NBATCH : 1];
#if REAL_STAGE == STAGE_C2R_PRE_PAIRS
    /* Slots 2i and 2i + 1 of a work-item are row blocks b and B - 1 - b of one transform's B = R / VW (PAIR_LOAD). */
    const IDX pair_blocks = (IDX)DIM_COUNT(0) / VW, pair = ((IDX)get_global_id(1) * SPW + slot) / 2;
    const int pair_second = slot & 1;
    const IDX pair_b = pair % (pair_blocks / 2);
    const IDX t0 = (pair / (pair_blocks / 2) * pair_blocks + (pair_second ? pair_blocks - 1 - pair_b : pair_b)) * VW;
#else
    const IDX t0 = ((IDX)IO_SLOT_ID * SPW + slot) * LIVE_LANES;
#endif
    if (SPW > 1 && t0 >= batch)
        break;
    /* Lanes past the batch repeat the last transform and never store. */
    transform_position(params, t0 < batch ? t0 : batch - 1, coord, &ib[0], &ob[0]);
    /* The lanes are VW neighbours along batch dimension 0. */
#if NBATCH > 0
    const int lanes_adjacent = NEIGHBOURS_FROM_T0(VW);
#if REAL_STAGE == STAGE_C2R_PRE_PAIRS
    const IDX row0 = coord[0];
#endif
#else
    const int lanes_adjacent = 0;
#endif
#endif
    POST_TWIDDLE_SETUP();
    LONE_SETUP();
    FACTOR_BASES_SETUP();
    UNROLL for (int l = 0; l < VW; l++) {
#if REAL_STAGE != STAGE_R2C_POST_PAIRS
        if (l > 0) {
            ib[l] = ib[l - 1];
            ob[l] = ob[l - 1];
            if (LANE_LIVE(l))
                next_transform(params, coord, &ib[l], &ob[l]);
        }
#endif
        LONE_LANE(l);
        FACTOR_BASES_LANE(l);
        POST_TWIDDLE_LANE(l);
    }

#ifdef ROWS_IN_REGISTERS
    REGISTER_TRANSFORMS();
#else
    /* ---- load IN_COUNT elements into the load buffer (the twin merge's second transform into B) ---- */
    for (int twin = 0; twin < TWIN_LOADS; twin++) {
    __local V *lre_in = LOAD_BUFFER(twin, are, bre), *lim_in = LOAD_BUFFER(twin, aim, bim);
    TWIN_INPUT(twin);
    LOAD_SLOT();
    NYQUIST_IN();
    ZERO_PAST_INPUT();
    }
    SLOT_BARRIER();

    REAL_STAGE_BEFORE_PASSES();

    /* ---- Stockham passes, alternating A -> B -> A ..., into F (twice with MID_MUL); or in place in A ---- */
#if IN_PLACE_PASSES
    __local V *fre = are, *fim = aim;
    PASS_SEQUENCE();
#else
#if NPASS % 2 == 1
    __local V *fre = bre, *fim = bim;
#else
    __local V *fre = are, *fim = aim;
#endif
    for (int round = 0; round < (MID_MUL ? 2 : 1); round++) {
    MID_FACTOR(round);
    PASS_SEQUENCE();
    }
#endif

    /* ---- store OUT_COUNT elements (and the twin split's second transform, TWIN_OUT further) ---- */
#if SLOT_MAJOR_IO
    fre = IO_BUF(fre);
    fim = IO_BUF(fim);
#endif
    for (int twin = 0; twin < TWIN_STORES; twin++) {
    TWIN_OUTPUT(twin);
    STORE_SLOT();
    NYQUIST_OUT();
    }
#endif
    }
    PAIR_LAST_GROUP();
}
