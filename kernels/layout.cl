/* Runtime layout of a batched kernel: sizes and strides in `params` (ulong, each side's element units):
 *   P_IN_STRIDE, P_OUT_STRIDE   element stride along the transform
 *   P_BATCH                     number of transforms
 *   P_TW_N, P_TW_KMUL, P_TW_SHIFT, P_TW_HI, P_TW_LANES, P_TW_C   the four-step twiddle (stockham.cl)
 *   P_IN_HALF, P_OUT_HALF       real stride inside a pair (KIND_REAL_PAIRS)
 *   then per batch dimension d at P_DIM + 4d: count, input stride, output stride, twiddle multiplier
 */
#define P_IN_STRIDE 0
#define P_OUT_STRIDE 1
#define P_BATCH 2
#define P_TW_N 3
#define P_TW_KMUL 4
#define P_TW_SHIFT 5
#define P_TW_HI 6
#define P_TW_LANES 7
#define P_TW_C 8
#define P_IN_HALF 9
#define P_OUT_HALF 10
#define P_DIM 11
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

