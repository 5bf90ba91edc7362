/* The Stockham leaf's loads (stockham.cl, IN_MODE): what the kernel's load section calls to bring IN_COUNT
 * elements of each lane's transform into local memory, one scalar per lane (GATHER_IN) or as whole vectors
 * of rows and columns, with the prefetches a CPU's hardware does not make.
 */
#if LANES_DFT_IN
#if P != 1 || IN_MODE != MODE_ROWS || IN_COUNT != N || N % VW || LOAD_MUL || POST_TW != POST_TW_LANES || REAL_STAGE != STAGE_R2C_POST_LANES
#error "a DFT across the lanes on load takes one item per slot, whole rows of N inputs, the lane twiddle and the R2C post-process"
#endif
#endif

/* Elements each column load asks for ahead (IN_PREFETCH): 16 measured faster than 4 or 48 (c2c double 2^22). */
#define PREFETCH_AHEAD 16

/* Element n of every lane, one scalar per lane. */
#define GATHER_IN(n, dre, dim)                                                                      \
    do {                                                                                            \
        REAL xr_[VW], xi_[VW];                                                                      \
        UNROLL for (int l_ = 0; l_ < VW; l_++) {                                                    \
            if (LOAD_IN(l_, n))                                                                     \
                IN_AT(ib[l_] + (IDX)(n) * in_stride, xr_[l_], xi_[l_]);                             \
            else                                                                                    \
                xr_[l_] = xi_[l_] = K(0.0);                                                         \
        }                                                                                           \
        V gr_ = VLOADV(xr_), gi_ = VLOADV(xi_) * conj_in;                                           \
        LOAD_FACTOR(n, gr_, gi_);                                                                   \
        dre = gr_;                                                                                  \
        dim = gi_;                                                                                  \
    } while (0)

/* Elements n0..n0+VW-1 of each lane's row, lane l's in xr[l], xi[l] (as loaded: transposing them gives
 * element n0 + q of every lane in xr[q], xi[q]). */
#if IN_PREFETCH == PREFETCH_NEXT_SLOT
#define PREFETCH_NEXT_ROWS(n0)                                                                      \
    if (next_slot)                                                                                  \
    UNROLL for (int l = 0; l < VW; l++) PREFETCH_IN(ib[l] + next_slot + (IDX)(n0) * in_stride, 2)
#else
#define PREFETCH_NEXT_ROWS(n0)
#endif
#define ROW_BLOCK_IN(n0, xr, xi)                                                                    \
    do {                                                                                            \
        PREFETCH_NEXT_ROWS(n0);                                                                     \
        UNROLL for (int l = 0; l < VW; l++) IN_ROW(ib[l] + (IDX)(n0) * in_stride, xr[l], xi[l]);    \
    } while (0)

/* Whether a column load reads every lane's element n as one vector. The live lanes of a DFT across the lanes,
 * one transform's parts, are neighbours too: a whole vector reads them, and its idle lanes what lies just
 * past them, inside the input up to the next element's parts. */
#if LIVE_LANES < VW
#define LANES_LOAD_TOGETHER(n) ((n) + 1 < IN_EVERY_LANE)
#else
#define LANES_LOAD_TOGETHER(n) lanes_adjacent
#endif

/* ---- The load of a slot: IN_COUNT elements of each lane's transform into lre_in, lim_in (LOAD_SLOT). ---- */

/* Rows load (IN_MODE == MODE_ROWS): each lane's row, a block of VW elements at a time, transposed. */
#if IN_PREFETCH == PREFETCH_NEXT_SLOT
/* Where the lanes are neighbours, lane l of the next slot lies VW lane steps further: where that slot is VW
 * neighbours too, so never past the batch. */
#define NEXT_SLOT_SETUP()                                                                           \
    const IDX next_slot = lanes_adjacent && NEIGHBOURS_FROM_T0(2 * VW) ? (IDX)VW * (ib[1] - ib[0]) : 0
#else
#define NEXT_SLOT_SETUP()
#endif
/* A block of rows, element n0 + q of every lane in xr[q], xi[q], into local memory: through the DFT across
 * the lanes and its lane twiddle (LANES_DFT_IN), or with the load factor. */
#if LANES_DFT_IN
#define ROW_BLOCK_STORE(n0, xr, xi)                                                                 \
    do {                                                                                            \
        UNROLL for (int l = 0; l < VW; l++) xi[l] *= conj_in;                                       \
        CAT(fft, VW)(xr, xi);                                                                       \
        TRANSPOSE(xr);                                                                              \
        TRANSPOSE(xi);                                                                              \
        UNROLL for (int q = 0; q < VW; q++) {                                                       \
            __global const REAL *lane_ = tw + 2 * (tw_lanes + (IDX)((n0) + q) * VW);                \
            CMUL(xr[q], xi[q], xr[q], xi[q], LANE_RE(lane_), LANE_IM(lane_));                       \
            lre_in[LIN((n0) + q)] = xr[q];                                                          \
            lim_in[LIN((n0) + q)] = xi[q];                                                          \
        }                                                                                           \
    } while (0)
#else
#define ROW_BLOCK_STORE(n0, xr, xi)                                                                 \
    do {                                                                                            \
        TRANSPOSE(xr);                                                                              \
        TRANSPOSE_IN_IM(xi);                                                                        \
        UNROLL for (int q = 0; q < VW; q++) {                                                       \
            V yr = xr[q], yi = xi[q] * conj_in;                                                     \
            LOAD_FACTOR((n0) + q, yr, yi);                                                          \
            lre_in[LIN((n0) + q)] = yr;                                                             \
            lim_in[LIN((n0) + q)] = yi;                                                             \
        }                                                                                           \
    } while (0)
#endif
#define LOAD_ROWS()                                                                                 \
    do {                                                                                            \
        NEXT_SLOT_SETUP();                                                                          \
        C2R_PRE_ROWS_LOAD();                                                                        \
        const int in_end = IN_COUNT - C2R_PRE_MIDDLE;                                               \
        for (int n0 = C2R_PRE_MIDDLE + lid * VW; n0 + VW <= in_end; n0 += P * VW) {                 \
            if (!LOAD_ALL_IN(n0 + VW - 1)) {                                                        \
                UNROLL for (int q = 0; q < VW; q++) GATHER_IN(n0 + q, lre_in[LIN(n0 + q)], lim_in[LIN(n0 + q)]); \
                continue;                                                                           \
            }                                                                                       \
            V xr[VW], xi[VW];                                                                       \
            ROW_BLOCK_IN(n0, xr, xi);                                                               \
            ROW_BLOCK_STORE(n0, xr, xi);                                                            \
        }                                                                                           \
        for (int n = in_end - (in_end - C2R_PRE_MIDDLE) % VW + lid; n < in_end; n += P)             \
            GATHER_IN(n, lre_in[LIN(n)], lim_in[LIN(n)]);                                           \
    } while (0)

/* Columns load (IN_MODE == MODE_COLS): element n of every lane as one vector where the lanes are neighbours. */
#if IN_PREFETCH == PREFETCH_COLUMNS
#define COLUMN_PREFETCH(n)                                                                          \
    PREFETCH_IN(ib[0] + (IDX)min((n) + PREFETCH_AHEAD * P, IN_EVERY_LANE - 1) * in_stride, 3)
#else
#define COLUMN_PREFETCH(n)
#endif
#if LIVE_LANES == VW
/* Or the first in_run lanes end one run of neighbours and the others start a later one (the slot crosses from
 * one transform's columns into the next's): a whole vector at the start of each run, blended, reads them.
 * Both vectors lie between the two runs' ends, inside the input; what they read past their run is dropped. */
#define COLUMN_RUNS_SETUP()                                                                         \
    int in_run = 0, in_runs_ok = 0;                                                                 \
    IDX in_second = ib[0];                                                                          \
    if (!lanes_adjacent && t0 + VW <= batch) {                                                      \
        in_run = VW;                                                                                \
        in_runs_ok = 1;                                                                             \
        UNROLL for (int l = 1; l < VW; l++) {                                                       \
            const IDX run_at = ib[0] + (IDX)(l * IN_LANE_STEP);                                     \
            if (in_run == VW && ib[l] != run_at) {                                                  \
                in_run = l;                                                                         \
                in_runs_ok = ib[l] > run_at;                                                        \
                in_second = ib[l] - (IDX)(l * IN_LANE_STEP);                                        \
            } else if (in_run < VW) {                                                               \
                in_runs_ok &= ib[l] == in_second + (IDX)(l * IN_LANE_STEP);                         \
            }                                                                                       \
        }                                                                                           \
        in_run = in_runs_ok ? in_run : 0;                                                           \
    }                                                                                               \
    CAT(MASK_ELEM, VW) in_first;                                                                    \
    {                                                                                               \
        MASK_ELEM first_[VW];                                                                       \
        UNROLL for (int l = 0; l < VW; l++) first_[l] = l < in_run ? ~(MASK_ELEM)0 : 0;             \
        in_first = CAT(vload, VW)(0, first_);                                                       \
    }
#define COLUMN_RUNS_IN(n) (in_run && LOAD_ALL_IN(n))
#define COLUMN_RUNS_LOAD(n)                                                                         \
    do {                                                                                            \
        V xr, xi, yr, yi;                                                                           \
        IN_LANES(ib[0] + (IDX)(n) * in_stride, xr, xi);                                             \
        IN_LANES(in_second + (IDX)(n) * in_stride, yr, yi);                                         \
        xr = select(yr, xr, in_first);                                                              \
        xi = select(yi, xi, in_first) * conj_in;                                                    \
        LOAD_FACTOR(n, xr, xi);                                                                     \
        lre_in[LIN(n)] = xr;                                                                        \
        lim_in[LIN(n)] = xi;                                                                        \
    } while (0)
#else
#define COLUMN_RUNS_SETUP()
#define COLUMN_RUNS_IN(n) 0
#define COLUMN_RUNS_LOAD(n)
#endif
#define LOAD_COLUMNS()                                                                              \
    do {                                                                                            \
        COLUMN_RUNS_SETUP();                                                                        \
        for (int n = lid; n < IN_EVERY_LANE; n += P) {                                              \
            if (LANES_LOAD_TOGETHER(n) && LOAD_ALL_IN(n)) {                                         \
                V xr, xi;                                                                           \
                COLUMN_PREFETCH(n);                                                                 \
                IN_LANES(ib[0] + (IDX)n * in_stride, xr, xi);                                       \
                xi *= conj_in;                                                                      \
                LOAD_FACTOR(n, xr, xi);                                                             \
                lre_in[LIN(n)] = xr;                                                                \
                lim_in[LIN(n)] = xi;                                                                \
            } else if (COLUMN_RUNS_IN(n)) {                                                         \
                COLUMN_RUNS_LOAD(n);                                                                \
            } else {                                                                                \
                GATHER_IN(n, lre_in[LIN(n)], lim_in[LIN(n)]);                                       \
            }                                                                                       \
        }                                                                                           \
    } while (0)

/* Any other layout: element n of every lane one scalar per lane, by the loads' work-items. */
#define LOAD_GATHER()                                                                               \
    for (int n = IO_LID; n < IN_EVERY_LANE; n += P)                                                 \
    GATHER_IN(n, IO_BUF(lre_in)[LIN(n)], IO_BUF(lim_in)[LIN(n)])

#if IN_MODE == MODE_ROWS && VW > 1
#define LOAD_SLOT() LOAD_ROWS()
#elif REAL_STAGE == STAGE_C2R_PRE_PAIRS
#define LOAD_SLOT() PAIR_SLOT_LOAD()
#elif IN_MODE == MODE_COLS && VW > 1
#define LOAD_SLOT() LOAD_COLUMNS()
#else
#define LOAD_SLOT() LOAD_GATHER()
#endif

/* A complex transform shorter on input than N: the rest of its elements are zero. */
#if REAL_STAGE == STAGE_NONE && IN_COUNT < N
#define ZERO_PAST_INPUT()                                                                           \
    for (int n = IN_COUNT + IO_LID; n < N; n += P) {                                                \
        IO_BUF(lre_in)[LIX(n)] = (V)(0);                                                            \
        IO_BUF(lim_in)[LIX(n)] = (V)(0);                                                            \
    }
#else
#define ZERO_PAST_INPUT()
#endif
