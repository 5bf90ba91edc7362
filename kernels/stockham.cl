/* fftx_stockham: a batch of 1D FFTs along one axis, one execution-tree leaf.
 *
 * A slot is VW transforms, one per lane of V. A work-group holds T slots (local y) and P work-items per slot
 * (local x). The slot is loaded into local memory, transformed by NPASS self-sorting Stockham passes
 * (radix PR_q, span PL_q, twiddles at table offset PO_q), and stored. CPUs use P = 1 and VW = 8 or so:
 * every lane op is then a SIMD op and no barrier is needed. GPUs use VW = 1 and P > 1.
 * Real transforms run here too: see access.cl for the element kinds and real.cl for the maths.
 *
 * Compile-time defines fix the shape of the code:
 *   N, NPASS, PR_q, PL_q, PO_q    complex transform length and pass plan (q = 1..NPASS)
 *   P, T, SPW, LPAD               work-items per slot, slots per work-group, slots per work-item (run one
 *                                 after another), local padding (one vector
 *                                 every 2^LPAD breaks the cache-set conflicts of power-of-two strides)
 *   SLOT_MAJOR_IO                 (VW = 1, T > 1) loads and stores take neighbouring work-items to
 *                                 neighbouring slots, element io_lid + P j of slot io_sl, so that a GPU's
 *                                 neighbouring accesses along columns are neighbouring columns; the passes keep
 *                                 a slot's P items together
 *   NBATCH                        batch dimensions
 *   IN_KIND, IN_PLANAR, IN_MODE, IN_COUNT     the input side (access.cl) and how many elements it holds
 *   OUT_KIND, OUT_PLANAR, OUT_MODE, OUT_COUNT the output side
 *   REAL_STAGE                    STAGE_NONE, STAGE_R2C_POST (IN_COUNT = N, OUT_COUNT = N + 1),
 *                                 STAGE_C2R_PRE (IN_COUNT = N + 1), or STAGE_HERM_EXPAND (odd C2R: IN_COUNT = N/2 + 1, the rest
 *                                 by Hermitian symmetry); RT_OFF locates the real-transform roots.
 *                                 Two odd real transforms per lane: STAGE_TWIN_SPLIT (R2C of x + i y, OUT_COUNT =
 *                                 N/2 + 1 outputs of x, then of y TWIN_OUT further) and STAGE_TWIN_MERGE (C2R: X
 *                                 and, TWIN_IN further, Y to X + i Y)
 *                                 Across the lanes (VW = 8, MODE_COLS on that side): the lanes are the VW
 *                                 interleaved parts of one half-length H = VW N transform, element k of lane
 *                                 l its index VW k + l (the long pass of a four-step with VW on the other
 *                                 side): STAGE_R2C_POST_LANES (OUT_COUNT = N + 1, element N only in lane 0)
 *                                 and STAGE_C2R_PRE_LANES (IN_COUNT = N + 1 likewise), roots as RT_SHIFT
 *                                 Column pairs (the last pass of a four-step whose first PAIR_DIMS batch
 *                                 dimensions number its C columns, k = c + C k1 of a half-length H = C N
 *                                 transform): STAGE_R2C_POST_PAIRS, see PAIR_GROUP. Roots: w_2N^k (k = 0..N),
 *                                 then w_2H^c (c < C + VW / 2), at RT_OFF
 *                                 Row pairs (the first pass of a four-step whose batch dimension 0 numbers its
 *                                 R rows, n = t + R n1 of a half-length H = R N transform):
 *                                 STAGE_C2R_PRE_PAIRS (IN_COUNT = N + 1, element N only in row 0), see
 *                                 PAIR_LOAD; roots as RT_SHIFT
 *                                 STAGE_TWIN_MERGE_LANES: STAGE_TWIN_MERGE across the LIVE_LANES (odd) lanes
 *                                 of a LANES_DFT_OUT transform of odd length M = LIVE_LANES N, element k of
 *                                 lane l its index LIVE_LANES k + l: IN_COUNT = (N + 1) / 2, the last element
 *                                 only in lanes up to LIVE_LANES / 2 (the M / 2 + 1 values a Hermitian side has)
 *                                 STAGE_TWIN_SPLIT_LANES: STAGE_TWIN_SPLIT after the DFT across those lanes,
 *                                 output m = k + N k1 in row k1: rows below LIVE_LANES / 2 whole, row
 *                                 LIVE_LANES / 2 up to OUT_COUNT = (N + 1) / 2 elements
 *   LONE_DIM                      when defined, transforms at coordinate 0 of that batch dimension store no twin
 *                                 (the split's y, or the imaginary half of pairs far apart on output): with an
 *                                 odd count of transforms the middle one is the twin of pair 0 and the own
 *                                 transform of the last pair, which stores it
 *   LOAD_MUL                      multiply input element n of lane l by table entry LOAD_OFF + j,
 *                                 j = LOAD_KMUL n + LOAD_BASE(coordinates of l) (Bluestein's chirp); LOAD_LANES
 *                                 when j differs between lanes, LOAD_STEP1 when it grows by one from lane
 *                                 to lane along batch dimension 0; LOAD_GUARD when elements with j >= LOAD_LIMIT,
 *                                 which are zero and not read, occur. With IN_COUNT < N the elements
 *                                 IN_COUNT..N-1 are zero too.
 *   STORE_MUL                     output element k becomes conj(y_k) times the STORE_ table entry, found the
 *                                 same way; elements past STORE_LIMIT are not written
 *   MID_MUL                       Bluestein's whole convolution in one kernel: after the passes, element k
 *                                 becomes conj(y_k) times table entry MID_OFF + k (every lane alike), and the
 *                                 passes run a second time
 *   POST_TW                       0, or the four-step twiddle on output element k of a transform with batch
 *                                 coordinates c: w_n^e, e = c[PT_C] * (sum_d m_d c[d] + kmul k) mod n.
 *                                 POST_TW_LANES: e = (c0 + lane) kmul k, with a per-lane factor table.
 *   TW_WIDE_MOD                   the exponent products may pass 2^64 (n above 2^32): a long multiplication
 *                                 forms them instead of one product
 *   TW_RUNS                       2 when a slot's lanes may end one row of batch dimension 0 and start the
 *                                 next (its count is not a multiple of VW): POST_TW_LANES then keeps a
 *                                 second exponent for the lanes of the next row, else 1
 *   PT_OFF                        where the four-step tables start (after the pass twiddles)
 *   PLANE_N0                      when defined, the N points are an N / PLANE_N0 x PLANE_N0 plane of rows
 *                                 (two axes in one kernel): input element n = r PLANE_N0 + c loads to
 *                                 position r + (N / PLANE_N0) c, so the passes up to span PLANE_N0 transform
 *                                 the rows, and the rest, whose table leaves out the 1D cross twiddle, the
 *                                 columns; the output leaves in natural, row-major order
 *   ROWS_IN_REGISTERS             N = VW x VW, rows on both sides, nothing fused: each transform runs alone in
 *                                 registers (two vertical radix-VW butterflies around a register transpose)
 *   LANES_DFT_OUT                 the first LIVE_LANES lanes are the interleaved parts n1 of one transform of
 *                                 length LIVE_LANES N (n = n1 + LIVE_LANES n2, the first pass of a four-step
 *                                 with LIVE_LANES rows): after the four-step twiddle a radix-LIVE_LANES DFT
 *                                 across the lanes, in registers, gives X[k2 + N k1] as element k2 of row k1,
 *                                 which the rows store writes where lane k1's element k2 would go, so the
 *                                 four-step's second pass needs no kernel
 *   IN_PREFETCH                   what the loads ask the caches for ahead (access.cl, PREFETCH_IN), which a
 *                                 CPU's hardware prefetcher, staying within a page and a stream, does not:
 *                                 PREFETCH_COLUMNS, the lanes' elements load along columns (which within a
 *                                 page neither gains nor loses), and each load prefetches the element
 *                                 PREFETCH_AHEAD further into L1;
 *                                 PREFETCH_NEXT_SLOT, each row load prefetches the same positions of the next
 *                                 slot's rows (the next work-group's, which a CPU thread usually runs next)
 *                                 into L2
 *   PACKED_ROWS                   the output rows of neighbouring lanes lie back to back (interleaved complex,
 *                                 OUT_COUNT apart, not a multiple of VW): where a slot's lanes are neighbours,
 *                                 the store assembles its VW rows in the local buffer the passes left free and
 *                                 writes the block as whole vectors, which can stream (PACKED_STORE); with
 *                                 STAGE_TWIN_SPLIT, the lanes' x rows, then their y rows, each as such a
 *                                 block; with STAGE_TWIN_SPLIT_LANES, the parts' rows: each of the pair's two
 *                                 outputs gathers in the passes' buffer and leaves as one run (TWIN_RUNS_OUT)
 *   PRE_CALLBACK, POST_CALLBACK   a user's clFFT callback computes each element loaded, or receives each one
 *                                 stored (access.cl): PRE_FN and POST_FN name the functions, PRE_LOCAL and
 *                                 POST_LOCAL say whether they take local memory; no store then streams
 *   IN_PLACE_PASSES               the passes run in place in one local buffer instead of two (decimation in
 *                                 frequency, PASS_IN_PLACE): one work-item per slot, nothing fused into them
 *                                 but a twin split or an R2C post-process on the store, which read X_k from
 *                                 DIF_POSITION(k), an odd twin merge on the load, which loads Y_n at element
 *                                 N - n, a C2R pre-process (row pairs too) before them, or a complex DFT
 *                                 across the lanes (LANES_DFT_OUT), which reads X_k from DIF_POSITION(k) too
 *   LOCAL_BUFFERS                 2, or 1 with IN_PLACE_PASSES unless a C2R pre-process loads into the second
 *                                 or an R2C post-process gathers its packed rows there
 *   LIVE_LANES                    transforms per slot: VW, or fewer parts of a LANES_DFT_OUT transform, the
 *                                 other lanes repeating the last part and storing nothing
 *   LANES_DFT_IN                  the same on the load of a four-step with VW columns (n = n1 + N n2,
 *                                 k = k2 + VW k1), whose R2C post-process runs across the lanes: the rows load
 *                                 reads x[n1 + N l] as lane l's row, a radix-VW DFT across the rows and the
 *                                 twiddle w^(n1 k2) leave lane k2 with the input of its FFT over n1
 *   PAIR_CARRY                    column pairs whose stores stream keep each group's half vector of every row
 *                                 in local memory to store whole lines off the vector grid (PAIR_STORE)
 *   ROW_RUN_CARRY                 an R2C across the lanes whose rows lie back to back (out stride VW) and whose
 *                                 stores stream: a run off the vector grid goes out as whole lines
 *   TWIN_RUN_CARRY                a twin split in registers whose rows of N / 2 + 1 values lie back to back
 *                                 and whose stores stream: each spectrum's rows leave as one run of whole lines
 * Sizes and strides are runtime values in `params` (layout.cl).
 */
#define LIX(i) ((i) + ((i) >> LPAD))
#ifdef PLANE_N0
#define LIN(n) LIX((n) / PLANE_N0 + (N / PLANE_N0) * ((n) % PLANE_N0))
#if REAL_STAGE != 0 || LOAD_MUL || IN_COUNT != N
#error "a plane loads all N complex points and nothing else"
#endif
#else
#define LIN(n) LIX(n)
#endif
#define LN (N + (N >> LPAD) + 2)

#define POST_TW_NONE 0
#define POST_TW_LANES 1
#define POST_TW_GENERAL 2

#define STAGE_NONE 0
#define STAGE_R2C_POST 1
#define STAGE_C2R_PRE 2
#define STAGE_HERM_EXPAND 3
#define STAGE_TWIN_SPLIT 4
#define STAGE_TWIN_MERGE 5
#define STAGE_R2C_POST_LANES 6
#define STAGE_C2R_PRE_LANES 7
#define STAGE_R2C_POST_PAIRS 8
#define STAGE_C2R_PRE_PAIRS 9
#define STAGE_TWIN_MERGE_LANES 10
#define STAGE_TWIN_SPLIT_LANES 11

/* The local buffer the passes left free (F holds their result), as reals: where packed stores gather. */
#define FREE_RE ((__local REAL *)(fre == are ? bre : are))
#define FREE_IM ((__local REAL *)(fre == are ? bim : aim))

/* One spectrum of a twin pair from Z_k (zr, zi) and Z_N-k (mr, mi), times F (its imaginary part also times
 * conj_out): X_k = (Z_k + conj(Z_N-k)) / 2 of x for twin 0, Y_k = (Z_k - conj(Z_N-k)) / 2i of y for twin 1,
 * F being 1/2 and any scale not applied yet. */
#define TWIN_PART(twin, zr, zi, mr, mi, F, yr, yi)                                                  \
    do {                                                                                            \
        yr = (twin) ? (zi) * (F) + (mi) * (F) : (zr) * (F) + (mr) * (F);                            \
        yi = ((twin) ? (mr) * (F) - (zr) * (F) : (zi) * (F) - (mi) * (F)) * conj_out;               \
    } while (0)

#if REAL_STAGE == STAGE_R2C_POST_PAIRS
#if (VW != 8 && VW != 16) || P != 1 || LOAD_MUL || STORE_MUL || POST_TW || defined(LONE_DIM) || PAIR_DIMS < 1 || PAIR_DIMS > 2
#error "column pairs take 8 or 16 lanes, one item per slot, one or two column dimensions and nothing else fused"
#endif
#endif

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

#if LANES_DFT_IN
#if P != 1 || IN_MODE != MODE_ROWS || IN_COUNT != N || N % VW || LOAD_MUL || POST_TW != POST_TW_LANES || REAL_STAGE != STAGE_R2C_POST_LANES
#error "a DFT across the lanes on load takes one item per slot, whole rows of N inputs, the lane twiddle and the R2C post-process"
#endif
#endif
#if LIVE_LANES != VW && !LANES_DFT_OUT
#error "only a DFT across the lanes leaves lanes of a slot idle"
#endif
#if LANES_DFT_OUT
#if P != 1 || OUT_MODE != MODE_ROWS || OUT_COUNT != (REAL_STAGE == STAGE_TWIN_SPLIT_LANES ? (N + 1) / 2 : N) || STORE_MUL || !POST_TW || (REAL_STAGE && REAL_STAGE != STAGE_TWIN_MERGE_LANES && REAL_STAGE != STAGE_TWIN_SPLIT_LANES && (REAL_STAGE != STAGE_C2R_PRE_LANES || LIVE_LANES != VW))
#error "a DFT across the lanes takes one item per slot, whole rows of N outputs, the four-step twiddle and a C2R pre-process across all lanes or a twin merge or split only"
#endif
/* The store conjugates a backward transform's output after the DFT across the lanes, not before it. */
#define RESULT_CONJ K(1.0)
#else
#define RESULT_CONJ conj_out
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
#endif

#if REAL_STAGE == STAGE_TWIN_MERGE_LANES
#if VW != 8 || !LANES_DFT_OUT || LIVE_LANES % 2 == 0 || N % 2 == 0 || IN_COUNT != (N + 1) / 2 || LOAD_MUL
#error "a twin merge across the lanes takes the odd parts of an odd transform in a DFT across the lanes, and no load factor"
#endif
/* Index M - (LIVE_LANES k + l), M = LIVE_LANES N: lane 0 from element N - k, lanes l > 0 from lane
 * LIVE_LANES - l of element N - 1 - k (SHUFFLE2(element N - k, element N - 1 - k, OPPOSITE_MASK2)). */
#endif

#if REAL_STAGE == STAGE_C2R_PRE_PAIRS
#if (VW != 8 && VW != 16) || P != 1 || SPW % 2 || LOAD_MUL || IN_KIND != KIND_COMPLEX || IN_MODE != MODE_COLS || NBATCH < 1
#error "row pairs take 8 or 16 lanes of adjacent complex rows, one item and two slots a pair, and no load factor"
#endif
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
#else
#define C2R_PRE_FUSED 0
#define C2R_PRE_MIDDLE 0
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
#ifdef LONE_DIM
#define LANE_LONE(l) lone[l]
#define NONE_LONE (!any_lone)
#else
#define LANE_LONE(l) 0
#define NONE_LONE 1
#endif

#if P > 1
#define SLOT_BARRIER() barrier(CLK_LOCAL_MEM_FENCE)
#else
#define SLOT_BARRIER()
#endif

/* The loads' and stores' work-item (IO_LID, slot IO_SLOT_ID of the launch, local buffers IO_BUF), which
 * SLOT_MAJOR_IO takes from the passes' (lid, sl) by swapping the roles of local x and y. */
#if SLOT_MAJOR_IO
#if VW != 1 || SPW != 1 || T == 1
#error "slot-major loads and stores take one transform per slot and several slots per group"
#endif
#define IO_LID io_lid
#define IO_SLOT_ID ((IDX)get_group_id(1) * T + io_sl)
#define IO_BUF(p) ((p) + (io_sl - sl) * LN)
#else
#define IO_LID lid
#define IO_SLOT_ID get_global_id(1)
#define IO_BUF(p) p
#endif

/* Row r's elements N - k in ROWS_IN_REGISTERS, k = VW r + j: lane 0 from row (VW - r) % VW, lane j > 0 from
 * lane VW - j of row VW - 1 - r. */
#define MIRROR(a, r) SHUFFLE2((a)[(VW - (r)) % VW], (a)[VW - 1 - (r)], MIRROR_MASK)

/* Parts 1..R-1 of butterfly k of a pass over spans L = R Ls times w_L^(jk), from the pass's table at OFF. */
#define TWIDDLE_PARTS(R, OFF, Ls, k, xr, xi)                                                        \
    do {                                                                                            \
        if ((Ls) > 1) {                                                                             \
            UNROLL for (int j_ = 1; j_ < (R); j_++) {                                               \
                __global const REAL *w_ = tw + 2 * ((OFF) + (j_ - 1) * (Ls) + (k));                 \
                CMUL(xr[j_], xi[j_], xr[j_], xi[j_], w_[0], w_[1]);                                 \
            }                                                                                       \
        }                                                                                           \
    } while (0)

/* One Stockham pass: y[b*L + m*L/R + k] = sum_j w_R^(jm) w_L^(jk) x[g + j*N/R], g = b*L/R + k. */
#define PASS(R, L, OFF, SRE, SIM, DRE, DIM)                                                         \
    do {                                                                                            \
        const int Ls = (L) / (R);                                                                   \
        for (int g = lid; g < N / (R); g += P) {                                                    \
            const int k = g % Ls, b = g / Ls;                                                       \
            V xr[R], xi[R];                                                                         \
            UNROLL for (int j = 0; j < (R); j++) {                                                  \
                xr[j] = SRE[LIX(g + j * (N / (R)))];                                                \
                xi[j] = SIM[LIX(g + j * (N / (R)))];                                                \
            }                                                                                       \
            TWIDDLE_PARTS(R, OFF, Ls, k, xr, xi);                                                   \
            CAT(fft, R)(xr, xi);                                                                    \
            UNROLL for (int m = 0; m < (R); m++) {                                                  \
                DRE[LIX(b * (L) + m * Ls + k)] = xr[m];                                             \
                DIM[LIX(b * (L) + m * Ls + k)] = xi[m];                                             \
            }                                                                                       \
        }                                                                                           \
        SLOT_BARRIER();                                                                             \
    } while (0)

#define STEP(q, SRE, SIM, DRE, DIM) PASS(CAT(PR, q), CAT(PL, q), CAT(PO, q), SRE, SIM, DRE, DIM)
/* Pass q reads A and writes B when q is odd, the other way round when even. */
#define STEP_ALTERNATING(q)                                                                         \
    STEP(q, ((q) % 2 ? are : bre), ((q) % 2 ? aim : bim), ((q) % 2 ? bre : are), ((q) % 2 ? bim : aim))

/* F(q) for each pass: PASSES_UP from q = 1 to NPASS, PASSES_DOWN from NPASS to 1. */
#if NPASS > 12
#error "at most 12 passes"
#endif
#define PASSES_UP_0(F)
#define PASSES_UP_1(F) PASSES_UP_0(F) F(1);
#define PASSES_UP_2(F) PASSES_UP_1(F) F(2);
#define PASSES_UP_3(F) PASSES_UP_2(F) F(3);
#define PASSES_UP_4(F) PASSES_UP_3(F) F(4);
#define PASSES_UP_5(F) PASSES_UP_4(F) F(5);
#define PASSES_UP_6(F) PASSES_UP_5(F) F(6);
#define PASSES_UP_7(F) PASSES_UP_6(F) F(7);
#define PASSES_UP_8(F) PASSES_UP_7(F) F(8);
#define PASSES_UP_9(F) PASSES_UP_8(F) F(9);
#define PASSES_UP_10(F) PASSES_UP_9(F) F(10);
#define PASSES_UP_11(F) PASSES_UP_10(F) F(11);
#define PASSES_UP_12(F) PASSES_UP_11(F) F(12);
#define PASSES_DOWN_0(F)
#define PASSES_DOWN_1(F) F(1); PASSES_DOWN_0(F)
#define PASSES_DOWN_2(F) F(2); PASSES_DOWN_1(F)
#define PASSES_DOWN_3(F) F(3); PASSES_DOWN_2(F)
#define PASSES_DOWN_4(F) F(4); PASSES_DOWN_3(F)
#define PASSES_DOWN_5(F) F(5); PASSES_DOWN_4(F)
#define PASSES_DOWN_6(F) F(6); PASSES_DOWN_5(F)
#define PASSES_DOWN_7(F) F(7); PASSES_DOWN_6(F)
#define PASSES_DOWN_8(F) F(8); PASSES_DOWN_7(F)
#define PASSES_DOWN_9(F) F(9); PASSES_DOWN_8(F)
#define PASSES_DOWN_10(F) F(10); PASSES_DOWN_9(F)
#define PASSES_DOWN_11(F) F(11); PASSES_DOWN_10(F)
#define PASSES_DOWN_12(F) F(12); PASSES_DOWN_11(F)
#define PASSES_UP(F) CAT(PASSES_UP_, NPASS)(F)
#define PASSES_DOWN(F) CAT(PASSES_DOWN_, NPASS)(F)

#if IN_PLACE_PASSES
#if P != 1 || (REAL_STAGE != STAGE_NONE && REAL_STAGE != STAGE_TWIN_SPLIT && REAL_STAGE != STAGE_TWIN_MERGE && REAL_STAGE != STAGE_C2R_PRE && REAL_STAGE != STAGE_R2C_POST && REAL_STAGE != STAGE_C2R_PRE_PAIRS && REAL_STAGE != STAGE_TWIN_MERGE_LANES) || MID_MUL || LANES_DFT_IN || (LANES_DFT_OUT && REAL_STAGE != STAGE_NONE && REAL_STAGE != STAGE_TWIN_MERGE_LANES) || defined(PLANE_N0) || defined(ROWS_IN_REGISTERS)
#error "in-place passes take one work-item per slot and nothing fused into the passes but a twin split or merge, a real pre- or post-process, or a DFT across the lanes on the store (complex, or after a twin merge)"
#endif
#if LOCAL_BUFFERS == 1 && (PACKED_ROWS || REAL_STAGE == STAGE_C2R_PRE)
#error "packed rows gather in a second buffer, and the C2R pre-process loads into one"
#endif
#if REAL_STAGE == STAGE_TWIN_MERGE && N % 2 == 0
#error "an in-place twin merge loads Y_n at N - n, which only an odd N keeps clear of the X_n it loads"
#endif
/* One in-place decimation-in-frequency pass over blocks of L: y[b*L + m*L/R + k] = w_L^(mk) sum_j w_R^(jm)
 * x[b*L + j*L/R + k], each butterfly writing where it read. Stockham pass q's twiddles, w_L^(jk), serve as
 * they are; run from q = NPASS (L = N) down to q = 1, the passes leave X_k at DIF_POSITION(k). */
#define PASS_IN_PLACE(R, L, OFF, XRE, XIM)                                                          \
    do {                                                                                            \
        const int Ls = (L) / (R);                                                                   \
        for (int g = lid; g < N / (R); g += P) {                                                    \
            const int k = g % Ls, at = (g / Ls) * (L) + k;                                          \
            V xr[R], xi[R];                                                                         \
            UNROLL for (int j = 0; j < (R); j++) {                                                  \
                xr[j] = XRE[LIX(at + j * Ls)];                                                      \
                xi[j] = XIM[LIX(at + j * Ls)];                                                      \
            }                                                                                       \
            CAT(fft, R)(xr, xi);                                                                    \
            TWIDDLE_PARTS(R, OFF, Ls, k, xr, xi);                                                   \
            UNROLL for (int m = 0; m < (R); m++) {                                                  \
                XRE[LIX(at + m * Ls)] = xr[m];                                                      \
                XIM[LIX(at + m * Ls)] = xi[m];                                                      \
            }                                                                                       \
        }                                                                                           \
        SLOT_BARRIER();                                                                             \
    } while (0)
#define STEP_IN_PLACE(q) PASS_IN_PLACE(CAT(PR, q), CAT(PL, q), CAT(PO, q), are, aim)

/* The digit of X_k's position that pass q's radix gives: the first pass (q = NPASS) takes the lowest digit
 * of k and writes it at the largest stride, N / PR_NPASS. */
#define DIF_DIGIT(q) (pos_ += (k_ % CAT(PR, q)) * (CAT(PL, q) / CAT(PR, q)), k_ /= CAT(PR, q))
AI int dif_position(uint k_) {
    uint pos_ = 0;
    PASSES_DOWN(DIF_DIGIT);
    return pos_;
}
#define DIF_POSITION(k) dif_position(k)
#else
#define DIF_POSITION(k) (k)
#endif

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

#if SPW > 1 && P > 1
#error "slots run one after another only without barriers (P = 1)"
#endif

#if POST_TW && OUT_MODE == MODE_ROWS && P > 1
#error "the four-step twiddle visits output elements in order; ROWS stores with P > 1 do not"
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

/* Bluestein's elementwise factors, fused into the load and the store: one table entry for all lanes, or one
 * per lane. Entries past the limit are never used, and the clamp keeps their reads inside the table. */
#define FACTOR_AT(PRE, base, l, n) ((base)[l] + (IDX)(n) * CAT(PRE, _KMUL))
#define FACTOR_ENTRY(PRE, base, l, n)                                                               \
    (tw + 2 * (CAT(PRE, _OFF) + (CAT(PRE, _GUARD) && FACTOR_AT(PRE, base, l, n) >= CAT(PRE, _LIMIT)   \
                                     ? 0                                                            \
                                     : FACTOR_AT(PRE, base, l, n))))
#define FACTOR_MUL(PRE, base, top, n, xr, xi)                                                       \
    do {                                                                                            \
        if (CAT(PRE, _LANES) && CAT(PRE, _STEP1) && lanes_adjacent && FACTOR_ALL_IN(PRE, top, n)) {   \
            V fr_, fi_;                                                                             \
            SPLIT_PAIRS(tw + 2 * (CAT(PRE, _OFF) + FACTOR_AT(PRE, base, 0, n)), fr_, fi_);            \
            CMUL(xr, xi, xr, xi, fr_, fi_);                                                         \
        } else if (CAT(PRE, _LANES)) {                                                              \
            REAL fr_[VW], fi_[VW];                                                                  \
            UNROLL for (int l_ = 0; l_ < VW; l_++) {                                                \
                __global const REAL *f_ = FACTOR_ENTRY(PRE, base, l_, n);                           \
                fr_[l_] = f_[0];                                                                    \
                fi_[l_] = f_[1];                                                                    \
            }                                                                                       \
            CMUL(xr, xi, xr, xi, VLOADV(fr_), VLOADV(fi_));                                         \
        } else {                                                                                    \
            __global const REAL *f_ = FACTOR_ENTRY(PRE, base, 0, n);                                \
            CMUL(xr, xi, xr, xi, f_[0], f_[1]);                                                     \
        }                                                                                           \
    } while (0)
/* Whether element n of lane l (of every lane) lies inside the factor's sequence. */
#define FACTOR_IN(PRE, base, l, n) (!CAT(PRE, _GUARD) || FACTOR_AT(PRE, base, l, n) < CAT(PRE, _LIMIT))
#define FACTOR_ALL_IN(PRE, top, n) (!CAT(PRE, _GUARD) || (top) + (IDX)(n) * CAT(PRE, _KMUL) < CAT(PRE, _LIMIT))

#if LOAD_MUL
#define LOAD_FACTOR(n, xr, xi) FACTOR_MUL(LOAD, lf_base, lf_top, n, xr, xi)
#define LOAD_IN(l, n) FACTOR_IN(LOAD, lf_base, l, n)
#define LOAD_ALL_IN(n) FACTOR_ALL_IN(LOAD, lf_top, n)
#else
#define LOAD_FACTOR(n, xr, xi)
#if REAL_STAGE == STAGE_TWIN_MERGE_LANES
#define LOAD_IN(l, n) ((n) < IN_COUNT - 1 || (l) <= LIVE_LANES / 2)
#define LOAD_ALL_IN(n) ((n) < IN_COUNT - 1)
#else
#define LOAD_IN(l, n) 1
#define LOAD_ALL_IN(n) 1
#endif
#endif
#if STORE_MUL
#define STORE_FACTOR(k, xr, xi)                                                                     \
    do {                                                                                            \
        xi = -xi;                                                                                   \
        FACTOR_MUL(STORE, sf_base, sf_top, k, xr, xi);                                              \
    } while (0)
#define STORE_IN(l, k) FACTOR_IN(STORE, sf_base, l, k)
#define STORE_ALL_IN(k) FACTOR_ALL_IN(STORE, sf_top, k)
#else
#define STORE_FACTOR(k, xr, xi)
#define STORE_IN(l, k) 1
#define STORE_ALL_IN(k) 1
#endif

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

/* Whether lane l stores: a transform of the batch, and on the split's twin store not a lone one. */
#define LANE_STORES(l) (LANE_LIVE(l) && (twin == 0 || !LANE_LONE(l)))
/* Whether lane l holds a transform of its own. */
#define LANE_LIVE(l) ((l) < LIVE_LANES && t0 + (l) < batch)

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
#endif

/* Elements each column load asks for ahead (IN_PREFETCH): 16 measured faster than 4 or 48 (c2c double 2^22). */
#define PREFETCH_AHEAD 16

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
#endif

#define SWAP_BUFFERS(a, b, c, d)                                                                    \
    do {                                                                                            \
        __local V *t_ = (a);                                                                        \
        (a) = (b);                                                                                  \
        (b) = t_;                                                                                   \
        t_ = (c);                                                                                   \
        (c) = (d);                                                                                  \
        (d) = t_;                                                                                   \
    } while (0)

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
#if POST_TW
    const ulong tw_n = params[P_TW_N], tw_kmul = params[P_TW_KMUL];
    const uint tw_shift = (uint)params[P_TW_SHIFT];
    const ulong tw_mask = (1ul << tw_shift) - 1;
    const IDX tw_hi = (IDX)params[P_TW_HI], tw_lanes = (IDX)params[P_TW_LANES];
    ulong tw_e[VW], tw_step[VW];
#if TW_RUNS == 2
    /* Or the first tw_run lanes end a row of batch dimension 0 and the others start the next. */
    const IDX tw_run = (IDX)DIM_COUNT(0) - coord[0];
    const int two_runs = t0 + VW <= batch && tw_run < VW && VW - tw_run <= (IDX)DIM_COUNT(0);
    V tw_first, tw_second;
    {
        REAL first_[VW];
        UNROLL for (int l = 0; l < VW; l++) first_[l] = l < tw_run ? K(1.0) : K(0.0);
        tw_first = VLOADV(first_);
        tw_second = K(1.0) - tw_first;
    }
    const int tw_lane_form = POST_TW == POST_TW_LANES && (lanes_adjacent || two_runs);
#elif LIVE_LANES < VW
    const int two_runs = 0;
    /* The live lanes are one transform's parts from c = 0, so the lane form holds (idle lanes' roots go unused). */
    const int tw_lane_form = POST_TW == POST_TW_LANES;
#else
    const int two_runs = 0;
    const int tw_lane_form = POST_TW == POST_TW_LANES && lanes_adjacent;
#endif
#endif
#ifdef LONE_DIM
    /* Lanes whose twin another slot stores; any_lone when the slot has one. */
    int lone[VW], any_lone = 0;
#endif
    /* Each lane's first factor entry, and the largest of them. */
#if LOAD_MUL
    IDX lf_base[VW], lf_top = 0;
#endif
#if STORE_MUL
    IDX sf_base[VW], sf_top = 0;
#endif
    UNROLL for (int l = 0; l < VW; l++) {
#if REAL_STAGE != STAGE_R2C_POST_PAIRS
        if (l > 0) {
            ib[l] = ib[l - 1];
            ob[l] = ob[l - 1];
            if (LANE_LIVE(l))
                next_transform(params, coord, &ib[l], &ob[l]);
        }
#endif
#ifdef LONE_DIM
        lone[l] = coord[LONE_DIM] == 0;
        any_lone |= lone[l];
#endif
#if LOAD_MUL
        lf_base[l] = LOAD_BASE(coord);
        lf_top = max(lf_top, lf_base[l]);
#endif
#if STORE_MUL
        sf_base[l] = STORE_BASE(coord);
        sf_top = max(sf_top, sf_base[l]);
#endif
#if POST_TW
        /* e(k) = c (base + kmul k) mod n is linear in k: start at k = lid, step by P. */
        if (!tw_lane_form || l == 0) {
            ulong c = coord[params[P_TW_C]] % tw_n, base = 0;
            UNROLL for (int d = 0; d < NBATCH; d++) base = (base + mul_mod(DIM_TW(d) % tw_n, coord[d] % tw_n, tw_n)) % tw_n;
            base = (base + mul_mod(tw_kmul, (ulong)IO_LID, tw_n)) % tw_n;
            tw_e[l] = mul_mod(c, base, tw_n);
            tw_step[l] = mul_mod(mul_mod(c, tw_kmul, tw_n), (ulong)P % tw_n, tw_n);
#if TW_RUNS == 2
            if (two_runs) {
                /* The lane form has c_dim 0 and no base: lane l of the second run has c = c0 - rows + l. */
                ulong c1 = (c + tw_n - (ulong)DIM_COUNT(0) % tw_n) % tw_n;
                tw_e[1] = mul_mod(c1, base, tw_n);
                tw_step[1] = mul_mod(mul_mod(c1, tw_kmul, tw_n), (ulong)P % tw_n, tw_n);
            }
#endif
        } else if (l >= (two_runs ? 2 : 1)) {
            /* Unused; the lane form's second exponent (two_runs) was set with lane 0's. */
            tw_e[l] = 0;
            tw_step[l] = 0;
        }
#endif
    }

#ifdef ROWS_IN_REGISTERS
    /* One transform at a time, n = VW n1 + n2: row n1 is a vector over n2. A vertical radix-VW butterfly
     * over the rows gives vectors over n2 for each k1, which take w_N^(n2 k1) (pass 2's table, contiguous in
     * n2); after a transpose the second butterfly over n2 leaves X[k1 + VW k2] as row k2, a vector over k1.
     * The twin stages pair two real transforms as for odd lengths, with element N - k of row r's k from
     * MIRROR (rows up to N/2 hold what a Hermitian side has: row VW/2 only the Nyquist value, in lane 0). */
#if TWIN_RUN_CARRY
    /* Where the slot's VW transforms store rows back to back, each spectrum's rows (x's, y's TWIN_OUT further)
     * leave as one run whose lines stream, its ends value by value: stored row by row, rows of N / 2 + 1
     * values would start off the vector grid and write partial lines, which do not. Neighbours along batch
     * dimension 0 suffice: the planner asks that dimension's out stride to be OUT_COUNT (twin_run_carry). */
    const int twin_run = lanes_adjacent && NONE_LONE;
    V run_prev[2] = {(V)(0), (V)(0)};
    int run_fill[2] = {0, 0};
    IDX run_q[2] = {ob[0], ob[0] + (IDX)TWIN_OUT};
#endif
    for (int l = 0; l < VW && LANE_LIVE(l); l++) {
        V xr[VW], xi[VW];
#if REAL_STAGE == STAGE_TWIN_MERGE
        /* As STAGE_TWIN_MERGE below: conj(Z) of Z = X + i Y, Z_N-k = conj(X_k) + i conj(Y_k). The DC's and
         * the Nyquist value's imaginary parts are redundant. */
        V ar[VW / 2 + 1], ai[VW / 2 + 1], br[VW / 2 + 1], bi[VW / 2 + 1];
        UNROLL for (int r = 0; r < VW / 2; r++) {
            IN_ROW(ib[l] + (IDX)(r * VW) * in_stride, ar[r], ai[r]);
            IN_ROW(ib[l] + (IDX)TWIN_IN + (IDX)(r * VW) * in_stride, br[r], bi[r]);
            ai[r] *= conj_in;
            bi[r] *= conj_in;
        }
        {
            REAL nr_, ni_;
            IN_AT(ib[l] + (IDX)(N / 2) * in_stride, nr_, ni_);
            ar[VW / 2] = (V)(nr_);
            IN_AT(ib[l] + (IDX)TWIN_IN + (IDX)(N / 2) * in_stride, nr_, ni_);
            br[VW / 2] = (V)(nr_);
            ai[VW / 2] = bi[VW / 2] = (V)(0);
            ai[0].s0 = bi[0].s0 = K(0.0);
        }
        UNROLL for (int r = 0; r < VW / 2; r++) {
            xr[r] = ar[r] + bi[r];
            xi[r] = ai[r] - br[r];
        }
        UNROLL for (int r = VW / 2; r < VW; r++) {
            xr[r] = MIRROR(ar, r) - MIRROR(bi, r);
            xi[r] = -MIRROR(ai, r) - MIRROR(br, r);
        }
#else
        UNROLL for (int r = 0; r < VW; r++) {
            IN_ROW(ib[l] + (IDX)(r * VW) * in_stride, xr[r], xi[r]);
            xi[r] *= conj_in;
        }
#endif
        CAT(fft, VW)(xr, xi);
        UNROLL for (int k1 = 1; k1 < VW; k1++) {
            V wr, wi;
            SPLIT_PAIRS(tw + 2 * (PO2 + (k1 - 1) * VW), wr, wi);
            CMUL(xr[k1], xi[k1], xr[k1], xi[k1], wr, wi);
        }
        TRANSPOSE(xr);
        TRANSPOSE(xi);
        CAT(fft, VW)(xr, xi);
#if REAL_STAGE == STAGE_TWIN_SPLIT
        /* As STAGE_TWIN_SPLIT below: X_k = (Z_k + conj(Z_N-k)) / 2, then Y_k = (Z_k - conj(Z_N-k)) / 2i. */
        for (int twin = 0; twin < 2 && !(twin && LANE_LONE(l)); twin++) {
            const IDX o = ob[l] + (twin ? (IDX)TWIN_OUT : 0);
            UNROLL for (int r = 0; r <= VW / 2; r++) {
                V mr = MIRROR(xr, r), mi = MIRROR(xi, r);
                V yr, yi;
                TWIN_PART(twin, xr[r], xi[r], mr, mi, K(0.5) * scale, yr, yi);
#if TWIN_RUN_CARRY
                if (twin_run) {
                    TWIN_RUN_ROW(twin, r, yr, yi, l == 0 && r == 0 ? GRID_SHIFT(o) : 0, o);
                    continue;
                }
#endif
                if (r < VW / 2)
                    OUT_ROW(o + (IDX)(r * VW) * out_stride, yr, yi);
                else
                    OUT_AT(o + (IDX)(N / 2) * out_stride, yr.s0, yi.s0);
            }
#if TWIN_RUN_CARRY
            if (twin_run && l == VW - 1)
                RUN_END(twin);
#endif
        }
#else
        UNROLL for (int r = 0; r < VW; r++) {
            V yr = xr[r] * scale, yi = xi[r] * (scale * conj_out);
            OUT_ROW_LONE(LANE_LONE(l), ob[l] + (IDX)(r * VW) * out_stride, yr, yi);
        }
#endif
    }
#else
    /* ---- load IN_COUNT elements into the load buffer (the twin merge's second transform into B) ---- */
#if REAL_STAGE == STAGE_TWIN_MERGE || REAL_STAGE == STAGE_TWIN_MERGE_LANES
#if IN_PLACE_PASSES
    /* One buffer: the second transform loads mirrored, Y_n to element N - n (Y_0 to N, the buffer's spare),
     * which X_n for n <= N / 2 leaves free and where the merge of n reads it (across the lanes, the merge
     * sweeps up the elements: see there). */
#define TWIN_Y(n) LIX(N - (n))
#undef LIN
#define LIN(n) (twin ? TWIN_Y(n) : LIX(n))
#else
#define TWIN_Y(n) LIX(n)
#endif
#endif
    for (int twin = 0; twin < TWIN_LOADS; twin++) {
#if REAL_STAGE == STAGE_C2R_PRE || REAL_STAGE == STAGE_C2R_PRE_LANES
    __local V *lre_in = bre, *lim_in = bim;
#else
    __local V *lre_in = twin ? bre : are, *lim_in = twin ? bim : aim;
#endif
#if REAL_STAGE == STAGE_TWIN_MERGE || REAL_STAGE == STAGE_TWIN_MERGE_LANES
    if (twin)
        UNROLL for (int l = 0; l < VW; l++) ib[l] += (IDX)TWIN_IN;
#endif
#if IN_MODE == MODE_ROWS && VW > 1
#if IN_PREFETCH == PREFETCH_NEXT_SLOT
    /* Where the lanes are neighbours, lane l of the next slot lies VW lane steps further: where that slot is
     * VW neighbours too, so never past the batch. */
    const IDX next_slot = lanes_adjacent && NEIGHBOURS_FROM_T0(2 * VW) ? (IDX)VW * (ib[1] - ib[0]) : 0;
#endif
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
#if C2R_PRE_FUSED
    /* The pre-process (below) as the rows load: block k0..k0+VW-1 and its mirror block N+1-VW-k0..N-k0,
     * each transposed, combine in registers into A, which spares the pass over B. The middle elements, whose
     * blocks would overlap, load into B as any rows do. */
    for (int k0 = lid * VW; k0 < C2R_PRE_MIDDLE; k0 += P * VW) {
        V xr[VW], xi[VW], yr[VW], yi[VW];
        ROW_BLOCK_IN(k0, xr, xi);
        ROW_BLOCK_IN(N + 1 - VW - k0, yr, yi);
        TRANSPOSE(xr);
        TRANSPOSE_IN_IM(xi);
        TRANSPOSE(yr);
        TRANSPOSE_IN_IM(yi);
        UNROLL for (int q = 0; q < VW; q++)
            C2R_PRE_PAIR(k0 + q, xr[q], xi[q] * conj_in, yr[VW - 1 - q], yi[VW - 1 - q] * conj_in);
    }
#endif
    const int in_end = IN_COUNT - C2R_PRE_MIDDLE;
    for (int n0 = C2R_PRE_MIDDLE + lid * VW; n0 + VW <= in_end; n0 += P * VW) {
        if (!LOAD_ALL_IN(n0 + VW - 1)) {
            UNROLL for (int q = 0; q < VW; q++) GATHER_IN(n0 + q, lre_in[LIN(n0 + q)], lim_in[LIN(n0 + q)]);
            continue;
        }
        V xr[VW], xi[VW];
        ROW_BLOCK_IN(n0, xr, xi);
#if LANES_DFT_IN
        UNROLL for (int l = 0; l < VW; l++) xi[l] *= conj_in;
        CAT(fft, VW)(xr, xi);
        TRANSPOSE(xr);
        TRANSPOSE(xi);
        UNROLL for (int q = 0; q < VW; q++) {
            __global const REAL *lane_ = tw + 2 * (tw_lanes + (IDX)(n0 + q) * VW);
            CMUL(xr[q], xi[q], xr[q], xi[q], LANE_RE(lane_), LANE_IM(lane_));
            lre_in[LIN(n0 + q)] = xr[q];
            lim_in[LIN(n0 + q)] = xi[q];
        }
#else
        TRANSPOSE(xr);
        TRANSPOSE_IN_IM(xi);
        UNROLL for (int q = 0; q < VW; q++) {
            V yr = xr[q], yi = xi[q] * conj_in;
            LOAD_FACTOR(n0 + q, yr, yi);
            lre_in[LIN(n0 + q)] = yr;
            lim_in[LIN(n0 + q)] = yi;
        }
#endif
    }
    for (int n = in_end - (in_end - C2R_PRE_MIDDLE) % VW + lid; n < in_end; n += P)
        GATHER_IN(n, lre_in[LIN(n)], lim_in[LIN(n)]);
#elif REAL_STAGE == STAGE_C2R_PRE_PAIRS
    if (!pair_second)
        PAIR_LOAD();
    else
        /* The mirror block, pre-processed with the first: its passes start from PRE. */
        SWAP_BUFFERS(are, pre, aim, pim);
#elif IN_MODE == MODE_COLS && VW > 1
#if LIVE_LANES < VW
    /* The live lanes, one transform's parts, are neighbours too: a whole vector reads them, and its idle lanes
     * what lies just past them, inside the input up to the next element's parts. */
#define LANES_LOAD_TOGETHER(n) ((n) + 1 < IN_EVERY_LANE)
#else
#define LANES_LOAD_TOGETHER(n) lanes_adjacent
    /* Or the first in_run lanes end one run of neighbours and the others start a later one (the slot crosses
     * from one transform's columns into the next's): a whole vector at the start of each run, blended, reads
     * them. Both vectors lie between the two runs' ends, inside the input; what they read past their run is
     * dropped. */
    int in_run = 0, in_runs_ok = 0;
    IDX in_second = ib[0];
    if (!lanes_adjacent && t0 + VW <= batch) {
        in_run = VW;
        in_runs_ok = 1;
        UNROLL for (int l = 1; l < VW; l++) {
            const IDX run_at = ib[0] + (IDX)(l * IN_LANE_STEP);
            if (in_run == VW && ib[l] != run_at) {
                in_run = l;
                in_runs_ok = ib[l] > run_at;
                in_second = ib[l] - (IDX)(l * IN_LANE_STEP);
            } else if (in_run < VW) {
                in_runs_ok &= ib[l] == in_second + (IDX)(l * IN_LANE_STEP);
            }
        }
        in_run = in_runs_ok ? in_run : 0;
    }
    CAT(MASK_ELEM, VW) in_first;
    {
        MASK_ELEM first_[VW];
        UNROLL for (int l = 0; l < VW; l++) first_[l] = l < in_run ? ~(MASK_ELEM)0 : 0;
        in_first = CAT(vload, VW)(0, first_);
    }
#endif
    for (int n = lid; n < IN_EVERY_LANE; n += P) {
        if (LANES_LOAD_TOGETHER(n) && LOAD_ALL_IN(n)) {
            V xr, xi;
#if IN_PREFETCH == PREFETCH_COLUMNS
            PREFETCH_IN(ib[0] + (IDX)min(n + PREFETCH_AHEAD * P, IN_EVERY_LANE - 1) * in_stride, 3);
#endif
            IN_LANES(ib[0] + (IDX)n * in_stride, xr, xi);
            xi *= conj_in;
            LOAD_FACTOR(n, xr, xi);
            lre_in[LIN(n)] = xr;
            lim_in[LIN(n)] = xi;
#if LIVE_LANES == VW
        } else if (in_run && LOAD_ALL_IN(n)) {
            V xr, xi, yr, yi;
            IN_LANES(ib[0] + (IDX)n * in_stride, xr, xi);
            IN_LANES(in_second + (IDX)n * in_stride, yr, yi);
            xr = select(yr, xr, in_first);
            xi = select(yi, xi, in_first) * conj_in;
            LOAD_FACTOR(n, xr, xi);
            lre_in[LIN(n)] = xr;
            lim_in[LIN(n)] = xi;
#endif
        } else {
            GATHER_IN(n, lre_in[LIN(n)], lim_in[LIN(n)]);
        }
    }
#else
    for (int n = IO_LID; n < IN_EVERY_LANE; n += P)
        GATHER_IN(n, IO_BUF(lre_in)[LIN(n)], IO_BUF(lim_in)[LIN(n)]);
#endif
#if REAL_STAGE == STAGE_C2R_PRE_LANES
    if (lid == 0) {
        REAL nr_, ni_;
        IN_AT(ib[0] + (IDX)N * in_stride, nr_, ni_);
        lre_in[LIX(N)] = (V)(nr_);
        lim_in[LIX(N)] = (V)(ni_ * conj_in);
    }
#endif
#if REAL_STAGE == STAGE_NONE && IN_COUNT < N
    for (int n = IN_COUNT + IO_LID; n < N; n += P) {
        IO_BUF(lre_in)[LIX(n)] = (V)(0);
        IO_BUF(lim_in)[LIX(n)] = (V)(0);
    }
#endif
    }
    SLOT_BARRIER();

#if REAL_STAGE == STAGE_C2R_PRE
    /* conj(X_0..X_N) in B -> conj(Z'_0..Z'_N-1) in A (real.cl), value k with its mirror N - k; DC and
     * Nyquist are real by symmetry. Those below C2R_PRE_MIDDLE and their mirrors took the load. */
    for (int k = C2R_PRE_MIDDLE + lid; k <= N / 2; k += P)
        C2R_PRE_PAIR(k, bre[LIX(k)], bim[LIX(k)], bre[LIX(N - k)], bim[LIX(N - k)]);
    SLOT_BARRIER();
#elif REAL_STAGE == STAGE_C2R_PRE_LANES
    /* As STAGE_C2R_PRE with X_(VW k + l) in lane l of element k (LANE_MIRROR); the imaginary parts of the DC
     * and the Nyquist value are lane 0's. */
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
#elif REAL_STAGE == STAGE_HERM_EXPAND
    /* X_n for n > N/2 is conj(X_N-n); the DC is real. (Loaded values already carry conj_in, and the
     * relation holds for conjugates too.) */
    for (int n = N / 2 + 1 + lid; n < N; n += P) {
        are[LIX(n)] = are[LIX(N - n)];
        aim[LIX(n)] = -aim[LIX(N - n)];
    }
    if (lid == 0)
        aim[LIX(0)] = (V)(0);
    SLOT_BARRIER();
#elif REAL_STAGE == STAGE_TWIN_MERGE
    /* A backward transform's passes take conjugated data, conj(X) and conj(Y) as loaded here (conj_in says
     * whether the load or the pass before conjugated): A, B -> conj(Z) in A, Z = X + i Y, with
     * Z_N-k = conj(X_k) + i conj(Y_k); the DC's imaginary parts are redundant. Each k writes only k and N - k
     * (in place, where it read X_k and Y_k). */
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
#elif REAL_STAGE == STAGE_TWIN_MERGE_LANES && IN_PLACE_PASSES
    /* As below, in one buffer, X_i at element i and Y_i at N - i (TWIN_Y). Element N - i past the loaded ones
     * takes the mirrors of elements i and i - 1, and loaded element i - 1 only its own X and Y: so a sweep up
     * i (one work-item a slot) keeps X and Y of i - 1 in registers and stores N - i where Y_i was and i - 1
     * where X_i-1 was, which no later step reads. */
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
#elif REAL_STAGE == STAGE_TWIN_MERGE_LANES
    /* As STAGE_TWIN_MERGE, across the lanes: the elements past the loaded ones first, each from the mirrors
     * (OPPOSITE_MASK2) of elements loaded whole, then the loaded ones in place (TWIN_MERGE_LOADED). */
    for (int k = IN_COUNT + lid; k < N; k += P)
        TWIN_MERGE_PAST(k, are[LIX(N - k)], aim[LIX(N - k)], bre[LIX(N - k)], bim[LIX(N - k)], are[LIX(N - 1 - k)],
                        aim[LIX(N - 1 - k)], bre[LIX(N - 1 - k)], bim[LIX(N - 1 - k)]);
    SLOT_BARRIER();
    for (int k = lid; k < IN_COUNT; k += P)
        TWIN_MERGE_LOADED(k, are[LIX(k)], aim[LIX(k)], bre[LIX(k)], bim[LIX(k)]);
    SLOT_BARRIER();
#endif

    /* ---- Stockham passes, alternating A -> B -> A ..., into F (twice with MID_MUL); or in place in A ---- */
#if IN_PLACE_PASSES
    __local V *fre = are, *fim = aim;
    PASSES_DOWN(STEP_IN_PLACE);
#else
#if NPASS % 2 == 1
    __local V *fre = bre, *fim = bim;
#else
    __local V *fre = are, *fim = aim;
#endif
    for (int round = 0; round < (MID_MUL ? 2 : 1); round++) {
#if MID_MUL
    if (round == 1) {
        for (int k = lid; k < N; k += P) {
            V xr = fre[LIX(k)], xi = -fim[LIX(k)];
            __global const REAL *f_ = tw + 2 * (MID_OFF + k);
            CMUL(xr, xi, xr, xi, f_[0], f_[1]);
            are[LIX(k)] = xr;
            aim[LIX(k)] = xi;
        }
        SLOT_BARRIER();
    }
#endif
    PASSES_UP(STEP_ALTERNATING);
    }
#endif

    /* ---- store OUT_COUNT elements (and the twin split's second transform, TWIN_OUT further) ---- */
#if SLOT_MAJOR_IO
    fre = IO_BUF(fre);
    fim = IO_BUF(fim);
#endif
    for (int twin = 0; twin < TWIN_STORES; twin++) {
#if REAL_STAGE == STAGE_TWIN_SPLIT
    if (twin)
        UNROLL for (int l = 0; l < VW; l++) ob[l] += (IDX)TWIN_OUT;
#endif
#if REAL_STAGE == STAGE_R2C_POST_PAIRS
    if (s == 0)
        PAIR_GROUP(0, s, fre, fim, pre, pim);
    else if (slot >= 0)
        PAIR_GROUP(1, s, fre, fim, pre, pim);
    /* This slot's FFT becomes the previous one; its buffer takes the next slot's passes. */
    {
        __local V *t_ = fre;
        if (fre == are) {
            are = pre;
            aim = pim;
        } else {
            bre = pre;
            bim = pim;
        }
        pre = t_;
        pim = fim;
    }
#elif REAL_STAGE == STAGE_TWIN_SPLIT_LANES
    /* The DFT across the lanes, element k's rows k1 into LANE_ROWS at k1 LANE_ROW + k. */
    for (int k0 = 0; k0 + VW <= N; k0 += VW) {
        V zr[VW], zi[VW];
        UNROLL for (int q = 0; q < VW; q++) RESULT(k0 + q, zr[q], zi[q]);
        TRANSPOSE(zr);
        TRANSPOSE(zi);
        CAT(fft, LIVE_LANES)(zr, zi);
        UNROLL for (int l = 0; l < LIVE_LANES; l++) {
            VSTOREV(zr[l], LANE_ROWS_RE + l * LANE_ROW + k0);
            VSTOREV(zi[l], LANE_ROWS_IM + l * LANE_ROW + k0);
        }
    }
    for (int k = N / VW * VW; k < N; k++) {
        V xr, xi, zr[VW], zi[VW];
        RESULT(k, xr, xi);
        LANES_DFT_SPLAT(xr, xi, zr, zi);
        UNROLL for (int l = 0; l < LIVE_LANES; l++) {
            LANE_ROWS_RE[l * LANE_ROW + k] = zr[l].s0;
            LANE_ROWS_IM[l * LANE_ROW + k] = zi[l].s0;
        }
    }
    /* Outputs m = k + N k1 up to M / 2: rows k1 below LIVE_LANES / 2 whole, row LIVE_LANES / 2 up to
     * element OUT_COUNT - 1; x's, then y's TWIN_OUT further (not for a lone twin). Z_M-m: element N - k of
     * row LIVE_LANES - 1 - k1 (k > 0), element 0 of row (LIVE_LANES - k1) % LIVE_LANES. */
    UNROLL for (int l = 0; l <= LIVE_LANES / 2; l++) {
        if (!LANE_LIVE(l))
            continue;
        const int count = l < LIVE_LANES / 2 ? N : OUT_COUNT;
        __local const REAL *zr_ = LANE_ROWS_RE + l * LANE_ROW, *zi_ = LANE_ROWS_IM + l * LANE_ROW;
        __local const REAL *mr_ = LANE_ROWS_RE + (LIVE_LANES - 1 - l) * LANE_ROW + N;
        __local const REAL *mi_ = LANE_ROWS_IM + (LIVE_LANES - 1 - l) * LANE_ROW + N;
        for (int k0 = 1; k0 + VW <= count; k0 += VW) {
            V xr, xi, yr, yi;
            TWIN_SPLIT(VLOADV(zr_ + k0), VLOADV(zi_ + k0), REVERSE(VLOADV(mr_ - k0 - (VW - 1))),
                       REVERSE(VLOADV(mi_ - k0 - (VW - 1))), xr, xi, yr, yi);
            TWIN_ROW_OUT(0, l, k0, xr, xi);
            if (!LANE_LONE(l))
                TWIN_ROW_OUT(1, l, k0, yr, yi);
        }
        for (int k = 0; k < count; k = k == 0 ? 1 + (count - 1) / VW * VW : k + 1) {
            const int lm = (LIVE_LANES - l) % LIVE_LANES;
            const REAL br = k == 0 ? LANE_ROWS_RE[lm * LANE_ROW] : mr_[-k];
            const REAL bi = k == 0 ? LANE_ROWS_IM[lm * LANE_ROW] : mi_[-k];
            REAL xr, xi, yr, yi;
            TWIN_SPLIT(zr_[k], zi_[k], br, bi, xr, xi, yr, yi);
            TWIN_AT_OUT(0, l, k, xr, xi);
            if (!LANE_LONE(l))
                TWIN_AT_OUT(1, l, k, yr, yi);
        }
    }
    TWIN_RUNS_OUT();
#elif OUT_MODE == MODE_ROWS && VW > 1
#if PACKED_ROWS
    if (lanes_adjacent) {
        PACKED_STORE();
        continue;
    }
#endif
    for (int k0 = lid * VW; k0 + VW <= OUT_COUNT; k0 += P * VW) {
        V xr[VW], xi[VW];
        UNROLL for (int q = 0; q < VW; q++) RESULT(k0 + q, xr[q], xi[q]);
        if (!STORE_ALL_IN(k0 + VW - 1)) {
            UNROLL for (int q = 0; q < VW; q++) SCATTER_OUT(k0 + q, xr[q], xi[q]);
            continue;
        }
        TRANSPOSE(xr);
        TRANSPOSE(xi);
#if LANES_DFT_OUT
        CAT(fft, LIVE_LANES)(xr, xi);
        UNROLL for (int l = 0; l < VW; l++) xi[l] *= conj_out;
#endif
        UNROLL for (int l = 0; l < VW; l++) {
            if (LANE_STORES(l))
                OUT_ROW_LONE(LANE_LONE(l), ob[l] + (IDX)k0 * out_stride, xr[l], xi[l]);
        }
    }
    for (int k = (OUT_COUNT / VW) * VW + lid; k < OUT_COUNT; k += P) {
        V xr, xi;
        RESULT(k, xr, xi);
#if LANES_DFT_OUT
        V yr[VW], yi[VW];
        LANES_DFT_SPLAT(xr, xi, yr, yi);
        UNROLL for (int l = 0; l < LIVE_LANES; l++) {
            if (LANE_STORES(l))
                OUT_AT_LONE(LANE_LONE(l), ob[l] + (IDX)k * out_stride, yr[l].s0, yi[l].s0 * conj_out);
        }
#else
        SCATTER_OUT(k, xr, xi);
#endif
    }
#elif OUT_MODE == MODE_COLS && VW > 1
    /* The lanes' outputs can be neighbours where their inputs are not (scratch that runs the batch on). */
    int out_adjacent = LIVE_LANES == VW && t0 + VW <= batch;
    UNROLL for (int l = 1; l < VW; l++) out_adjacent &= ob[l] == ob[0] + (IDX)(l * OUT_LANE_STEP);
    out_adjacent |= lanes_adjacent;
#if ROW_RUN_CARRY
    /* The rows of an R2C across the lanes lie back to back, one run from ob[0]: where it starts off the vector
     * grid, each half vector completes a line with the one before it (carry_), which streams, and the run's
     * ends go value by value. */
    const int r_ = out_adjacent ? GRID_SHIFT(ob[0]) : 0;
    V carry_ = 0;
#endif
    for (int k = lid; k < OUT_EVERY_LANE; k += P) {
        V xr, xi;
        RESULT(k, xr, xi);
#if ROW_RUN_CARRY
        if (r_ != 0) {
            const V lo_ = INTERLEAVE_LO(xr, xi), hi_ = INTERLEAVE_HI(xr, xi);
            const IDX p_ = ob[0] + (IDX)k * VW;
            if (k == 0)
                VALUES_OUT(p_, lo_, 0, r_);
            else
                LINE_OUT(carry_, lo_, r_, p_ + r_ - HALF_VW);
            LINE_OUT(lo_, hi_, r_, p_ + r_);
            carry_ = hi_;
            if (k == OUT_EVERY_LANE - 1)
                VALUES_OUT(p_ + HALF_VW, hi_, r_, HALF_VW);
            continue;
        }
#endif
        if (out_adjacent && STORE_ALL_IN(k) && NONE_LONE)
            OUT_LANES(ob[0] + (IDX)k * out_stride, xr, xi);
        else
            SCATTER_OUT(k, xr, xi);
    }
#else
    for (int k = IO_LID; k < OUT_EVERY_LANE; k += P) {
        V xr, xi;
        RESULT(k, xr, xi);
        SCATTER_OUT(k, xr, xi);
    }
#endif
#if REAL_STAGE == STAGE_R2C_POST_LANES
    if (lid == 0 && t0 < batch) {
        V xr, xi;
        RESULT(N, xr, xi);
        OUT_AT(ob[0] + (IDX)N * out_stride, xr.s0, xi.s0);
    }
#endif
    }
#endif
    }
#if REAL_STAGE == STAGE_R2C_POST_PAIRS
    if (s0 + SPW == pair_slots)
        PAIR_GROUP(2, pair_slots, pre, pim, pre, pim);
#endif
}
