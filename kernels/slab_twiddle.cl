/* Out-of-core four-step twiddle: a slab of the N1 x N2 column pass, held as N2 rows of WIDTH columns, is
 * multiplied element by element: (k2, c) times w_N^((column0 + c) k2).
 *
 * Host defines:
 *   FFTX_DOUBLE   double precision when defined, single otherwise
 *   N             the whole transform's length
 *   SPLIT         w_N^e = low[e % SPLIT] * high[e / SPLIT]: two small tables instead of one of N entries
 */
#ifdef FFTX_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double2 C2;
typedef double R;
#else
typedef float2 C2;
typedef float R;
#endif

__kernel void slab_twiddle(__global C2 *data, __global const C2 *low, __global const C2 *high, ulong column0,
                           uint width, R sign)
{
    const size_t c = get_global_id(0);
    const size_t k2 = get_global_id(1);
    if (c >= width)
        return;
    const ulong e = ((column0 + c) * (ulong)k2) % (ulong)N;
    const C2 a = low[e % SPLIT];
    const C2 b = high[e / SPLIT];
    /* The tables hold the forward roots; sign -1 conjugates them for the backward transform. */
    const C2 w = (C2)(a.x * b.x - a.y * b.y, sign * (a.x * b.y + a.y * b.x));
    const size_t i = k2 * width + c;
    const C2 v = data[i];
    data[i] = (C2)(v.x * w.x - v.y * w.y, v.x * w.y + v.y * w.x);
}
