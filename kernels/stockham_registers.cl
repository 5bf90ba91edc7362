/* Transforms that run alone in registers (stockham.cl, ROWS_IN_REGISTERS): N = VW x VW points, rows on
 * both sides, nothing fused but the pairing of two real transforms. REGISTER_TRANSFORMS() runs a slot's
 * transforms one after another, from their input rows to their output rows, with no local memory.
 */
#ifdef ROWS_IN_REGISTERS
/* Row r's elements N - k, k = VW r + j: lane 0 from row (VW - r) % VW, lane j > 0 from lane VW - j of row
 * VW - 1 - r. */
#define MIRROR(a, r) SHUFFLE2((a)[(VW - (r)) % VW], (a)[VW - 1 - (r)], MIRROR_MASK)

#if TWIN_RUN_CARRY
/* Where the slot's VW transforms store rows back to back, each spectrum's rows (x's, y's TWIN_OUT further)
 * leave as one run whose lines stream, its ends value by value: stored row by row, rows of N / 2 + 1
 * values would start off the vector grid and write partial lines, which do not. Neighbours along batch
 * dimension 0 suffice: the planner asks that dimension's out stride to be OUT_COUNT (twin_run_carry). */
#define REGISTER_RUN_SETUP()                                                                        \
    const int twin_run = lanes_adjacent && NONE_LONE;                                               \
    V run_prev[2] = {(V)(0), (V)(0)};                                                               \
    int run_fill[2] = {0, 0};                                                                       \
    IDX run_q[2] = {ob[0], ob[0] + (IDX)TWIN_OUT};
/* Row r of spectrum `twin` of lane l onto its run, when the slot's rows run on. */
#define REGISTER_RUN_ROW(twin, r, yr, yi, l, o)                                                     \
    if (twin_run) {                                                                                 \
        TWIN_RUN_ROW(twin, r, yr, yi, (l) == 0 && (r) == 0 ? GRID_SHIFT(o) : 0, o);                 \
        continue;                                                                                   \
    }
#define REGISTER_RUN_END(twin, l)                                                                   \
    if (twin_run && (l) == VW - 1)                                                                  \
    RUN_END(twin)
#else
#define REGISTER_RUN_SETUP()
#define REGISTER_RUN_ROW(twin, r, yr, yi, l, o)
#define REGISTER_RUN_END(twin, l)
#endif

/* Lane l's input rows into xr, xi: a twin merge's conj(Z) from X and Y, or the rows as they are. */
#if REAL_STAGE == STAGE_TWIN_MERGE
#define REGISTER_ROWS_IN(l)                                                                         \
    do {                                                                                            \
        /* As twin_merge (stockham_real.cl): conj(Z) of Z = X + i Y, Z_N-k = conj(X_k) + i conj(Y_k). \
         * The DC's and the Nyquist value's imaginary parts are redundant. */                       \
        V ar[VW / 2 + 1], ai[VW / 2 + 1], br[VW / 2 + 1], bi[VW / 2 + 1];                           \
        UNROLL for (int r = 0; r < VW / 2; r++) {                                                   \
            IN_ROW(ib[l] + (IDX)(r * VW) * in_stride, ar[r], ai[r]);                                \
            IN_ROW(ib[l] + (IDX)TWIN_IN + (IDX)(r * VW) * in_stride, br[r], bi[r]);                 \
            ai[r] *= conj_in;                                                                       \
            bi[r] *= conj_in;                                                                       \
        }                                                                                           \
        {                                                                                           \
            REAL nr_, ni_;                                                                          \
            IN_AT(ib[l] + (IDX)(N / 2) * in_stride, nr_, ni_);                                      \
            ar[VW / 2] = (V)(nr_);                                                                  \
            IN_AT(ib[l] + (IDX)TWIN_IN + (IDX)(N / 2) * in_stride, nr_, ni_);                       \
            br[VW / 2] = (V)(nr_);                                                                  \
            ai[VW / 2] = bi[VW / 2] = (V)(0);                                                       \
            ai[0].s0 = bi[0].s0 = K(0.0);                                                           \
        }                                                                                           \
        UNROLL for (int r = 0; r < VW / 2; r++) {                                                   \
            xr[r] = ar[r] + bi[r];                                                                  \
            xi[r] = ai[r] - br[r];                                                                  \
        }                                                                                           \
        UNROLL for (int r = VW / 2; r < VW; r++) {                                                  \
            xr[r] = MIRROR(ar, r) - MIRROR(bi, r);                                                  \
            xi[r] = -MIRROR(ai, r) - MIRROR(br, r);                                                 \
        }                                                                                           \
    } while (0)
#else
#define REGISTER_ROWS_IN(l)                                                                         \
    do {                                                                                            \
        UNROLL for (int r = 0; r < VW; r++) {                                                       \
            IN_ROW(ib[l] + (IDX)(r * VW) * in_stride, xr[r], xi[r]);                                \
            xi[r] *= conj_in;                                                                       \
        }                                                                                           \
    } while (0)
#endif
/* Lane l's output rows from xr, xi: a twin split's two spectra, or the rows scaled. */
#if REAL_STAGE == STAGE_TWIN_SPLIT
#define REGISTER_ROWS_OUT(l)                                                                        \
    do {                                                                                            \
        /* As the twin split's RESULT (stockham_store.cl): X_k = (Z_k + conj(Z_N-k)) / 2, then Y_k = (Z_k - conj(Z_N-k)) / 2i. */ \
        for (int twin = 0; twin < 2 && !(twin && LANE_LONE(l)); twin++) {                           \
            const IDX o = ob[l] + (twin ? (IDX)TWIN_OUT : 0);                                       \
            UNROLL for (int r = 0; r <= VW / 2; r++) {                                              \
                V mr = MIRROR(xr, r), mi = MIRROR(xi, r);                                           \
                V yr, yi;                                                                           \
                TWIN_PART(twin, xr[r], xi[r], mr, mi, K(0.5) * scale, yr, yi);                      \
                REGISTER_RUN_ROW(twin, r, yr, yi, l, o);                                            \
                if (r < VW / 2)                                                                     \
                    OUT_ROW(o + (IDX)(r * VW) * out_stride, yr, yi);                                \
                else                                                                                \
                    OUT_AT(o + (IDX)(N / 2) * out_stride, yr.s0, yi.s0);                            \
            }                                                                                       \
            REGISTER_RUN_END(twin, l);                                                              \
        }                                                                                           \
    } while (0)
#else
#define REGISTER_ROWS_OUT(l)                                                                        \
    do {                                                                                            \
        UNROLL for (int r = 0; r < VW; r++) {                                                       \
            V yr = xr[r] * scale, yi = xi[r] * (scale * conj_out);                                  \
            OUT_ROW_LONE(LANE_LONE(l), ob[l] + (IDX)(r * VW) * out_stride, yr, yi);                 \
        }                                                                                           \
    } while (0)
#endif

/* One transform at a time, n = VW n1 + n2: row n1 is a vector over n2. A vertical radix-VW butterfly
 * over the rows gives vectors over n2 for each k1, which take w_N^(n2 k1) (pass 2's table, contiguous in
 * n2); after a transpose the second butterfly over n2 leaves X[k1 + VW k2] as row k2, a vector over k1.
 * The twin stages pair two real transforms as for odd lengths, with element N - k of row r's k from
 * MIRROR (rows up to N/2 hold what a Hermitian side has: row VW/2 only the Nyquist value, in lane 0). */
#define REGISTER_TRANSFORMS()                                                                       \
    do {                                                                                            \
        REGISTER_RUN_SETUP();                                                                       \
        for (int l = 0; l < VW && LANE_LIVE(l); l++) {                                              \
            V xr[VW], xi[VW];                                                                       \
            REGISTER_ROWS_IN(l);                                                                    \
            CAT(fft, VW)(xr, xi);                                                                   \
            UNROLL for (int k1 = 1; k1 < VW; k1++) {                                                \
                V wr, wi;                                                                           \
                /* The second pass's table, after the first's VW - 1 entries. */                    \
                SPLIT_PAIRS(tw + 2 * ((VW - 1) + (k1 - 1) * VW), wr, wi);                           \
                CMUL(xr[k1], xi[k1], xr[k1], xi[k1], wr, wi);                                       \
            }                                                                                       \
            TRANSPOSE(xr);                                                                          \
            TRANSPOSE(xi);                                                                          \
            CAT(fft, VW)(xr, xi);                                                                   \
            REGISTER_ROWS_OUT(l);                                                                   \
        }                                                                                           \
    } while (0)
#endif
