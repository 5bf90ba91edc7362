/* Bluestein's elementwise factors in the Stockham leaf (stockham.cl, LOAD_MUL, STORE_MUL, MID_MUL): table
 * entries that multiply each element as it loads, as it stores (conjugated), and between the two rounds of
 * passes of a whole convolution in one kernel.
 */
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

/* Each lane's first factor entry, and the largest of them (lf_ for the load, sf_ for the store), set up once
 * per slot. */
#if LOAD_MUL
#define LOAD_BASES_SETUP() IDX lf_base[VW], lf_top = 0
#define LOAD_BASES_LANE(l) (lf_base[l] = LOAD_BASE(coord), lf_top = max(lf_top, lf_base[l]))
#else
#define LOAD_BASES_SETUP()
#define LOAD_BASES_LANE(l)
#endif
#if STORE_MUL
#define STORE_BASES_SETUP() IDX sf_base[VW], sf_top = 0
#define STORE_BASES_LANE(l) (sf_base[l] = STORE_BASE(coord), sf_top = max(sf_top, sf_base[l]))
#else
#define STORE_BASES_SETUP()
#define STORE_BASES_LANE(l)
#endif
#define FACTOR_BASES_SETUP()                                                                        \
    LOAD_BASES_SETUP();                                                                             \
    STORE_BASES_SETUP()
#define FACTOR_BASES_LANE(l)                                                                        \
    LOAD_BASES_LANE(l);                                                                             \
    STORE_BASES_LANE(l)

/* Bluestein's whole convolution in one kernel (MID_MUL): before the second round of passes, element k of
 * their result (F) becomes conj(y_k) times table entry MID_OFF + k, into A. */
#if MID_MUL
#define MID_FACTOR(round)                                                                           \
    if ((round) == 1) {                                                                             \
        for (int k = lid; k < N; k += P) {                                                          \
            V xr = fre[LIX(k)], xi = -fim[LIX(k)];                                                  \
            __global const REAL *f_ = tw + 2 * (MID_OFF + k);                                       \
            CMUL(xr, xi, xr, xi, f_[0], f_[1]);                                                     \
            are[LIX(k)] = xr;                                                                       \
            aim[LIX(k)] = xi;                                                                       \
        }                                                                                           \
        SLOT_BARRIER();                                                                             \
    }
#else
#define MID_FACTOR(round)
#endif
