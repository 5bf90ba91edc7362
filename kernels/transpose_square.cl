/* fftx_transpose_square: in place, element (i, j) of every m x m square trades places with (j, i).
 * Element (i, j) of a square sits at i * TP_ROW_STRIDE + j * P_IN_STRIDE from the square's base.
 *
 * The square is cut into blocks of B x B (B = VW on the CPU, TILE on the GPU); global x enumerates the
 * block pairs (I, J), I <= J, and global y the squares. Block (I, J) and block (J, I) are both read before
 * either is written, each is transposed, and each is stored at the other's place; a diagonal block is
 * transposed onto itself.
 */
#define TP_SIZE 0
#define TP_ROW_STRIDE 1

/* Block pair p = J (J + 1) / 2 + I, I <= J. */
AI void block_pair(ulong p, ulong *I, ulong *J) {
    ulong j = (ulong)((sqrt((float)(8 * p + 1)) - 1.0f) / 2.0f);
    while (j * (j + 1) / 2 > p)
        j--;
    while ((j + 1) * (j + 2) / 2 <= p)
        j++;
    *J = j;
    *I = p - j * (j + 1) / 2;
}

#if VW > 1
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void fftx_transpose_square(TRANSPOSE_ARGS) {
    CALLBACK_BASES();
    IN_OFFSET();
    OUT_OFFSET();
    const IDX m = (IDX)TP(TP_SIZE), rs = (IDX)TP(TP_ROW_STRIDE), cs = (IDX)params[P_IN_STRIDE];
    const ulong blocks = (m + VW - 1) / VW;
    const ulong p = get_global_id(0);
    const IDX t = get_global_id(1);
    if (p >= blocks * (blocks + 1) / 2 || t >= (IDX)params[P_BATCH])
        return;
    const REAL scale_im = scale * conj_in * conj_out;
    IDX coord[NBATCH > 0 ? NBATCH : 1], base, unused;
    transform_position(params, t, coord, &base, &unused);
    ulong I, J;
    block_pair(p, &I, &J);
    const IDX a0 = base + (IDX)(I * VW) * rs + (IDX)(J * VW) * cs;
    const IDX b0 = base + (IDX)(J * VW) * rs + (IDX)(I * VW) * cs;
    if ((J + 1) * VW <= m) {
        V ar[VW], ai[VW], br[VW], bi[VW];
        UNROLL for (int r = 0; r < VW; r++) {
            LOAD_ROW(a0 + (IDX)r * rs, cs, ar[r], ai[r]);
            LOAD_ROW(b0 + (IDX)r * rs, cs, br[r], bi[r]);
        }
        TRANSPOSE(ar);
        TRANSPOSE(ai);
        TRANSPOSE(br);
        TRANSPOSE(bi);
        UNROLL for (int r = 0; r < VW; r++) STORE_ROW(b0 + (IDX)r * rs, cs, ar[r] * scale, ai[r] * scale_im);
        if (I != J) {
            UNROLL for (int r = 0; r < VW; r++) STORE_ROW(a0 + (IDX)r * rs, cs, br[r] * scale, bi[r] * scale_im);
        }
        return;
    }
    /* A block at the edge of the square: element by element, each pair once, the diagonal scaled alone. */
    for (int r = 0; r < VW; r++) {
        for (int c = 0; c < VW; c++) {
            const IDX i = I * VW + r, j = J * VW + c;
            if (i >= m || j >= m || (I == J && c < r))
                continue;
            const IDX pa = base + i * rs + j * cs, pb = base + j * rs + i * cs;
            REAL xr, xi, yr, yi;
            IN_AT(pa, xr, xi);
            IN_AT(pb, yr, yi);
            OUT_AT(pb, xr * scale, xi * scale_im);
            if (pa != pb)
                OUT_AT(pa, yr * scale, yi * scale_im);
        }
    }
}
#else
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1))) void fftx_transpose_square(TRANSPOSE_ARGS) {
    CALLBACK_BASES();
    IN_OFFSET();
    OUT_OFFSET();
    const IDX m = (IDX)TP(TP_SIZE), rs = (IDX)TP(TP_ROW_STRIDE), cs = (IDX)params[P_IN_STRIDE];
    const ulong tiles = (m + TILE - 1) / TILE;
    const ulong p = get_group_id(0);
    const IDX t = get_group_id(1);
    const int lx = get_local_id(0), ly = get_local_id(1);
    /* Uniform across the work-group, so no barrier is skipped by part of it. */
    if (p >= tiles * (tiles + 1) / 2 || t >= (IDX)params[P_BATCH])
        return;
    const REAL scale_im = scale * conj_in * conj_out;
    IDX coord[NBATCH > 0 ? NBATCH : 1], base, unused;
    transform_position(params, t, coord, &base, &unused);
    ulong I, J;
    block_pair(p, &I, &J);
    __local REAL are[TILE][TILE + 1], aim[TILE][TILE + 1], bre[TILE][TILE + 1], bim[TILE][TILE + 1];
    /* Tile A = (I, J) and tile B = (J, I), row ly and column lx of each. */
    const IDX ai = I * TILE + ly, aj = J * TILE + lx, bi = J * TILE + ly, bj = I * TILE + lx;
    if (ai < m && aj < m)
        IN_AT(base + ai * rs + aj * cs, are[ly][lx], aim[ly][lx]);
    if (bi < m && bj < m)
        IN_AT(base + bi * rs + bj * cs, bre[ly][lx], bim[ly][lx]);
    barrier(CLK_LOCAL_MEM_FENCE);
    /* Row ly of B's place gets column ly of A, and the other way round. */
    if (bi < m && bj < m)
        OUT_AT(base + bi * rs + bj * cs, are[lx][ly] * scale, aim[lx][ly] * scale_im);
    if (I != J && ai < m && aj < m)
        OUT_AT(base + ai * rs + aj * cs, bre[lx][ly] * scale, bim[lx][ly] * scale_im);
}
#endif
