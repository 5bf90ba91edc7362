/* The Stockham leaf's stores (stockham.cl, OUT_MODE): output element k as it leaves the passes (RESULT: real
 * post-process, four-step twiddle, scale, conjugation), then to global memory one scalar per lane
 * (SCATTER_OUT), as packed rows gathered in local memory (PACKED_STORE), or as runs of whole lines off the
 * vector grid that can stream (STREAM_RUN, LINE_OUT, TWIN_RUN_ROW).
 */
#if LANES_DFT_OUT
#if P != 1 || OUT_MODE != MODE_ROWS || OUT_COUNT != (REAL_STAGE == STAGE_TWIN_SPLIT_LANES ? (N + 1) / 2 : N) || STORE_MUL || !POST_TW || (REAL_STAGE && REAL_STAGE != STAGE_TWIN_MERGE_LANES && REAL_STAGE != STAGE_TWIN_SPLIT_LANES && (REAL_STAGE != STAGE_C2R_PRE_LANES || LIVE_LANES != VW))
#error "a DFT across the lanes takes one item per slot, whole rows of N outputs, the four-step twiddle and a C2R pre-process across all lanes or a twin merge or split only"
#endif
/* The store conjugates a backward transform's output after the DFT across the lanes, not before it. */
#define RESULT_CONJ K(1.0)
#else
#define RESULT_CONJ conj_out
#endif

#if LANES_DFT_OUT
/* The DFT across the lanes of one vector (a row's last N % VW elements): y[l] repeats output lane l. */
#define LANES_DFT_SPLAT(xr, xi, yr, yi)                                                             \
    do {                                                                                            \
        REAL sr_[VW], si_[VW];                                                                      \
        VSTOREV(xr, sr_);                                                                           \
        VSTOREV(xi, si_);                                                                           \
        UNROLL for (int l_ = 0; l_ < VW; l_++) {                                                    \
            yr[l_] = (V)(sr_[l_]);                                                                  \
            yi[l_] = (V)(si_[l_]);                                                                  \
        }                                                                                           \
        CAT(fft, LIVE_LANES)(yr, yi);                                                               \
    } while (0)
#endif

/* Output element k of the slot, as it leaves: real post-process, four-step twiddle, scale, conjugation. */
#if REAL_STAGE == STAGE_R2C_POST
#define RESULT(k, xr, xi)                                                                           \
    do {                                                                                            \
        int a_ = DIF_POSITION((k) % N), b_ = DIF_POSITION((N - (k)) % N);                           \
        HERMITIAN_COMBINE(fre[LIX(a_)], fim[LIX(a_)], fre[LIX(b_)], fim[LIX(b_)], k, K(0.5), xr, xi);                \
        POST_TWIDDLE(xr, xi, k);                                                                    \
        xr *= scale;                                                                                \
        xi *= scale * conj_out;                                                                     \
    } while (0)
#elif REAL_STAGE == STAGE_TWIN_SPLIT
/* X_k = (Z_k + conj(Z_N-k)) / 2 of x on the first store (twin = 0), Y_k = (Z_k - conj(Z_N-k)) / 2i of y on the
 * second. */
#define RESULT(k, xr, xi)                                                                           \
    do {                                                                                            \
        int a_ = DIF_POSITION(k), b_ = DIF_POSITION((N - (k)) % N);                                 \
        V ar_ = fre[LIX(a_)], ai_ = fim[LIX(a_)], br_ = fre[LIX(b_)], bi_ = fim[LIX(b_)];           \
        TWIN_PART(twin, ar_, ai_, br_, bi_, K(0.5) * scale, xr, xi);                                \
    } while (0)
#elif REAL_STAGE == STAGE_R2C_POST_LANES
#define RESULT(k, xr, xi)                                                                           \
    do {                                                                                            \
        int a_ = (k) % N, b0_ = (N - (k)) % N, b1_ = (2 * N - 1 - (k)) % N;                          \
        V br_ = LANE_MIRROR(fre, b0_, b1_), bi_ = LANE_MIRROR(fim, b0_, b1_), wr_, wi_;             \
        REAL_ROOTS_V(VW * (k), wr_, wi_);                                                           \
        HERMITIAN_COMBINE_W(fre[LIX(a_)], fim[LIX(a_)], br_, bi_, wr_, wi_, K(0.5), xr, xi);        \
        xr *= scale;                                                                                \
        xi *= scale * conj_out;                                                                     \
    } while (0)
#else
#define RESULT(k, xr, xi)                                                                           \
    do {                                                                                            \
        xr = fre[LIX(DIF_POSITION(k))];                                                             \
        xi = fim[LIX(DIF_POSITION(k))];                                                             \
        STORE_FACTOR(k, xr, xi);                                                                    \
        POST_TWIDDLE(xr, xi, k);                                                                    \
        xr *= scale;                                                                                \
        xi *= scale * RESULT_CONJ;                                                                  \
    } while (0)
#endif

#define SCATTER_OUT(k, xr, xi)                                                                      \
    do {                                                                                            \
        REAL sr_[VW], si_[VW];                                                                      \
        VSTOREV(xr, sr_);                                                                           \
        VSTOREV(xi, si_);                                                                           \
        UNROLL for (int l_ = 0; l_ < VW; l_++) {                                                    \
            if (LANE_STORES(l_) && STORE_IN(l_, k))                                                 \
                OUT_AT_LONE(LANE_LONE(l_), ob[l_] + (IDX)(k) * out_stride, sr_[l_], si_[l_]);         \
        }                                                                                           \
    } while (0)

#if PACKED_ROWS
#if REAL_STAGE == STAGE_TWIN_SPLIT_LANES
#if OUT_PLANAR
#error "a twin split's packed rows are interleaved"
#endif
#elif P != 1 || OUT_PLANAR || OUT_MODE != MODE_ROWS || STORE_MUL || LANES_DFT_OUT || defined(LONE_DIM)
#error "packed rows take one item per slot, interleaved rows and nothing stored but each lane's own row (a twin split's two)"
#endif
/* The reals from output position p: positions count complex values, or reals for adjacent pairs. */
#if OUT_KIND == KIND_COMPLEX
#define PACKED_REALS(p) (out_re + 2 * (p))
#elif OUT_KIND == KIND_REAL_PAIRS && !(defined(OUT_PAIRS_APART) && OUT_PAIRS_APART)
#define PACKED_REALS(p) (out_re + (p))
#else
#error "packed rows are interleaved complex values or adjacent real pairs"
#endif
/* Element k of every lane (xr[q], xi[q] for k = k0 + q) into the lanes' rows of the free buffer, a block of VW
 * values from k0 as whole vectors, one value at a time. */
#define PACKED_BLOCK(k0, xr, xi)                                                                    \
    do {                                                                                            \
        TRANSPOSE(xr);                                                                              \
        TRANSPOSE(xi);                                                                              \
        UNROLL for (int l = 0; l < VW; l++) {                                                       \
            __local REAL *row_ = half_[l / (VW / 2)] + 2 * ((l % (VW / 2)) * OUT_COUNT + (k0));     \
            VSTOREV(INTERLEAVE_LO(xr[l], xi[l]), row_);                                             \
            VSTOREV(INTERLEAVE_HI(xr[l], xi[l]), row_ + VW);                                        \
        }                                                                                           \
    } while (0)
#define PACKED_ONE(k, xr, xi)                                                                       \
    do {                                                                                            \
        REAL sr_[VW], si_[VW];                                                                      \
        VSTOREV(xr, sr_);                                                                           \
        VSTOREV(xi, si_);                                                                           \
        UNROLL for (int l = 0; l < VW; l++) {                                                       \
            __local REAL *at_ = half_[l / (VW / 2)] + 2 * ((l % (VW / 2)) * OUT_COUNT + (k));       \
            at_[0] = sr_[l];                                                                        \
            at_[1] = si_[l];                                                                        \
        }                                                                                           \
    } while (0)
#if REAL_STAGE == STAGE_R2C_POST && !POST_TW
/* X_k and X_N-k of the R2C post-process from one root and one product (HERMITIAN_PAIR): 10 vector
 * operations and half a root load per value, where RESULT takes 16 and one. */
#define R2C_PAIR(k, xr, xi, mr, mi)                                                                 \
    do {                                                                                            \
        int a_ = DIF_POSITION(k), b_ = DIF_POSITION((N - (k)) % N);                                 \
        HERMITIAN_PAIR(fre[LIX(a_)], fim[LIX(a_)], fre[LIX(b_)], fim[LIX(b_)], k, K(0.5) * scale, xr, xi, \
                       mr, mi);                                                                     \
        xi *= conj_out;                                                                             \
        mi *= conj_out;                                                                             \
    } while (0)
/* Blocks of k from the lower half (1 .. N / 2) with their mirror blocks N - k, then the rest of the lower half
 * and k = 0 (with X_N) one at a time. */
#define PACKED_RESULTS()                                                                            \
    do {                                                                                            \
        for (int k0 = 1; k0 + VW <= N / 2 + 1; k0 += VW) {                                          \
            V xr[VW], xi[VW], mr[VW], mi[VW];                                                       \
            UNROLL for (int q = 0; q < VW; q++)                                                     \
                R2C_PAIR(k0 + q, xr[q], xi[q], mr[VW - 1 - q], mi[VW - 1 - q]);                     \
            PACKED_BLOCK(k0, xr, xi);                                                               \
            PACKED_BLOCK(N - k0 - (VW - 1), mr, mi);                                                \
        }                                                                                           \
        for (int k = 0; k <= N / 2; k = k == 0 ? N / 2 / VW * VW + 1 : k + 1) {                     \
            V xr, xi, mr, mi;                                                                       \
            R2C_PAIR(k, xr, xi, mr, mi);                                                            \
            PACKED_ONE(k, xr, xi);                                                                  \
            PACKED_ONE(N - k, mr, mi);                                                              \
        }                                                                                           \
    } while (0)
#else
#define PACKED_RESULTS()                                                                            \
    do {                                                                                            \
        for (int k0 = 0; k0 + VW <= OUT_COUNT; k0 += VW) {                                          \
            V xr[VW], xi[VW];                                                                       \
            UNROLL for (int q = 0; q < VW; q++) RESULT(k0 + q, xr[q], xi[q]);                       \
            PACKED_BLOCK(k0, xr, xi);                                                               \
        }                                                                                           \
        for (int k = (OUT_COUNT / VW) * VW; k < OUT_COUNT; k++) {                                   \
            V xr, xi;                                                                               \
            RESULT(k, xr, xi);                                                                      \
            PACKED_ONE(k, xr, xi);                                                                  \
        }                                                                                           \
    } while (0)
#endif
/* The slot's VW rows, OUT_COUNT complex values (or adjacent real pairs) each, as one block from ob[0]: lane l's
 * row goes to the interleaved values 2 (l OUT_COUNT + k) of the free buffer, the first VW / 2 rows in its real
 * array and the others in its imaginary one (each holds VW / 2 rows: OUT_COUNT <= LN), then each half leaves
 * as OUT_COUNT whole vectors of VW reals. A block starts a multiple of 2 VW reals into its buffer, so its
 * vectors lie on the vector grid and stream (STORE_OUT_V). */
#define PACKED_STORE()                                                                              \
    do {                                                                                            \
        __local REAL *half_[2] = {FREE_RE, FREE_IM};                                                \
        PACKED_RESULTS();                                                                           \
        UNROLL for (int h = 0; h < 2; h++)                                                          \
            STREAM_RUN(PACKED_REALS(ob[0]) + (IDX)(h * VW * OUT_COUNT), half_[h], VW * OUT_COUNT);  \
    } while (0)

/* COUNT reals from local SRC to global DST: single reals up to the vector grid, then whole vectors, which
 * stream (STORE_OUT_V), then the rest. */
#define STREAM_RUN(DST, SRC, COUNT)                                                                 \
    do {                                                                                            \
        __global REAL *d_ = (DST);                                                                  \
        __local const REAL *s_ = (SRC);                                                             \
        const int head_ = min((int)(COUNT),                                                         \
                              (int)((sizeof(V) - ((ulong)d_ & (sizeof(V) - 1))) % sizeof(V) / sizeof(REAL))); \
        int i_ = 0;                                                                                 \
        for (; i_ < head_; i_++)                                                                    \
            d_[i_] = s_[i_];                                                                        \
        for (; i_ + VW <= (COUNT); i_ += VW)                                                        \
            STORE_OUT_V(VLOADV(s_ + i_), d_ + i_);                                                  \
        for (; i_ < (COUNT); i_++)                                                                  \
            d_[i_] = s_[i_];                                                                        \
    } while (0)
#endif

/* Interleaved complex runs off the vector grid (PAIR_CARRY, ROW_RUN_CARRY). VALUES_OUT: values from..to - 1
 * of half vector v, the values from position p, one by one. LINE_OUT: values r.. of half vectors a then b
 * (SHIFT_PAIRS) as one vector at position p, on the grid, so that it streams. GRID_SHIFT: the values from
 * position p to the next vector boundary (0 on it, or off the grid of complex values). */
#define VALUES_OUT(p, v, from, to)                                                                  \
    do {                                                                                            \
        REAL e_[VW];                                                                                \
        VSTOREV(v, e_);                                                                             \
        for (int j_ = 2 * (from); j_ < 2 * (to); j_++)                                              \
            out_re[2 * (p) + j_] = e_[j_];                                                          \
    } while (0)
#define LINE_OUT(a, b, r, p)                                                                        \
    do {                                                                                            \
        V line_;                                                                                    \
        SHIFT_PAIRS(a, b, r, line_);                                                                \
        STORE_OUT_V(line_, out_re + 2 * (p));                                                       \
    } while (0)
#define GRID_SHIFT(p)                                                                               \
    (((ulong)(out_re + 2 * (p))) % (2 * sizeof(REAL))                                               \
         ? 0                                                                                        \
         : (HALF_VW - (int)(((ulong)(out_re + 2 * (p))) / (2 * sizeof(REAL)) % HALF_VW)) % HALF_VW)

#if TWIN_RUN_CARRY
/* A run of interleaved values built half vector by half vector, state w: run_prev[w] holds its last
 * run_fill[w] values, pending, which start the line at run_q[w] (on the vector grid). RUN_PUSH appends half
 * vector h and stores the line it completes; RUN_PUSH_VALUE appends one value, storing the line only when
 * it completes one. RUN_END stores what is pending value by value. */
#if VW < 8
#error "a twin run carries half vectors of at least 4 values"
#endif
#define RUN_PUSH(w, h)                                                                              \
    do {                                                                                            \
        const V h_ = (h);                                                                           \
        if (run_fill[w])                                                                            \
            LINE_OUT(run_prev[w], h_, HALF_VW - run_fill[w], run_q[w]);                             \
        else                                                                                        \
            STORE_OUT_V(h_, out_re + 2 * run_q[w]);                                                 \
        run_q[w] += HALF_VW;                                                                        \
        run_prev[w] = h_;                                                                           \
    } while (0)
#define RUN_PUSH_VALUE(w, re, im)                                                                   \
    do {                                                                                            \
        V v_ = (V)(0);                                                                              \
        v_.s0 = (re);                                                                               \
        v_.s1 = (im);                                                                               \
        SHIFT_PAIRS(run_prev[w], v_, 1, run_prev[w]);                                               \
        if (++run_fill[w] == HALF_VW) {                                                             \
            STORE_OUT_V(run_prev[w], out_re + 2 * run_q[w]);                                        \
            run_q[w] += HALF_VW;                                                                    \
            run_fill[w] = 0;                                                                        \
        }                                                                                           \
    } while (0)
#define RUN_END(w) VALUES_OUT(run_q[w] - (HALF_VW - run_fill[w]), run_prev[w], HALF_VW - run_fill[w], HALF_VW)
/* Row r of a twin split in registers onto run w: its two half vectors, or (r = VW / 2) its Nyquist value. A run
 * whose first position o lies HEAD values short of the grid stores those alone, the rest of that half vector
 * pending. */
#define TWIN_RUN_ROW(w, r, yr, yi, HEAD, o)                                                          \
    do {                                                                                            \
        if ((r) == VW / 2) {                                                                        \
            RUN_PUSH_VALUE(w, (yr).s0, (yi).s0);                                                    \
            break;                                                                                  \
        }                                                                                           \
        const V lo_ = INTERLEAVE_LO(yr, yi);                                                        \
        const int head_ = (HEAD);                                                                   \
        if (head_) {                                                                                \
            VALUES_OUT(o, lo_, 0, head_);                                                           \
            run_prev[w] = lo_;                                                                      \
            run_fill[w] = HALF_VW - head_;                                                          \
            run_q[w] = (o) + head_;                                                                 \
        } else {                                                                                    \
            RUN_PUSH(w, lo_);                                                                       \
        }                                                                                           \
        RUN_PUSH(w, INTERLEAVE_HI(yr, yi));                                                         \
    } while (0)
#endif

/* ---- The store of a slot: OUT_COUNT elements of each lane's transform (STORE_SLOT). ---- */

/* Rows store (OUT_MODE == MODE_ROWS): blocks of VW elements of every lane, transposed into rows; after the
 * DFT across the lanes (LANES_DFT_OUT) the rows are its outputs. */
#if LANES_DFT_OUT
#define LANES_DFT_ROWS(xr, xi)                                                                      \
    do {                                                                                            \
        CAT(fft, LIVE_LANES)(xr, xi);                                                               \
        UNROLL for (int l = 0; l < VW; l++) xi[l] *= conj_out;                                      \
    } while (0)
#define ROWS_TAIL_OUT(k, xr, xi)                                                                    \
    do {                                                                                            \
        V yr[VW], yi[VW];                                                                           \
        LANES_DFT_SPLAT(xr, xi, yr, yi);                                                            \
        UNROLL for (int l = 0; l < LIVE_LANES; l++) {                                               \
            if (LANE_STORES(l))                                                                     \
                OUT_AT_LONE(LANE_LONE(l), ob[l] + (IDX)(k) * out_stride, yr[l].s0, yi[l].s0 * conj_out); \
        }                                                                                           \
    } while (0)
#else
#define LANES_DFT_ROWS(xr, xi)
#define ROWS_TAIL_OUT(k, xr, xi) SCATTER_OUT(k, xr, xi)
#endif
#if PACKED_ROWS
#define PACKED_ROWS_HERE lanes_adjacent
#else
#define PACKED_ROWS_HERE 0
#define PACKED_STORE()
#endif
#define STORE_ROWS()                                                                                \
    do {                                                                                            \
        if (PACKED_ROWS_HERE) {                                                                     \
            PACKED_STORE();                                                                         \
            break;                                                                                  \
        }                                                                                           \
        for (int k0 = lid * VW; k0 + VW <= OUT_COUNT; k0 += P * VW) {                               \
            V xr[VW], xi[VW];                                                                       \
            UNROLL for (int q = 0; q < VW; q++) RESULT(k0 + q, xr[q], xi[q]);                       \
            if (!STORE_ALL_IN(k0 + VW - 1)) {                                                       \
                UNROLL for (int q = 0; q < VW; q++) SCATTER_OUT(k0 + q, xr[q], xi[q]);              \
                continue;                                                                           \
            }                                                                                       \
            TRANSPOSE(xr);                                                                          \
            TRANSPOSE(xi);                                                                          \
            LANES_DFT_ROWS(xr, xi);                                                                 \
            UNROLL for (int l = 0; l < VW; l++) {                                                   \
                if (LANE_STORES(l))                                                                 \
                    OUT_ROW_LONE(LANE_LONE(l), ob[l] + (IDX)k0 * out_stride, xr[l], xi[l]);         \
            }                                                                                       \
        }                                                                                           \
        for (int k = (OUT_COUNT / VW) * VW + lid; k < OUT_COUNT; k += P) {                          \
            V xr, xi;                                                                               \
            RESULT(k, xr, xi);                                                                      \
            ROWS_TAIL_OUT(k, xr, xi);                                                               \
        }                                                                                           \
    } while (0)

/* Columns store (OUT_MODE == MODE_COLS): element k of every lane as one vector where the lanes' outputs are
 * neighbours, which they can be where their inputs are not (scratch that runs the batch on). */
#if ROW_RUN_CARRY
/* The rows of an R2C across the lanes lie back to back, one run from ob[0]: where it starts off the vector
 * grid, each half vector completes a line with the one before it (carry_), which streams, and the run's ends
 * go value by value. */
#define ROW_RUN_SETUP()                                                                             \
    const int r_ = out_adjacent ? GRID_SHIFT(ob[0]) : 0;                                            \
    V carry_ = 0
#define ROW_RUN_OUT(k, xr, xi)                                                                      \
    if (r_ != 0) {                                                                                  \
        const V lo_ = INTERLEAVE_LO(xr, xi), hi_ = INTERLEAVE_HI(xr, xi);                           \
        const IDX p_ = ob[0] + (IDX)(k) * VW;                                                       \
        if ((k) == 0)                                                                               \
            VALUES_OUT(p_, lo_, 0, r_);                                                             \
        else                                                                                        \
            LINE_OUT(carry_, lo_, r_, p_ + r_ - HALF_VW);                                           \
        LINE_OUT(lo_, hi_, r_, p_ + r_);                                                            \
        carry_ = hi_;                                                                               \
        if ((k) == OUT_EVERY_LANE - 1)                                                              \
            VALUES_OUT(p_ + HALF_VW, hi_, r_, HALF_VW);                                             \
        continue;                                                                                   \
    }
#else
#define ROW_RUN_SETUP()
#define ROW_RUN_OUT(k, xr, xi)
#endif
#define STORE_COLUMNS()                                                                             \
    do {                                                                                            \
        int out_adjacent = LIVE_LANES == VW && t0 + VW <= batch;                                    \
        UNROLL for (int l = 1; l < VW; l++) out_adjacent &= ob[l] == ob[0] + (IDX)(l * OUT_LANE_STEP); \
        out_adjacent |= lanes_adjacent;                                                             \
        ROW_RUN_SETUP();                                                                            \
        for (int k = lid; k < OUT_EVERY_LANE; k += P) {                                             \
            V xr, xi;                                                                               \
            RESULT(k, xr, xi);                                                                      \
            ROW_RUN_OUT(k, xr, xi);                                                                 \
            if (out_adjacent && STORE_ALL_IN(k) && NONE_LONE)                                       \
                OUT_LANES(ob[0] + (IDX)k * out_stride, xr, xi);                                     \
            else                                                                                    \
                SCATTER_OUT(k, xr, xi);                                                             \
        }                                                                                           \
    } while (0)

/* Any other layout: element k of every lane one scalar per lane, by the stores' work-items. */
#define STORE_SCATTER()                                                                             \
    for (int k = IO_LID; k < OUT_EVERY_LANE; k += P) {                                              \
        V xr, xi;                                                                                   \
        RESULT(k, xr, xi);                                                                          \
        SCATTER_OUT(k, xr, xi);                                                                     \
    }

#if REAL_STAGE == STAGE_R2C_POST_PAIRS
#define STORE_SLOT() PAIR_SLOT_STORE()
#elif REAL_STAGE == STAGE_TWIN_SPLIT_LANES
#define STORE_SLOT() TWIN_SPLIT_LANES_STORE()
#elif OUT_MODE == MODE_ROWS && VW > 1
#define STORE_SLOT() STORE_ROWS()
#elif OUT_MODE == MODE_COLS && VW > 1
#define STORE_SLOT() STORE_COLUMNS()
#else
#define STORE_SLOT() STORE_SCATTER()
#endif
