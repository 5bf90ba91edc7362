/* fftx_stockham: a batch of 1D FFTs along one axis, one execution-tree leaf.
 *
 * A slot is VW transforms, one per lane of V. A work-group holds T slots (local y) and P work-items per slot
 * (local x). The slot is loaded into local memory, transformed by NPASS self-sorting Stockham passes
 * (PASS_SEQUENCE, stockham_passes.cl), and stored. CPUs use P = 1 and VW = 8 or so: every lane op is then a
 * SIMD op and no barrier is needed. GPUs use VW = 1 and P > 1.
 * Real transforms run here too: see access.cl for the element kinds and real.cl for the maths.
 *
 * The leaf is assembled from files by concern, in this order: this one (the defines, the slot's local layout
 * and what every part shares), stockham_passes.cl, stockham_twiddle.cl (four-step twiddle),
 * stockham_factors.cl (Bluestein's factors), stockham_real.cl (real stages), stockham_pairs.cl (column and
 * row pairs), stockham_load.cl, stockham_store.cl and stockham_kernel.cl (the kernel itself).
 *
 * Compile-time defines fix the shape of the code:
 *   N, NPASS                      complex transform length and number of passes
 *   PASS_SEQUENCE(), DIF_DIGITS() the passes, one line each (stockham_passes.cl)
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

#if LIVE_LANES != VW && !LANES_DFT_OUT
#error "only a DFT across the lanes leaves lanes of a slot idle"
#endif

#ifdef LONE_DIM
/* Lanes whose twin another slot stores; any_lone when the slot has one. */
#define LONE_SETUP() int lone[VW], any_lone = 0
#define LONE_LANE(l) (lone[l] = coord[LONE_DIM] == 0, any_lone |= lone[l])
#define LANE_LONE(l) lone[l]
#define NONE_LONE (!any_lone)
#else
#define LONE_SETUP()
#define LONE_LANE(l)
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

#if SPW > 1 && P > 1
#error "slots run one after another only without barriers (P = 1)"
#endif

/* Whether lane l stores: a transform of the batch, and on the split's twin store not a lone one. */
#define LANE_STORES(l) (LANE_LIVE(l) && (twin == 0 || !LANE_LONE(l)))
/* Whether lane l holds a transform of its own. */
#define LANE_LIVE(l) ((l) < LIVE_LANES && t0 + (l) < batch)

#define SWAP_BUFFERS(a, b, c, d)                                                                    \
    do {                                                                                            \
        __local V *t_ = (a);                                                                        \
        (a) = (b);                                                                                  \
        (b) = t_;                                                                                   \
        t_ = (c);                                                                                   \
        (c) = (d);                                                                                  \
        (d) = t_;                                                                                   \
    } while (0)
