/* The real stages of the Stockham leaf (stockham.cl, REAL_STAGE; the maths in real.cl): the R2C
 * post-process and the twin split on the store (RESULT in stockham_store.cl, or TWIN_SPLIT_LANES_STORE),
 * and one function each for the stages between the load and the passes: the C2R pre-process (c2r_pre,
 * c2r_pre_lanes), the Hermitian expansion of an odd C2R (herm_expand) and the twin merge (twin_merge,
 * twin_merge_lanes), which the kernel runs as REAL_STAGE_BEFORE_PASSES(). Column and row pairs are in
 * stockham_pairs.cl.
 */
/* One spectrum of a twin pair from Z_k (zr, zi) and Z_N-k (mr, mi), times F (its imaginary part also times
 * conj_out): X_k = (Z_k + conj(Z_N-k)) / 2 of x for twin 0, Y_k = (Z_k - conj(Z_N-k)) / 2i of y for twin 1,
 * F being 1/2 and any scale not applied yet. */
#define TWIN_PART(twin, zr, zi, mr, mi, F, yr, yi)                                                  \
    do {                                                                                            \
        yr = (twin) ? (zi) * (F) + (mi) * (F) : (zr) * (F) + (mr) * (F);                            \
        yi = ((twin) ? (mr) * (F) - (zr) * (F) : (zi) * (F) - (mi) * (F)) * conj_out;               \
    } while (0)

#if REAL_STAGE == STAGE_R2C_POST_LANES || REAL_STAGE == STAGE_C2R_PRE_LANES
#if VW != 8 || P != 1 || LOAD_MUL || STORE_MUL || (REAL_STAGE == STAGE_R2C_POST_LANES && POST_TW && !LANES_DFT_IN)
#error "a real stage across the lanes takes 8 lanes, one item per slot and nothing else fused before it"
#endif
#if (REAL_STAGE == STAGE_C2R_PRE_LANES && IN_MODE == MODE_ROWS) || (REAL_STAGE == STAGE_R2C_POST_LANES && OUT_MODE == MODE_ROWS)
#error "the lanes of a real stage across them are one transform's parts, not transforms of their own"
#endif
/* Index H - (VW k + l) of the lanes stages: lane 0 of element k0 (N - k, or its wrap mod N for the R2C
 * output), lanes l > 0 from lane VW - l of element k1 = N - 1 - k (mod N). */
#define LANE_MIRROR(a, k0, k1) SHUFFLE2((a)[LIX(k0)], (a)[LIX(k1)], MIRROR_MASK)
#endif

#if REAL_STAGE == STAGE_TWIN_MERGE_LANES
/* The twin merge's mirrors across the LIVE_LANES lanes (idle lanes take any lane): lane 0 stays and lane
 * l > 0 takes lane LIVE_LANES - l (OPPOSITE_MASK), that of the second vector (OPPOSITE_MASK2). */
#define OPPOSITE_LANE(l) ((LIVE_LANES + 8 - (l)) % 8)
#define OPPOSITE(l) ((l) == 0 ? 0 : OPPOSITE_LANE(l))
#define OPPOSITE2(l) ((l) == 0 ? 0 : 8 + OPPOSITE_LANE(l))
#define LANE_MASK(F) (F(0), F(1), F(2), F(3), F(4), F(5), F(6), F(7))
#define OPPOSITE_MASK LANE_MASK(OPPOSITE)
#define OPPOSITE_MASK2 LANE_MASK(OPPOSITE2)
/* Element k past the loaded ones of conj(Z) into A from the mirrors of loaded element N - k (X in xr, xi, Y in
 * yr, yi) and of N - 1 - k (pxr, pxi, pyr, pyi). */
#define TWIN_MERGE_PAST(k, xr, xi, yr, yi, pxr, pxi, pyr, pyi)                                      \
    do {                                                                                            \
        const V ai_ = SHUFFLE2(xi, pxi, OPPOSITE_MASK2), br_ = SHUFFLE2(yr, pyr, OPPOSITE_MASK2);   \
        are[LIX(k)] = SHUFFLE2(xr, pxr, OPPOSITE_MASK2) - SHUFFLE2(yi, pyi, OPPOSITE_MASK2);        \
        aim[LIX(k)] = -ai_ - br_;                                                                   \
    } while (0)
/* Loaded element k of conj(Z) into A from X_k (xr, xi) and Y_k (yr, yi): the DC's imaginary parts are
 * redundant, and the lanes of the last loaded element past LIVE_LANES / 2 mirror that element's own. */
#define TWIN_MERGE_LOADED(k, xr, xi, yr, yi)                                                        \
    do {                                                                                            \
        V ar_ = (xr), ai_ = (xi), br_ = (yr), bi_ = (yi);                                           \
        if ((k) == 0) {                                                                             \
            ai_.s0 = K(0.0);                                                                        \
            bi_.s0 = K(0.0);                                                                        \
        }                                                                                           \
        V zr_ = ar_ + bi_, zi_ = ai_ - br_;                                                         \
        if ((k) == IN_COUNT - 1) {                                                                  \
            V mr_ = SHUFFLE1(ar_ - bi_, OPPOSITE_MASK), mi_ = SHUFFLE1(-ai_ - br_, OPPOSITE_MASK);  \
            REAL zs_[4][VW];                                                                        \
            VSTOREV(zr_, zs_[0]);                                                                   \
            VSTOREV(zi_, zs_[1]);                                                                   \
            VSTOREV(mr_, zs_[2]);                                                                   \
            VSTOREV(mi_, zs_[3]);                                                                   \
            UNROLL for (int l_ = LIVE_LANES / 2 + 1; l_ < VW; l_++) {                               \
                zs_[0][l_] = zs_[2][l_];                                                            \
                zs_[1][l_] = zs_[3][l_];                                                            \
            }                                                                                       \
            zr_ = VLOADV(zs_[0]);                                                                   \
            zi_ = VLOADV(zs_[1]);                                                                   \
        }                                                                                           \
        are[LIX(k)] = zr_;                                                                          \
        aim[LIX(k)] = zi_;                                                                          \
    } while (0)
#endif

#if REAL_STAGE == STAGE_TWIN_SPLIT_LANES
#if VW != 8 || !LANES_DFT_OUT || LIVE_LANES % 2 == 0 || N % 2 == 0 || OUT_KIND != KIND_COMPLEX || LOCAL_BUFFERS != 2
#error "a twin split across the lanes takes the odd parts of an odd transform in a DFT across the lanes, complex outputs and two local buffers"
#endif
/* The DFT across the lanes leaves its rows in the free buffer first (row k1 from k1 LANE_ROW, output
 * m = k + N k1 at element k), and the split reads them from there: splitting a block and its mirror block
 * straight from registers held four blocks of vectors at once, which spilled. */
#define LANE_ROW (N + (VW - N % VW) % VW)
#if LIVE_LANES * LANE_ROW > VW * N
#error "the rows of the DFT across the lanes must fit in a local buffer"
#endif
#define LANE_ROWS_RE FREE_RE
#define LANE_ROWS_IM FREE_IM
/* Both spectra of output m from Z_m (zr, zi) and its mirror Z_M-m (br, bi), the scale applied. */
#define TWIN_SPLIT(zr, zi, br, bi, xr, xi, yr, yi)                                                  \
    do {                                                                                            \
        TWIN_PART(0, zr, zi, br, bi, K(0.5), xr, xi);                                               \
        TWIN_PART(1, zr, zi, br, bi, K(0.5), yr, yi);                                               \
    } while (0)
#if PACKED_ROWS
/* The parts' output rows lie back to back: the pair's two runs (x's, then y's TWIN_OUT further) gather in
 * the buffer the passes left their result in, free once the DFT across the lanes has read it: x's in its
 * real array and y's in its imaginary one, interleaved, row k1 at k1 N, and stream out whole after
 * (TWIN_RUNS_OUT). */
#define TWIN_RUN(twin) ((__local REAL *)((twin) ? fim : fre))
#define TWIN_ROW_OUT(twin, l, k0, xr, xi)                                                           \
    (VSTOREV(INTERLEAVE_LO(xr, xi), TWIN_RUN(twin) + 2 * ((l) * N + (k0))),                         \
     VSTOREV(INTERLEAVE_HI(xr, xi), TWIN_RUN(twin) + 2 * ((l) * N + (k0)) + VW))
#define TWIN_AT_OUT(twin, l, k, re, im)                                                             \
    (TWIN_RUN(twin)[2 * ((l) * N + (k))] = (re), TWIN_RUN(twin)[2 * ((l) * N + (k)) + 1] = (im))
#define TWIN_RUNS_OUT()                                                                             \
    do {                                                                                            \
        const int run_ = 2 * ((LIVE_LANES / 2) * N + OUT_COUNT);                                    \
        STREAM_RUN(PACKED_REALS(ob[0]), TWIN_RUN(0), run_);                                         \
        if (!LANE_LONE(0))                                                                          \
            STREAM_RUN(PACKED_REALS(ob[0] + (IDX)TWIN_OUT), TWIN_RUN(1), run_);                     \
    } while (0)
#else
#define TWIN_ROW_OUT(twin, l, k0, xr, xi)                                                           \
    OUT_ROW(ob[l] + ((twin) ? (IDX)TWIN_OUT : 0) + (IDX)(k0) * out_stride, xr, xi)
#define TWIN_AT_OUT(twin, l, k, re, im)                                                             \
    OUT_AT(ob[l] + ((twin) ? (IDX)TWIN_OUT : 0) + (IDX)(k) * out_stride, re, im)
#define TWIN_RUNS_OUT()
#endif

/* The store of a twin split across the lanes: the DFT across the lanes into LANE_ROWS, then both spectra of
 * each output from there. */
#define TWIN_SPLIT_LANES_STORE()                                                                    \
    do {                                                                                            \
        /* The DFT across the lanes, element k's rows k1 into LANE_ROWS at k1 LANE_ROW + k. */      \
        for (int k0 = 0; k0 + VW <= N; k0 += VW) {                                                  \
            V zr[VW], zi[VW];                                                                       \
            UNROLL for (int q = 0; q < VW; q++) RESULT(k0 + q, zr[q], zi[q]);                       \
            TRANSPOSE(zr);                                                                          \
            TRANSPOSE(zi);                                                                          \
            CAT(fft, LIVE_LANES)(zr, zi);                                                           \
            UNROLL for (int l = 0; l < LIVE_LANES; l++) {                                           \
                VSTOREV(zr[l], LANE_ROWS_RE + l * LANE_ROW + k0);                                   \
                VSTOREV(zi[l], LANE_ROWS_IM + l * LANE_ROW + k0);                                   \
            }                                                                                       \
        }                                                                                           \
        for (int k = N / VW * VW; k < N; k++) {                                                     \
            V xr, xi, zr[VW], zi[VW];                                                               \
            RESULT(k, xr, xi);                                                                      \
            LANES_DFT_SPLAT(xr, xi, zr, zi);                                                        \
            UNROLL for (int l = 0; l < LIVE_LANES; l++) {                                           \
                LANE_ROWS_RE[l * LANE_ROW + k] = zr[l].s0;                                          \
                LANE_ROWS_IM[l * LANE_ROW + k] = zi[l].s0;                                          \
            }                                                                                       \
        }                                                                                           \
        /* Outputs m = k + N k1 up to M / 2: rows k1 below LIVE_LANES / 2 whole, row LIVE_LANES / 2 up to \
         * element OUT_COUNT - 1; x's, then y's TWIN_OUT further (not for a lone twin). Z_M-m: element N - k of \
         * row LIVE_LANES - 1 - k1 (k > 0), element 0 of row (LIVE_LANES - k1) % LIVE_LANES. */     \
        UNROLL for (int l = 0; l <= LIVE_LANES / 2; l++) {                                          \
            if (!LANE_LIVE(l))                                                                      \
                continue;                                                                           \
            const int count = l < LIVE_LANES / 2 ? N : OUT_COUNT;                                   \
            __local const REAL *zr_ = LANE_ROWS_RE + l * LANE_ROW, *zi_ = LANE_ROWS_IM + l * LANE_ROW; \
            __local const REAL *mr_ = LANE_ROWS_RE + (LIVE_LANES - 1 - l) * LANE_ROW + N;           \
            __local const REAL *mi_ = LANE_ROWS_IM + (LIVE_LANES - 1 - l) * LANE_ROW + N;           \
            for (int k0 = 1; k0 + VW <= count; k0 += VW) {                                          \
                V xr, xi, yr, yi;                                                                   \
                TWIN_SPLIT(VLOADV(zr_ + k0), VLOADV(zi_ + k0), REVERSE(VLOADV(mr_ - k0 - (VW - 1))), \
                           REVERSE(VLOADV(mi_ - k0 - (VW - 1))), xr, xi, yr, yi);                   \
                TWIN_ROW_OUT(0, l, k0, xr, xi);                                                     \
                if (!LANE_LONE(l))                                                                  \
                    TWIN_ROW_OUT(1, l, k0, yr, yi);                                                 \
            }                                                                                       \
            for (int k = 0; k < count; k = k == 0 ? 1 + (count - 1) / VW * VW : k + 1) {            \
                const int lm = (LIVE_LANES - l) % LIVE_LANES;                                       \
                const REAL br = k == 0 ? LANE_ROWS_RE[lm * LANE_ROW] : mr_[-k];                     \
                const REAL bi = k == 0 ? LANE_ROWS_IM[lm * LANE_ROW] : mi_[-k];                     \
                REAL xr, xi, yr, yi;                                                                \
                TWIN_SPLIT(zr_[k], zi_[k], br, bi, xr, xi, yr, yi);                                 \
                TWIN_AT_OUT(0, l, k, xr, xi);                                                       \
                if (!LANE_LONE(l))                                                                  \
                    TWIN_AT_OUT(1, l, k, yr, yi);                                                   \
            }                                                                                       \
        }                                                                                           \
        TWIN_RUNS_OUT();                                                                            \
    } while (0)
#endif

#if REAL_STAGE == STAGE_TWIN_MERGE_LANES
#if VW != 8 || !LANES_DFT_OUT || LIVE_LANES % 2 == 0 || N % 2 == 0 || IN_COUNT != (N + 1) / 2 || LOAD_MUL
#error "a twin merge across the lanes takes the odd parts of an odd transform in a DFT across the lanes, and no load factor"
#endif
/* Index M - (LIVE_LANES k + l), M = LIVE_LANES N: lane 0 from element N - k, lanes l > 0 from lane
 * LIVE_LANES - l of element N - 1 - k (SHUFFLE2(element N - k, element N - 1 - k, OPPOSITE_MASK2)). */
#endif

/* Elements that every lane loads and stores: across the lanes, element N (the Nyquist value) is lane 0's
 * alone and moves on its own; the other lanes would reach past the transform. */
#if REAL_STAGE == STAGE_C2R_PRE_LANES || REAL_STAGE == STAGE_C2R_PRE_PAIRS
#define IN_EVERY_LANE (IN_COUNT - 1)
#else
#define IN_EVERY_LANE IN_COUNT
#endif
#if REAL_STAGE == STAGE_R2C_POST_LANES
#define OUT_EVERY_LANE (OUT_COUNT - 1)
#else
#define OUT_EVERY_LANE OUT_COUNT
#endif

/* A C2R pre-process fuses into a rows load of whole vectors (see there) for its elements below
 * C2R_PRE_MIDDLE and their mirrors; otherwise it takes every element after the load. */
/* conj(X_k) (ar, ai) and its mirror conj(X_N-k) (br, bi) -> conj(Z'_k) and conj(Z'_N-k) in A (real.cl). The
 * DC's imaginary parts are redundant (and X_N's, its mirror), and k = N / 2 is its own mirror. */
#define C2R_PRE_PAIR(k, ar, ai, br, bi)                                                             \
    do {                                                                                            \
        V ar_ = (ar), ai_ = (ai), br_ = (br), bi_ = (bi), mr_, mi_;                                 \
        if ((k) == 0)                                                                               \
            ai_ = bi_ = (V)(0);                                                                     \
        HERMITIAN_PAIR(ar_, ai_, br_, bi_, k, K(1.0), are[LIX(k)], aim[LIX(k)], mr_, mi_);          \
        if ((k) > 0 && 2 * (k) != N) {                                                              \
            are[LIX(N - (k))] = mr_;                                                                \
            aim[LIX(N - (k))] = mi_;                                                                \
        }                                                                                           \
    } while (0)
#if REAL_STAGE == STAGE_C2R_PRE && IN_MODE == MODE_ROWS && VW > 1 && !LOAD_MUL
#define C2R_PRE_FUSED 1
#define C2R_PRE_MIDDLE ((N + 1) / 2 / VW * VW)
/* The pre-process (c2r_pre) as the rows load: block k0..k0+VW-1 and its mirror block N+1-VW-k0..N-k0, each
 * transposed, combine in registers into A, which spares the pass over B. The middle elements, whose blocks
 * would overlap, load into B as any rows do. */
#define C2R_PRE_ROWS_LOAD()                                                                         \
    for (int k0 = lid * VW; k0 < C2R_PRE_MIDDLE; k0 += P * VW) {                                    \
        V xr[VW], xi[VW], yr[VW], yi[VW];                                                           \
        ROW_BLOCK_IN(k0, xr, xi);                                                                   \
        ROW_BLOCK_IN(N + 1 - VW - k0, yr, yi);                                                      \
        TRANSPOSE(xr);                                                                              \
        TRANSPOSE_IN_IM(xi);                                                                        \
        TRANSPOSE(yr);                                                                              \
        TRANSPOSE_IN_IM(yi);                                                                        \
        UNROLL for (int q = 0; q < VW; q++)                                                         \
            C2R_PRE_PAIR(k0 + q, xr[q], xi[q] * conj_in, yr[VW - 1 - q], yi[VW - 1 - q] * conj_in); \
    }
#else
#define C2R_PRE_FUSED 0
#define C2R_PRE_MIDDLE 0
#define C2R_PRE_ROWS_LOAD()
#endif

#if REAL_STAGE == STAGE_TWIN_MERGE || REAL_STAGE == STAGE_TWIN_MERGE_LANES
#if IN_PLACE_PASSES
/* One buffer: the second transform loads mirrored, Y_n to element N - n (Y_0 to N, the buffer's spare), which
 * X_n for n <= N / 2 leaves free and where the merge of n reads it (across the lanes, the merge sweeps up the
 * elements: see there). */
#define TWIN_Y(n) LIX(N - (n))
#undef LIN
#define LIN(n) (twin ? TWIN_Y(n) : LIX(n))
#else
#define TWIN_Y(n) LIX(n)
#endif
#endif
/* Where load `twin` of a slot goes: a C2R pre-process loads into B, which it reads into A; a twin merge's
 * second transform into B, the first into A. */
#if REAL_STAGE == STAGE_C2R_PRE || REAL_STAGE == STAGE_C2R_PRE_LANES
#define LOAD_BUFFER(twin, a, b) (b)
#else
#define LOAD_BUFFER(twin, a, b) ((twin) ? (b) : (a))
#endif
/* The twin merge's second load reads Y, TWIN_IN input elements further; the twin split's second store writes
 * y's spectrum, TWIN_OUT output elements further. */
#if REAL_STAGE == STAGE_TWIN_MERGE || REAL_STAGE == STAGE_TWIN_MERGE_LANES
#define TWIN_INPUT(twin)                                                                            \
    if (twin)                                                                                       \
    UNROLL for (int l = 0; l < VW; l++) ib[l] += (IDX)TWIN_IN
#else
#define TWIN_INPUT(twin)
#endif
#if REAL_STAGE == STAGE_TWIN_SPLIT
#define TWIN_OUTPUT(twin)                                                                           \
    if (twin)                                                                                       \
    UNROLL for (int l = 0; l < VW; l++) ob[l] += (IDX)TWIN_OUT
#else
#define TWIN_OUTPUT(twin)
#endif
/* Loads and stores per slot: the twin stages read (merge) or write (split) a second transform. */
#if REAL_STAGE == STAGE_TWIN_MERGE || REAL_STAGE == STAGE_TWIN_MERGE_LANES
#define TWIN_LOADS 2
#else
#define TWIN_LOADS 1
#endif
#if REAL_STAGE == STAGE_TWIN_SPLIT
#define TWIN_STORES 2
#else
#define TWIN_STORES 1
#endif

/* ---- The real stages between the load and the passes: each turns the loaded slot, in A and B, into the
 * passes' input in A. REAL_STAGE_BEFORE_PASSES() runs the leaf's own. ---- */
#define LOCAL_BUFFER_ARGS __local V *are, __local V *aim, __local V *bre, __local V *bim
#if REAL_STAGE == STAGE_C2R_PRE
/* conj(X_0..X_N) in B -> conj(Z'_0..Z'_N-1) in A (real.cl), value k with its mirror N - k; DC and Nyquist are
 * real by symmetry. Those below C2R_PRE_MIDDLE and their mirrors took the load. */
AI void c2r_pre(LOCAL_BUFFER_ARGS, __global const REAL *tw, int lid) {
    for (int k = C2R_PRE_MIDDLE + lid; k <= N / 2; k += P)
        C2R_PRE_PAIR(k, bre[LIX(k)], bim[LIX(k)], bre[LIX(N - k)], bim[LIX(N - k)]);
    SLOT_BARRIER();
}
#define REAL_STAGE_BEFORE_PASSES() c2r_pre(are, aim, bre, bim, tw, lid)
#elif REAL_STAGE == STAGE_C2R_PRE_LANES
/* As c2r_pre with X_(VW k + l) in lane l of element k (LANE_MIRROR); the imaginary parts of the DC and the
 * Nyquist value are lane 0's. */
AI void c2r_pre_lanes(LOCAL_BUFFER_ARGS, __global const REAL *tw, int lid) {
    for (int k = lid; k < N; k += P) {
        V ar = bre[LIX(k)], ai = bim[LIX(k)];
        V br = LANE_MIRROR(bre, N - k, N - 1 - k), bi = LANE_MIRROR(bim, N - k, N - 1 - k), wr, wi;
        if (k == 0) {
            ai.s0 = K(0.0);
            bi.s0 = K(0.0);
        }
        REAL_ROOTS_V(VW * k, wr, wi);
        HERMITIAN_COMBINE_W(ar, ai, br, bi, wr, wi, K(1.0), are[LIX(k)], aim[LIX(k)]);
    }
    SLOT_BARRIER();
}
#define REAL_STAGE_BEFORE_PASSES() c2r_pre_lanes(are, aim, bre, bim, tw, lid)
#elif REAL_STAGE == STAGE_HERM_EXPAND
/* X_n for n > N/2 is conj(X_N-n); the DC is real. (Loaded values already carry conj_in, and the relation
 * holds for conjugates too.) */
AI void herm_expand(__local V *are, __local V *aim, int lid) {
    for (int n = N / 2 + 1 + lid; n < N; n += P) {
        are[LIX(n)] = are[LIX(N - n)];
        aim[LIX(n)] = -aim[LIX(N - n)];
    }
    if (lid == 0)
        aim[LIX(0)] = (V)(0);
    SLOT_BARRIER();
}
#define REAL_STAGE_BEFORE_PASSES() herm_expand(are, aim, lid)
#elif REAL_STAGE == STAGE_TWIN_MERGE
/* A backward transform's passes take conjugated data, conj(X) and conj(Y) as loaded here (conj_in says
 * whether the load or the pass before conjugated): A, B -> conj(Z) in A, Z = X + i Y, with
 * Z_N-k = conj(X_k) + i conj(Y_k); the DC's imaginary parts are redundant. Each k writes only k and N - k
 * (in place, where it read X_k and Y_k). */
AI void twin_merge(LOCAL_BUFFER_ARGS, int lid) {
    for (int k = lid; k <= N / 2; k += P) {
        V ar = are[LIX(k)], ai = aim[LIX(k)], br = bre[TWIN_Y(k)], bi = bim[TWIN_Y(k)];
        if (k == 0) {
            ai = (V)(0);
            bi = (V)(0);
        }
        are[LIX(k)] = ar + bi;
        aim[LIX(k)] = ai - br;
        if (k > 0) {
            are[LIX(N - k)] = ar - bi;
            aim[LIX(N - k)] = -ai - br;
        }
    }
    SLOT_BARRIER();
}
#define REAL_STAGE_BEFORE_PASSES() twin_merge(are, aim, bre, bim, lid)
#elif REAL_STAGE == STAGE_TWIN_MERGE_LANES && IN_PLACE_PASSES
/* As twin_merge_lanes below, in one buffer, X_i at element i and Y_i at N - i (TWIN_Y). Element N - i past
 * the loaded ones takes the mirrors of elements i and i - 1, and loaded element i - 1 only its own X and Y:
 * so a sweep up i (one work-item a slot) keeps X and Y of i - 1 in registers and stores N - i where Y_i was
 * and i - 1 where X_i-1 was, which no later step reads. */
AI void twin_merge_lanes_in_place(__local V *are, __local V *aim) {
    V pxr = are[LIX(0)], pxi = aim[LIX(0)], pyr = are[TWIN_Y(0)], pyi = aim[TWIN_Y(0)];
    for (int i = 1; i < IN_COUNT; i++) {
        const V xr = are[LIX(i)], xi = aim[LIX(i)], yr = are[TWIN_Y(i)], yi = aim[TWIN_Y(i)];
        TWIN_MERGE_PAST(N - i, xr, xi, yr, yi, pxr, pxi, pyr, pyi);
        TWIN_MERGE_LOADED(i - 1, pxr, pxi, pyr, pyi);
        pxr = xr;
        pxi = xi;
        pyr = yr;
        pyi = yi;
    }
    TWIN_MERGE_LOADED(IN_COUNT - 1, pxr, pxi, pyr, pyi);
    SLOT_BARRIER();
}
#define REAL_STAGE_BEFORE_PASSES() twin_merge_lanes_in_place(are, aim)
#elif REAL_STAGE == STAGE_TWIN_MERGE_LANES
/* As twin_merge, across the lanes: the elements past the loaded ones first, each from the mirrors
 * (OPPOSITE_MASK2) of elements loaded whole, then the loaded ones in place (TWIN_MERGE_LOADED). */
AI void twin_merge_lanes(LOCAL_BUFFER_ARGS, int lid) {
    for (int k = IN_COUNT + lid; k < N; k += P)
        TWIN_MERGE_PAST(k, are[LIX(N - k)], aim[LIX(N - k)], bre[LIX(N - k)], bim[LIX(N - k)], are[LIX(N - 1 - k)],
                        aim[LIX(N - 1 - k)], bre[LIX(N - 1 - k)], bim[LIX(N - 1 - k)]);
    SLOT_BARRIER();
    for (int k = lid; k < IN_COUNT; k += P)
        TWIN_MERGE_LOADED(k, are[LIX(k)], aim[LIX(k)], bre[LIX(k)], bim[LIX(k)]);
    SLOT_BARRIER();
}
#define REAL_STAGE_BEFORE_PASSES() twin_merge_lanes(are, aim, bre, bim, lid)
#else
#define REAL_STAGE_BEFORE_PASSES()
#endif

/* The Nyquist value of a real stage across the lanes, element N, lane 0's alone: loaded by the C2R
 * pre-process, stored by the R2C post-process. */
#if REAL_STAGE == STAGE_C2R_PRE_LANES
#define NYQUIST_IN()                                                                                \
    if (lid == 0) {                                                                                 \
        REAL nr_, ni_;                                                                              \
        IN_AT(ib[0] + (IDX)N * in_stride, nr_, ni_);                                                \
        lre_in[LIX(N)] = (V)(nr_);                                                                  \
        lim_in[LIX(N)] = (V)(ni_ * conj_in);                                                        \
    }
#else
#define NYQUIST_IN()
#endif
#if REAL_STAGE == STAGE_R2C_POST_LANES
#define NYQUIST_OUT()                                                                               \
    if (lid == 0 && t0 < batch) {                                                                   \
        V xr, xi;                                                                                   \
        RESULT(N, xr, xi);                                                                          \
        OUT_AT(ob[0] + (IDX)N * out_stride, xr.s0, xi.s0);                                          \
    }
#else
#define NYQUIST_OUT()
#endif
