/* Out-of-core passes over slabs of host data (docs/algorithms.md, "Out-of-core transforms").
 *
 * slab_twiddle: the four-step twiddle. A slab of the N1 x N2 column pass of an M-point complex transform,
 * held as N2 rows of WIDTH columns, is multiplied element by element: (k2, c) times w_M^((column0 + c) k2).
 *
 * slab_hermitian: the real transform's combination of a half-length spectrum's values with their mirrors
 * (kernels/real.cl has the algebra): R2C's post-process after the M-point FFT, C2R's pre-process before it.
 *
 * Host defines:
 *   FFTX_DOUBLE   double precision when defined, single otherwise
 *   N             the order of the tables' roots: M for a complex transform, 2 M for a real one
 *   M             the complex transform's length
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

/* w_N^e from the tables, which hold the forward roots; sign -1 conjugates it. */
static C2 root(__global const C2 *low, __global const C2 *high, ulong e, R sign)
{
    const C2 a = low[e % SPLIT];
    const C2 b = high[e / SPLIT];
    return (C2)(a.x * b.x - a.y * b.y, sign * (a.x * b.y + a.y * b.x));
}

__kernel void slab_twiddle(__global C2 *data, __global const C2 *low, __global const C2 *high, ulong column0,
                           uint width, R sign)
{
    const size_t c = get_global_id(0);
    const size_t k2 = get_global_id(1);
    if (c >= width)
        return;
    const C2 w = root(low, high, ((column0 + c) * (ulong)k2) % (ulong)M * (N / M), sign);
    const size_t i = k2 * width + c;
    const C2 v = data[i];
    data[i] = (C2)(v.x * w.x - v.y * w.y, v.x * w.y + v.y * w.x);
}

/* The pairs (k, M - k) for k = k0 .. k0 + count - 1: data holds a_k0.. (count values), then the mirrors
 * a_(M-k0-count+1) .. a_(M-k0), so that a_k's mirror lies at count + (count - 1 - j) for k = k0 + j. With
 * F = a_k + conj(a_M-k), T = w G (G = a_k - conj(a_M-k), w = w_N^k, conjugated by sign -1), a_k becomes
 * s (F - sign i T) and a_M-k becomes s conj(F + sign i T): sign 1, s 1/2 is R2C's post-process, sign -1, s 1
 * C2R's pre-process. */
__kernel void slab_hermitian(__global C2 *data, __global const C2 *low, __global const C2 *high, ulong k0,
                             uint count, R sign, R s)
{
    const size_t j = get_global_id(0);
    if (j >= count)
        return;
    const size_t mirror = 2 * (size_t)count - 1 - j;
    const C2 a = data[j];
    const C2 b = data[mirror];
    const C2 w = root(low, high, k0 + j, sign);
    const C2 f = (C2)(a.x + b.x, a.y - b.y);
    const C2 g = (C2)(a.x - b.x, a.y + b.y);
    const C2 t = (C2)(w.x * g.x - w.y * g.y, w.x * g.y + w.y * g.x);
    /* sign i T: (-sign t.y, sign t.x). */
    data[j] = (C2)(s * (f.x + sign * t.y), s * (f.y - sign * t.x));
    data[mirror] = (C2)(s * (f.x - sign * t.y), -s * (f.y + sign * t.x));
}
