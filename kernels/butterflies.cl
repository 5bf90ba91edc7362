/* Hand-written forward DFT butterflies on VW-lane vectors: y_m = sum_j x_j exp(-2 pi i j m / R).
 * Backward transforms run as conj(FFT(conj(x))), so only the forward kernels exist.
 * Each takes the real and imaginary parts as arrays of R vectors and transforms them in place.
 * Constants are correctly rounded doubles, narrowed by K() for single precision.
 */

__constant REAL COS3[3] = {K(1.0), K(-0.5), K(-0.5)};
__constant REAL SIN3[3] = {K(0.0), K(0.8660254037844386), K(-0.8660254037844386)};
__constant REAL COS5[5] = {K(1.0), K(0.30901699437494745), K(-0.8090169943749475), K(-0.8090169943749475),
                           K(0.30901699437494745)};
__constant REAL SIN5[5] = {K(0.0), K(0.9510565162951535), K(0.5877852522924731), K(-0.5877852522924731),
                           K(-0.9510565162951535)};
__constant REAL COS7[7] = {K(1.0), K(0.6234898018587335), K(-0.2225209339563144), K(-0.9009688679024191),
                           K(-0.9009688679024191), K(-0.2225209339563144), K(0.6234898018587335)};
__constant REAL SIN7[7] = {K(0.0), K(0.7818314824680298), K(0.9749279121818236), K(0.4338837391175581),
                           K(-0.4338837391175581), K(-0.9749279121818236), K(-0.7818314824680298)};
__constant REAL COS11[11] = {K(1.0), K(0.8412535328311812), K(0.41541501300188644), K(-0.14231483827328514),
                             K(-0.6548607339452851), K(-0.9594929736144974), K(-0.9594929736144974),
                             K(-0.6548607339452851), K(-0.14231483827328514), K(0.41541501300188644),
                             K(0.8412535328311812)};
__constant REAL SIN11[11] = {K(0.0), K(0.5406408174555976), K(0.9096319953545183), K(0.9898214418809327),
                             K(0.7557495743542583), K(0.28173255684142967), K(-0.28173255684142967),
                             K(-0.7557495743542583), K(-0.9898214418809327), K(-0.9096319953545183),
                             K(-0.5406408174555976)};
__constant REAL COS13[13] = {K(1.0), K(0.8854560256532099), K(0.5680647467311558), K(0.12053668025532305),
                             K(-0.3546048870425356), K(-0.7485107481711011), K(-0.970941817426052),
                             K(-0.970941817426052), K(-0.7485107481711011), K(-0.3546048870425356),
                             K(0.12053668025532305), K(0.5680647467311558), K(0.8854560256532099)};
__constant REAL SIN13[13] = {K(0.0), K(0.46472317204376856), K(0.8229838658936564), K(0.992708874098054),
                             K(0.9350162426854148), K(0.6631226582407952), K(0.23931566428755777),
                             K(-0.23931566428755777), K(-0.6631226582407952), K(-0.9350162426854148),
                             K(-0.992708874098054), K(-0.8229838658936564), K(-0.46472317204376856)};
/* exp(-2 pi i e / R) = COSR[e] - i SINR[e] for the exponents the square splits of radix R use. */
__constant REAL COS9[5] = {K(1.0), K(0.766044443118978), K(0.17364817766693036), K(-0.5), K(-0.9396926207859084)};
__constant REAL SIN9[5] = {K(0.0), K(0.6427876096865394), K(0.984807753012208), K(0.8660254037844386),
                           K(0.3420201433256687)};
__constant REAL COS16[10] = {K(1.0), K(0.9238795325112867), K(0.7071067811865476), K(0.3826834323650898),
                             K(0.0), K(-0.3826834323650898), K(-0.7071067811865476), K(-0.9238795325112867),
                             K(-1.0), K(-0.9238795325112867)};
__constant REAL SIN16[10] = {K(0.0), K(0.3826834323650898), K(0.7071067811865476), K(0.9238795325112867),
                             K(1.0), K(0.9238795325112867), K(0.7071067811865476), K(0.3826834323650898),
                             K(0.0), K(-0.3826834323650898)};
/* exp(-2 pi i e / 20) for e up to 12, the exponents of radix 20 = 4 x 5. */
__constant REAL COS20[13] = {K(1.0), K(0.9510565162951535), K(0.8090169943749475), K(0.5877852522924731),
                             K(0.30901699437494745), K(0.0), K(-0.30901699437494745), K(-0.5877852522924731),
                             K(-0.8090169943749475), K(-0.9510565162951535), K(-1.0), K(-0.9510565162951535),
                             K(-0.8090169943749475)};
__constant REAL SIN20[13] = {K(0.0), K(0.30901699437494745), K(0.5877852522924731), K(0.8090169943749475),
                             K(0.9510565162951535), K(1.0), K(0.9510565162951535), K(0.8090169943749475),
                             K(0.5877852522924731), K(0.30901699437494745), K(0.0), K(-0.30901699437494745),
                             K(-0.5877852522924731)};
#define SQRT1_2 K(0.7071067811865476)

AI void fft2(V *r, V *i) {
    V tr = r[0], ti = i[0];
    r[0] = tr + r[1];
    i[0] = ti + i[1];
    r[1] = tr - r[1];
    i[1] = ti - i[1];
}

/* Radix 4 needs no multiplies: the odd difference is rotated by -i. */
AI void fft4(V *r, V *i) {
    V s0r = r[0] + r[2], s0i = i[0] + i[2], d0r = r[0] - r[2], d0i = i[0] - i[2];
    V s1r = r[1] + r[3], s1i = i[1] + i[3], d1r = r[1] - r[3], d1i = i[1] - i[3];
    r[0] = s0r + s1r;
    i[0] = s0i + s1i;
    r[2] = s0r - s1r;
    i[2] = s0i - s1i;
    r[1] = d0r + d1i;
    i[1] = d0i - d1r;
    r[3] = d0r - d1i;
    i[3] = d0i + d1r;
}

/* Radix 8 as two radix-4 halves (even and odd samples) joined by w8^k. */
AI void fft8(V *r, V *i) {
    V ar[4] = {r[0], r[2], r[4], r[6]}, ai[4] = {i[0], i[2], i[4], i[6]};
    V br[4] = {r[1], r[3], r[5], r[7]}, bi[4] = {i[1], i[3], i[5], i[7]};
    fft4(ar, ai);
    fft4(br, bi);
    V t;
    t = (br[1] + bi[1]) * SQRT1_2; /* * (1 - i)/sqrt2 */
    bi[1] = (bi[1] - br[1]) * SQRT1_2;
    br[1] = t;
    t = bi[2]; /* * -i */
    bi[2] = -br[2];
    br[2] = t;
    t = (bi[3] - br[3]) * SQRT1_2; /* * (-1 - i)/sqrt2 */
    bi[3] = -(br[3] + bi[3]) * SQRT1_2;
    br[3] = t;
    UNROLL for (int k = 0; k < 4; k++) {
        r[k] = ar[k] + br[k];
        i[k] = ai[k] + bi[k];
        r[k + 4] = ar[k] - br[k];
        i[k + 4] = ai[k] - bi[k];
    }
}

/* Radix R = A x B: radix-A columns, twiddles w_R^(j*k), radix-B rows. Output y[k1 + A*k2]. One pass of
 * radix 9 or 20 replaces two passes of 3 or of 4 and 5 over local memory. */
#define PRODUCT_BUTTERFLY(R, A, B)                                                                  \
    AI void fft##R(V *r, V *i) {                                                                    \
        V cr[B][A], ci[B][A];                                                                       \
        UNROLL for (int j = 0; j < B; j++) {                                                        \
            UNROLL for (int q = 0; q < A; q++) {                                                    \
                cr[j][q] = r[B * q + j];                                                            \
                ci[j][q] = i[B * q + j];                                                            \
            }                                                                                       \
            fft##A(cr[j], ci[j]);                                                                   \
        }                                                                                           \
        UNROLL for (int j = 1; j < B; j++) {                                                        \
            UNROLL for (int k = 1; k < A; k++) {                                                    \
                REAL wr = COS##R[j * k], wi = -SIN##R[j * k];                                       \
                CMUL(cr[j][k], ci[j][k], cr[j][k], ci[j][k], wr, wi);                               \
            }                                                                                       \
        }                                                                                           \
        UNROLL for (int k = 0; k < A; k++) {                                                        \
            V xr[B], xi[B];                                                                         \
            UNROLL for (int j = 0; j < B; j++) {                                                    \
                xr[j] = cr[j][k];                                                                   \
                xi[j] = ci[j][k];                                                                   \
            }                                                                                       \
            fft##B(xr, xi);                                                                         \
            UNROLL for (int m = 0; m < B; m++) {                                                    \
                r[A * m + k] = xr[m];                                                               \
                i[A * m + k] = xi[m];                                                               \
            }                                                                                       \
        }                                                                                           \
    }

PRODUCT_BUTTERFLY(16, 4, 4)

/* Odd prime radix R from the symmetric pairs a_j = x_j + x_{R-j}, b_j = x_j - x_{R-j} (j = 1..H, H = (R-1)/2):
 * y_m = x_0 + sum_j cos(2 pi jm/R) a_j - i sum_j sin(2 pi jm/R) b_j, and y_{R-m} with the sine sign flipped.
 * The cosines of each m sum to exactly -1/2, so the real-part sum is rewritten as
 * (x_0 - a_1/2) + sum_{j>1} cos(2 pi jm/R) (a_j - a_1): a constant input then gives exact zeros (as clFFT's
 * clients check) instead of rounding residue, with no division. */
#define PRIME_BUTTERFLY(R)                                                                          \
    AI void fft##R(V *r, V *i) {                                                                    \
        const int H = (R - 1) / 2;                                                                  \
        V ar[(R - 1) / 2], ai[(R - 1) / 2], br[(R - 1) / 2], bi[(R - 1) / 2];                       \
        V sr = (V)(0), si = (V)(0);                                                                 \
        UNROLL for (int j = 1; j <= H; j++) {                                                       \
            ar[j - 1] = r[j] + r[R - j];                                                            \
            ai[j - 1] = i[j] + i[R - j];                                                            \
            br[j - 1] = r[j] - r[R - j];                                                            \
            bi[j - 1] = i[j] - i[R - j];                                                            \
            sr += ar[j - 1];                                                                        \
            si += ai[j - 1];                                                                        \
        }                                                                                           \
        const V r0 = r[0] - K(0.5) * ar[0], i0 = i[0] - K(0.5) * ai[0];                            \
        UNROLL for (int j = H - 1; j > 0; j--) {                                                    \
            ar[j] -= ar[0];                                                                         \
            ai[j] -= ai[0];                                                                         \
        }                                                                                           \
        V yr[R], yi[R];                                                                             \
        UNROLL for (int m = 1; m <= H; m++) {                                                       \
            V cr = r0, ci = i0, dr = (V)(0), di = (V)(0);                                           \
            UNROLL for (int j = 1; j <= H; j++) {                                                   \
                REAL c = COS##R[(j * m) % R], s = SIN##R[(j * m) % R];                              \
                if (j > 1) {                                                                        \
                    cr += c * ar[j - 1];                                                            \
                    ci += c * ai[j - 1];                                                            \
                }                                                                                   \
                dr += s * br[j - 1];                                                                \
                di += s * bi[j - 1];                                                                \
            }                                                                                       \
            yr[m] = cr + di;                                                                        \
            yi[m] = ci - dr;                                                                        \
            yr[R - m] = cr - di;                                                                    \
            yi[R - m] = ci + dr;                                                                    \
        }                                                                                           \
        r[0] += sr;                                                                                 \
        i[0] += si;                                                                                 \
        UNROLL for (int m = 1; m < R; m++) {                                                        \
            r[m] = yr[m];                                                                           \
            i[m] = yi[m];                                                                           \
        }                                                                                           \
    }

PRIME_BUTTERFLY(3)
PRIME_BUTTERFLY(5)
PRIME_BUTTERFLY(7)
PRIME_BUTTERFLY(11)
PRIME_BUTTERFLY(13)
PRODUCT_BUTTERFLY(9, 3, 3)
PRODUCT_BUTTERFLY(20, 4, 5)
