/* fftx_transpose_cycles: in place, moves blocks of TP_BLOCK elements along cycles given by the host. The
 * data of block m_q moves to block m_(q+1), and that of the last member of a cycle to its first. Block b
 * starts at b * TP_BLOCK_STRIDE from the base of its matrix, its elements P_IN_STRIDE apart.
 *
 * The table (TP_CYCLES entries from TP_TABLE): cycle c has the members table[TP_CYCLES + 1 + q] for
 * table[c] <= q < table[c + 1]. Every block belongs to one cycle; a block that stays put is a cycle of one,
 * so that the scale still reaches it.
 *
 * Global x runs over slices of the block (VW elements each), global y over the cycles of every matrix in
 * turn. A work-item walks its whole cycle carrying its slice of the last block in registers: the slices
 * are independent, so no local memory or barrier is needed, and a block larger than local memory is no
 * different from a small one. GROUP_X work-items of a cycle share a work-group.
 */
#define TP_BLOCK 0
#define TP_BLOCK_STRIDE 1
#define TP_CYCLES 2
#define TP_TABLE 3

__kernel __attribute__((reqd_work_group_size(GROUP_X, 1, 1))) void fftx_transpose_cycles(TRANSPOSE_ARGS) {
    CALLBACK_BASES();
    IN_OFFSET();
    OUT_OFFSET();
    const IDX block = (IDX)TP(TP_BLOCK), bs = (IDX)TP(TP_BLOCK_STRIDE), es = (IDX)params[P_IN_STRIDE];
    const ulong cycles = TP(TP_CYCLES);
    const IDX e0 = (IDX)get_global_id(0) * VW;
    const ulong c = get_global_id(1) % cycles;
    const IDX t = get_global_id(1) / cycles;
    if (e0 >= block || t >= (IDX)params[P_BATCH])
        return;
    const REAL scale_im = scale * conj_in * conj_out;
    IDX coord[NBATCH > 0 ? NBATCH : 1], base, unused;
    transform_position(params, t, coord, &base, &unused);
    __global const ulong *table = params + TP_BASE + TP_TABLE;
    __global const ulong *members = table + cycles + 1;
    const ulong first = table[c], last = table[c + 1] - 1;
#define AT(q) (base + (IDX)members[q] * bs + e0 * es)
#if VW > 1
    if (e0 + VW <= block) {
        V kept_re, kept_im;
        LOAD_ROW(AT(last), es, kept_re, kept_im);
        for (ulong q = last; q > first; q--) {
            V re, im;
            LOAD_ROW(AT(q - 1), es, re, im);
            STORE_ROW(AT(q), es, re * scale, im * scale_im);
        }
        STORE_ROW(AT(first), es, kept_re * scale, kept_im * scale_im);
        return;
    }
#endif
    for (IDX e = 0; e < VW && e0 + e < block; e++) {
        REAL kept_re, kept_im;
        IN_AT(AT(last) + e * es, kept_re, kept_im);
        for (ulong q = last; q > first; q--)
            MOVE(AT(q - 1) + e * es, AT(q) + e * es);
        OUT_AT(AT(first) + e * es, kept_re * scale, kept_im * scale_im);
    }
#undef AT
}
