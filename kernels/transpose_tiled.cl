/* fftx_transpose_tiled: out of place, output element (j, i) = input element (i, j) of every rows x cols
 * matrix. Input (i, j) sits at i * TP_IN_ROW_STRIDE + j * P_IN_STRIDE from the matrix's input base, output
 * (j, i) at j * TP_OUT_ROW_STRIDE + i * P_OUT_STRIDE from its output base.
 *
 * Global x runs over the column blocks J, global y over the row blocks I of every matrix in turn. On the
 * CPU a work-item moves one VW x VW block through registers; on the GPU a work-group moves one TILE x TILE
 * tile through local memory, reading and writing rows.
 */
#define TP_ROWS 0
#define TP_COLS 1
#define TP_IN_ROW_STRIDE 2
#define TP_OUT_ROW_STRIDE 3

#if VW > 1
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void fftx_transpose_tiled(TRANSPOSE_ARGS) {
    CALLBACK_BASES();
    IN_OFFSET();
    OUT_OFFSET();
    const IDX rows = (IDX)TP(TP_ROWS), cols = (IDX)TP(TP_COLS);
    const IDX irs = (IDX)TP(TP_IN_ROW_STRIDE), ics = (IDX)params[P_IN_STRIDE];
    const IDX ors = (IDX)TP(TP_OUT_ROW_STRIDE), ocs = (IDX)params[P_OUT_STRIDE];
    const IDX row_blocks = (rows + VW - 1) / VW;
    const IDX J = get_global_id(0), I = get_global_id(1) % row_blocks, t = get_global_id(1) / row_blocks;
    if (J * VW >= cols || t >= (IDX)params[P_BATCH])
        return;
    const REAL scale_im = scale * conj_in * conj_out;
    IDX coord[NBATCH > 0 ? NBATCH : 1], ib, ob;
    transform_position(params, t, coord, &ib, &ob);
    const IDX src = ib + I * VW * irs + J * VW * ics, dst = ob + J * VW * ors + I * VW * ocs;
    if ((I + 1) * VW <= rows && (J + 1) * VW <= cols) {
        V xr[VW], xi[VW];
        UNROLL for (int r = 0; r < VW; r++) LOAD_ROW(src + (IDX)r * irs, ics, xr[r], xi[r]);
        TRANSPOSE(xr);
        TRANSPOSE(xi);
        UNROLL for (int c = 0; c < VW; c++) STORE_ROW(dst + (IDX)c * ors, ocs, xr[c] * scale, xi[c] * scale_im);
        return;
    }
    for (int r = 0; r < VW; r++) {
        for (int c = 0; c < VW; c++) {
            if (I * VW + r < rows && J * VW + c < cols)
                MOVE(src + (IDX)r * irs + (IDX)c * ics, dst + (IDX)c * ors + (IDX)r * ocs);
        }
    }
}
#else
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1))) void fftx_transpose_tiled(TRANSPOSE_ARGS) {
    CALLBACK_BASES();
    IN_OFFSET();
    OUT_OFFSET();
    const IDX rows = (IDX)TP(TP_ROWS), cols = (IDX)TP(TP_COLS);
    const IDX irs = (IDX)TP(TP_IN_ROW_STRIDE), ics = (IDX)params[P_IN_STRIDE];
    const IDX ors = (IDX)TP(TP_OUT_ROW_STRIDE), ocs = (IDX)params[P_OUT_STRIDE];
    const IDX row_tiles = (rows + TILE - 1) / TILE;
    const IDX J = get_group_id(0), I = get_group_id(1) % row_tiles, t = get_group_id(1) / row_tiles;
    const int lx = get_local_id(0), ly = get_local_id(1);
    if (t >= (IDX)params[P_BATCH])
        return;
    const REAL scale_im = scale * conj_in * conj_out;
    IDX coord[NBATCH > 0 ? NBATCH : 1], ib, ob;
    transform_position(params, t, coord, &ib, &ob);
    __local REAL tre[TILE][TILE + 1], tim[TILE][TILE + 1];
    const IDX i = I * TILE + ly, j = J * TILE + lx;
    if (i < rows && j < cols)
        IN_AT(ib + i * irs + j * ics, tre[ly][lx], tim[ly][lx]);
    barrier(CLK_LOCAL_MEM_FENCE);
    /* Output row J * TILE + ly holds input column J * TILE + ly: element lx of it is tile[lx][ly]. */
    const IDX oj = J * TILE + ly, oi = I * TILE + lx;
    if (oj < cols && oi < rows)
        OUT_AT(ob + oj * ors + oi * ocs, tre[lx][ly] * scale, tim[lx][ly] * scale_im);
}
#endif
