/* fftx_callback: a user's clFFT callback (clfftSetPlanCallback) in a pass of its own, one work-item per element
 * of one side of the transform. The user's code comes first in the program; CALLBACK names its function.
 *
 * Host defines:
 *   PRE           1: the pre-callback. Each input element is CALLBACK(src, offset, userdata) and is stored at the
 *                 same offset of dst, which the transform then reads.
 *                 0: the post-callback. CALLBACK(dst, offset, userdata, value) receives each element the
 *                 transform wrote to src, and stores what it likes into dst, the user's output.
 *   ELEMENT       ELEMENT_REAL, ELEMENT_INTERLEAVED or ELEMENT_PLANAR: the user's data on that side (planar
 *                 callbacks take both planes, and a post-callback the two parts as separate values)
 *   LOCAL_MEM     1: the callback's last argument is a __local buffer of the size the user asked for
 *   NDIM          dimensions of the side, fastest first, the batch last; params holds (count, stride) for each
 *
 * The offset is that of the element from the start of the user's buffer, in elements, as clFFT passes it.
 * Global x runs along dimension 0 and global y over the others, so that the divisions splitting y into
 * coordinates are the same for a whole work-group (local size 1 along y) rather than paid per element.
 */
#define ELEMENT_REAL 0
#define ELEMENT_INTERLEAVED 1
#define ELEMENT_PLANAR 2

typedef CAT(RNAME, 2) REAL2;

#if LOCAL_MEM
#define LOCAL_PARAM , __local void *localmem
#define LOCAL_ARG , localmem
#else
#define LOCAL_PARAM
#define LOCAL_ARG
#endif

__kernel void fftx_callback(__global REAL *src_re, __global REAL *src_im, __global REAL *dst_re,
                            __global REAL *dst_im, __global void *userdata, __global const ulong *params,
                            const ulong count LOCAL_PARAM) {
    const ulong x = get_global_id(0);
    if (x >= count)
        return;
    ulong rest = get_global_id(1);
    IDX offset = 0;
    UNROLL for (int d = 1; d < NDIM; d++) {
        offset += (IDX)(rest % params[2 * d] * params[2 * d + 1]);
        rest /= params[2 * d];
    }
    offset += (IDX)(x * params[1]);
#if PRE && ELEMENT == ELEMENT_REAL
    dst_re[offset] = CALLBACK(src_re, offset, userdata LOCAL_ARG);
#elif PRE && ELEMENT == ELEMENT_INTERLEAVED
    ((__global REAL2 *)dst_re)[offset] = CALLBACK(src_re, offset, userdata LOCAL_ARG);
#elif PRE
    const REAL2 value = CALLBACK(src_re, src_im, offset, userdata LOCAL_ARG);
    dst_re[offset] = value.x;
    dst_im[offset] = value.y;
#elif ELEMENT == ELEMENT_REAL
    CALLBACK(dst_re, offset, userdata, src_re[offset] LOCAL_ARG);
#elif ELEMENT == ELEMENT_INTERLEAVED
    CALLBACK(dst_re, offset, userdata, ((__global REAL2 *)src_re)[offset] LOCAL_ARG);
#else
    CALLBACK(dst_re, dst_im, offset, userdata, src_re[offset], src_im[offset] LOCAL_ARG);
#endif
}
