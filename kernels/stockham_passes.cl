/* The passes of the Stockham leaf (stockham.cl): one definition of a pass, which the pass sequence calls.
 *
 * The generator (src/codegen/stockham.rs) writes the sequence ahead of the kernel files, one line per pass
 * with its radix R, span L (the product of the radices so far) and twiddle table offset as literals:
 *   PASS_SEQUENCE()   the passes in order, each a PASS from one local buffer into the other (A -> B -> A ...),
 *                     or with IN_PLACE_PASSES each a PASS_IN_PLACE in A, from the last Stockham pass down
 *   DIF_DIGITS()      (IN_PLACE_PASSES) the DIF_DIGIT of each pass in the same order, for DIF_POSITION
 * Each pass calls the radix-R butterfly fft<R> of butterflies.cl.
 */

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

#if IN_PLACE_PASSES
#if P != 1 || MID_MUL || LANES_DFT_IN || defined(PLANE_N0) || defined(ROWS_IN_REGISTERS)
#error "in-place passes take one work-item per slot and no second round of passes, DFT across the lanes on the load, plane or registers"
#endif
#if REAL_STAGE != STAGE_NONE && REAL_STAGE != STAGE_TWIN_SPLIT && REAL_STAGE != STAGE_TWIN_MERGE &&                 \
    REAL_STAGE != STAGE_C2R_PRE && REAL_STAGE != STAGE_R2C_POST && REAL_STAGE != STAGE_C2R_PRE_PAIRS &&               \
    REAL_STAGE != STAGE_TWIN_MERGE_LANES
#error "in-place passes take no real stage but a twin split or merge, or a real pre- or post-process"
#endif
#if LANES_DFT_OUT && REAL_STAGE != STAGE_NONE && REAL_STAGE != STAGE_TWIN_MERGE_LANES
#error "in-place passes take a DFT across the lanes on the store only for a complex transform or after a twin merge"
#endif
#if LOCAL_BUFFERS == 1 && (PACKED_ROWS || REAL_STAGE == STAGE_C2R_PRE)
#error "packed rows gather in a second buffer, and the C2R pre-process loads into one"
#endif
#if REAL_STAGE == STAGE_TWIN_MERGE && N % 2 == 0
#error "an in-place twin merge loads Y_n at N - n, which only an odd N keeps clear of the X_n it loads"
#endif
/* One in-place decimation-in-frequency pass over blocks of L: y[b*L + m*L/R + k] = w_L^(mk) sum_j w_R^(jm)
 * x[b*L + j*L/R + k], each butterfly writing where it read. The Stockham passes' twiddles, w_L^(jk), serve
 * as they are; run from the last Stockham pass (L = N) down to the first, the passes leave X_k at
 * DIF_POSITION(k). */
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

/* The digit of X_k's position that the pass of radix R over spans L gives: the first in-place pass (L = N)
 * takes the lowest digit of k and writes it at the largest stride, N / R. DIF_DIGITS applies them in the
 * order the passes ran. */
#define DIF_DIGIT(R, L) (pos_ += (k_ % (R)) * ((L) / (R)), k_ /= (R))
AI int dif_position(uint k_) {
    uint pos_ = 0;
    DIF_DIGITS();
    return pos_;
}
#define DIF_POSITION(k) dif_position(k)
#else
#define DIF_POSITION(k) (k)
#endif
