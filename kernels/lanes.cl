/* Register-level helpers for VW-lane vectors.
 * TRANSPOSE(a): a VW x VW transpose of the array of vectors a (recursive block swaps), so that VW rows
 * loaded from VW transforms become VW vectors that each hold one element of all VW transforms.
 * EVEN/ODD split interleaved (re, im) pairs; INTERLEAVE_LO/HI join them again. REVERSE(a) reverses the lanes.
 * MIRROR_MASK (VW = 8, 16): lane 0 of the first vector, then the second one's lanes from the last down to 1.
 * SHIFT_PAIRS(a, b, r, out) (VW = 8, 16): complex values r .. r + HALF_VW - 1 of a then b, interleaved
 *   (re, im) pairs, for a shift r known only at run time (0 < r < HALF_VW; a otherwise). LANE_INDEX: 0, 1, ...
 * MASK_ELEM (uint or ulong, the width of REAL) comes from common.cl.
 *
 * SHUFFLE2(a, b, (i, j, ...)) and SHUFFLE1(a, (i, ...)) take constant lane lists: clang's
 * __builtin_shufflevector where the compiler has it, OpenCL's shuffle2 with a mask vector elsewhere. PoCL
 * compiled shuffle2 to blends and per-lane inserts: the 64-point single kernel had 4495 instructions
 * against 2428 with the builtin, and a 2^22-point batch of it took 2.1-2.2 ms against 1.2-1.3. The build
 * option -DOPENCL_SHUFFLES takes the shuffle2 path anyway, so that tests reach it on PoCL.
 */
#define LANE_LIST(...) __VA_ARGS__
#if defined(__has_builtin) && !defined(OPENCL_SHUFFLES)
#if __has_builtin(__builtin_shufflevector)
#define SHUFFLE2(a, b, lanes) __builtin_shufflevector(a, b, LANE_LIST lanes)
#define SHUFFLE1(a, lanes) __builtin_shufflevector(a, a, LANE_LIST lanes)
#endif
#endif
#ifndef SHUFFLE2
#define SHUFFLE2(a, b, lanes) shuffle2(a, b, (MASK) lanes)
#define SHUFFLE1(a, lanes) shuffle(a, (MASK) lanes)
#endif

#define BLOCK_SWAP(a, h, m_lo, m_hi) \
    UNROLL for (int i_ = 0; i_ < VW; i_++) { \
        if (!(i_ & (h))) { \
            V x_ = a[i_], y_ = a[i_ + (h)]; \
            a[i_] = SHUFFLE2(x_, y_, m_lo); \
            a[i_ + (h)] = SHUFFLE2(x_, y_, m_hi); \
        } \
    }

#if VW == 2
#define MASK CAT(MASK_ELEM, 2)
#define TRANSPOSE(a) \
    do { \
        BLOCK_SWAP(a, 1, (0, 2), (1, 3)) \
    } while (0)
#define EVEN(a, b) SHUFFLE2(a, b, (0, 2))
#define ODD(a, b) SHUFFLE2(a, b, (1, 3))
#define INTERLEAVE_LO(a, b) SHUFFLE2(a, b, (0, 2))
#define INTERLEAVE_HI(a, b) SHUFFLE2(a, b, (1, 3))
#define REVERSE(a) SHUFFLE1(a, (1, 0))
#endif

#if VW == 4
#define MASK CAT(MASK_ELEM, 4)
#define TRANSPOSE(a) \
    do { \
        BLOCK_SWAP(a, 1, (0, 4, 2, 6), (1, 5, 3, 7)) \
        BLOCK_SWAP(a, 2, (0, 1, 4, 5), (2, 3, 6, 7)) \
    } while (0)
#define EVEN(a, b) SHUFFLE2(a, b, (0, 2, 4, 6))
#define ODD(a, b) SHUFFLE2(a, b, (1, 3, 5, 7))
#define INTERLEAVE_LO(a, b) SHUFFLE2(a, b, (0, 4, 1, 5))
#define INTERLEAVE_HI(a, b) SHUFFLE2(a, b, (2, 6, 3, 7))
#define REVERSE(a) SHUFFLE1(a, (3, 2, 1, 0))
#endif

#if VW == 8
#define MASK CAT(MASK_ELEM, 8)
#define TRANSPOSE(a) \
    do { \
        BLOCK_SWAP(a, 1, (0, 8, 2, 10, 4, 12, 6, 14), (1, 9, 3, 11, 5, 13, 7, 15)) \
        BLOCK_SWAP(a, 2, (0, 1, 8, 9, 4, 5, 12, 13), (2, 3, 10, 11, 6, 7, 14, 15)) \
        BLOCK_SWAP(a, 4, (0, 1, 2, 3, 8, 9, 10, 11), (4, 5, 6, 7, 12, 13, 14, 15)) \
    } while (0)
#define EVEN(a, b) SHUFFLE2(a, b, (0, 2, 4, 6, 8, 10, 12, 14))
#define ODD(a, b) SHUFFLE2(a, b, (1, 3, 5, 7, 9, 11, 13, 15))
#define INTERLEAVE_LO(a, b) SHUFFLE2(a, b, (0, 8, 1, 9, 2, 10, 3, 11))
#define INTERLEAVE_HI(a, b) SHUFFLE2(a, b, (4, 12, 5, 13, 6, 14, 7, 15))
#define REVERSE(a) SHUFFLE1(a, (7, 6, 5, 4, 3, 2, 1, 0))
#define MIRROR_MASK (0, 15, 14, 13, 12, 11, 10, 9)
#define HALF_VW 4
#define LANE_INDEX ((MASK)(0, 1, 2, 3, 4, 5, 6, 7))
#define SHIFT_PAIRS(a, b, r, out) \
    do { \
        switch (r) { \
        case 1: \
            (out) = SHUFFLE2(a, b, (2, 3, 4, 5, 6, 7, 8, 9)); \
            break; \
        case 2: \
            (out) = SHUFFLE2(a, b, (4, 5, 6, 7, 8, 9, 10, 11)); \
            break; \
        case 3: \
            (out) = SHUFFLE2(a, b, (6, 7, 8, 9, 10, 11, 12, 13)); \
            break; \
        default: \
            (out) = (a); \
        } \
    } while (0)
#endif

#if VW == 16
#define MASK CAT(MASK_ELEM, 16)
#define TRANSPOSE(a) \
    do { \
        BLOCK_SWAP(a, 1, (0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30), (1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31)) \
        BLOCK_SWAP(a, 2, (0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29), (2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31)) \
        BLOCK_SWAP(a, 4, (0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27), (4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31)) \
        BLOCK_SWAP(a, 8, (0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23), (8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31)) \
    } while (0)
#define EVEN(a, b) SHUFFLE2(a, b, (0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30))
#define ODD(a, b) SHUFFLE2(a, b, (1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31))
#define INTERLEAVE_LO(a, b) SHUFFLE2(a, b, (0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23))
#define INTERLEAVE_HI(a, b) SHUFFLE2(a, b, (8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31))
#define REVERSE(a) SHUFFLE1(a, (15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0))
#define MIRROR_MASK (0, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17)
#define HALF_VW 8
#define LANE_INDEX ((MASK)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
#define SHIFT_PAIRS(a, b, r, out) \
    do { \
        switch (r) { \
        case 1: \
            (out) = SHUFFLE2(a, b, (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17)); \
            break; \
        case 2: \
            (out) = SHUFFLE2(a, b, (4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19)); \
            break; \
        case 3: \
            (out) = SHUFFLE2(a, b, (6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21)); \
            break; \
        case 4: \
            (out) = SHUFFLE2(a, b, (8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23)); \
            break; \
        case 5: \
            (out) = SHUFFLE2(a, b, (10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25)); \
            break; \
        case 6: \
            (out) = SHUFFLE2(a, b, (12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27)); \
            break; \
        case 7: \
            (out) = SHUFFLE2(a, b, (14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29)); \
            break; \
        default: \
            (out) = (a); \
        } \
    } while (0)
#endif
