/* Real transforms through a half-length complex FFT (docs/algorithms.md, "Real transforms").
 *
 * A real sequence x of even length 2H is seen as H complex values z_n = x_2n + i x_2n+1, Z = FFT_H(z).
 * Both directions use one combination of a value a_k and its mirror b = a_{H-k} (indices mod H):
 *   C(a, b)_k = s (F - i T),   F = a_k + conj(b),   T = w_2H^k (a_k - conj(b)).
 * R2C: X_k = C(Z, Z)_k with s = 1/2, for k = 0..H.
 * C2R: backward transforms run as conj(FFT(conj(.))), so the data reaching the pre-process is conj(X).
 *      With s = 1, C(conj X, conj X)_k = conj(Z'_k) where Z'_k = F' + i conj(w_2H^k) G' (F', G' as F, T's
 *      bracket on X) is the spectrum whose unnormalised inverse H-point FFT holds x_2n + i x_2n+1; the
 *      forward passes and the final conjugation do the rest. The imaginary parts of X_0 and X_H are
 *      redundant for Hermitian data and are ignored.
 * The roots w_2H^k (k = 0..H) sit in the twiddle table at RT_OFF: directly, or with RT_SHIFT defined as a
 * two-level table (low entries w_2H^l for l < 2^RT_SHIFT, then high ones w_2H^(h 2^RT_SHIFT)), which long
 * transforms use so that baking them computes and uploads O(sqrt H) roots instead of H.
 */
#ifdef RT_SHIFT
#define REAL_ROOT(k, wr, wi)                                                                        \
    SPLIT_ROOT(RT_OFF + ((k) & ((1 << RT_SHIFT) - 1)), RT_OFF + (1 << RT_SHIFT) + ((k) >> RT_SHIFT), wr, wi)
#else
#define REAL_ROOT(k, wr, wi) (wr = tw[2 * (RT_OFF + (k))], wi = tw[2 * (RT_OFF + (k)) + 1])
#endif

/* The VW roots w_2H^k .. w_2H^(k+VW-1) as lane vectors, k a multiple of VW (so that, split, they share one
 * high entry). */
#ifdef RT_SHIFT
#define REAL_ROOTS_V(k, wr, wi)                                                                     \
    do {                                                                                            \
        V lr_, li_;                                                                                 \
        SPLIT_PAIRS(tw + 2 * (RT_OFF + ((k) & ((1 << RT_SHIFT) - 1))), lr_, li_);                   \
        __global const REAL *hi_ = tw + 2 * (RT_OFF + (1 << RT_SHIFT) + ((k) >> RT_SHIFT));          \
        wr = lr_ * hi_[0] - li_ * hi_[1];                                                           \
        wi = lr_ * hi_[1] + li_ * hi_[0];                                                           \
    } while (0)
#else
#define REAL_ROOTS_V(k, wr, wi) SPLIT_PAIRS(tw + 2 * (RT_OFF + (k)), wr, wi)
#endif

/* F and T (fr_, fi_, tr_, ti_) from a = (ar, ai), its mirror b = (br, bi) and the root w = (wr, wi); scalars
 * or lane vectors alike (an rvalue's type, free of address-space qualifiers). */
#define HERMITIAN_F_T(ar, ai, br, bi, wr, wi)                                                       \
    __typeof__((ar) + (br)) fr_ = (ar) + (br), fi_ = (ai) - (bi), gr_ = (ar) - (br);                \
    __typeof__(fr_) gi_ = (ai) + (bi), tr_ = (wr) * gr_ - (wi) * gi_, ti_ = (wr) * gi_ + (wi) * gr_

/* (xr, xi) = s (F - i T), each term scaled before the sum: with s = 1/2 the sum F + T may exceed the
 * largest float where the result does not (R2C's X_0 = Re Z_0 + Im Z_0 near FLT_MAX). */
#define HERMITIAN_COMBINE_W(ar, ai, br, bi, wr, wi, s, xr, xi)                                      \
    do {                                                                                            \
        HERMITIAN_F_T(ar, ai, br, bi, wr, wi);                                                      \
        (xr) = (s) * fr_ + (s) * ti_;                                                               \
        (xi) = (s) * fi_ - (s) * tr_;                                                               \
    } while (0)

/* X_k = s (F - i T) as above and, from the same pair, X_H-k = s conj(F + i T): as w_2H^(H-k) = -conj(w_2H^k),
 * the mirror's F and T are conj(F) and conj(T). One root and one product for two values. */
#define HERMITIAN_PAIR_W(ar, ai, br, bi, wr, wi, s, xr, xi, mr, mi)                                 \
    do {                                                                                            \
        HERMITIAN_F_T(ar, ai, br, bi, wr, wi);                                                      \
        (xr) = (s) * fr_ + (s) * ti_;                                                               \
        (xi) = (s) * fi_ - (s) * tr_;                                                               \
        (mr) = (s) * fr_ - (s) * ti_;                                                               \
        (mi) = -((s) * fi_ + (s) * tr_);                                                            \
    } while (0)

/* HERMITIAN_PAIR_W with the root w_2H^k from the table. */
#define HERMITIAN_PAIR(ar, ai, br, bi, k, s, xr, xi, mr, mi)                                        \
    do {                                                                                            \
        REAL wr_, wi_;                                                                              \
        REAL_ROOT(k, wr_, wi_);                                                                     \
        HERMITIAN_PAIR_W(ar, ai, br, bi, wr_, wi_, s, xr, xi, mr, mi);                              \
    } while (0)

/* HERMITIAN_COMBINE_W with the root w_2H^k from the table. */
#define HERMITIAN_COMBINE(ar, ai, br, bi, k, s, xr, xi)                                             \
    do {                                                                                            \
        REAL wr_, wi_;                                                                              \
        REAL_ROOT(k, wr_, wi_);                                                                     \
        HERMITIAN_COMBINE_W(ar, ai, br, bi, wr_, wi_, s, xr, xi);                                   \
    } while (0)
