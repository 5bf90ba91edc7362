"""numpy.fft-compatible transforms over libfftx's cuFFT-style API.

Every transform gathers the transformed axes at the end of a contiguous array it owns (one copy, which also
converts the dtype), runs a batched plan of rank 1 to 3 on that host memory, and moves the axes back. Single
precision input (float32, complex64, float16) stays single precision; everything else runs in double.
"""

import ctypes
import math
import operator
import threading
from collections import OrderedDict

import numpy as np

from ._library import check, library

try:
    from numpy.lib.array_utils import normalize_axis_index
except ImportError:  # numpy < 2
    from numpy.core.multiarray import normalize_axis_index

# fftxType values, as in fftx.h.
_C2C, _Z2Z, _R2C, _D2Z, _C2R, _Z2D = 0x29, 0x69, 0x2A, 0x6A, 0x2C, 0x6C
_FORWARD, _INVERSE = -1, 1
_EXEC = {_C2C: "fftxExecC2C", _Z2Z: "fftxExecZ2Z", _R2C: "fftxExecR2C", _D2Z: "fftxExecD2Z",
         _C2R: "fftxExecC2R", _Z2D: "fftxExecZ2D"}


class _PlanCache:
    """Plans by (type, sizes, batch), least recently used dropped first; a plan in use is never dropped. A plan
    keeps device buffers about the size of its data, so the cache holds at most `capacity` plans and, beyond
    the plan in use, at most `max_bytes` of their data."""

    def __init__(self, capacity=64, max_bytes=1 << 30):
        self.capacity = capacity
        self.max_bytes = max_bytes
        self._plans = OrderedDict()
        self._users = {}
        self._bytes = {}
        self._lock = threading.Lock()

    def acquire(self, fft_type, sizes, batch):
        key = (fft_type, tuple(sizes), batch)
        with self._lock:
            lib = library()
            if key in self._plans:
                self._plans.move_to_end(key)
                self._users[key] += 1
                self._evict(lib)
                return key, self._plans[key]
        handle = ctypes.c_int()
        check("fftxCreate", lib.fftxCreate(ctypes.byref(handle)))
        n = (ctypes.c_longlong * len(sizes))(*sizes)
        work = ctypes.c_size_t()
        status = lib.fftxMakePlanMany64(handle, len(sizes), n, None, 1, 1, None, 1, 1, fft_type, batch,
                                        ctypes.byref(work))
        if status != 0:
            lib.fftxDestroy(handle)
            check(f"fftxMakePlanMany64 for sizes {tuple(sizes)} x {batch}", status)
        with self._lock:
            if key in self._plans:  # another thread made it meanwhile
                lib.fftxDestroy(handle)
            else:
                self._plans[key] = handle.value
                self._users[key] = 0
                self._bytes[key] = math.prod(sizes) * batch * (16 if fft_type in (_Z2Z, _D2Z, _Z2D) else 8)
            self._users[key] += 1
            self._evict(lib)
            return key, self._plans[key]

    def release(self, key):
        with self._lock:
            self._users[key] -= 1

    def _evict(self, lib):
        idle = [k for k in self._plans if self._users[k] == 0]
        while idle and (len(self._plans) > self.capacity or sum(self._bytes.values()) > self.max_bytes):
            self._drop(lib, idle.pop(0))

    def _drop(self, lib, key):
        lib.fftxDestroy(self._plans.pop(key))
        del self._users[key]
        del self._bytes[key]

    def clear(self):
        """Destroys every idle plan."""
        with self._lock:
            self._evict_all(library())

    def _evict_all(self, lib):
        for key in [k for k in self._plans if self._users[k] == 0]:
            self._drop(lib, key)

    def __len__(self):
        return len(self._plans)


plan_cache = _PlanCache()


def _run(fft_type, sizes, batch, source, target, direction=None):
    """Runs a plan from `source` to `target` (contiguous arrays, the transformed axes last). Host data the
    device cannot hold at once runs in parts of the batch, or streams through it (the library does both)."""
    key, handle = plan_cache.acquire(fft_type, sizes, batch)
    try:
        function = getattr(library(), _EXEC[fft_type])
        args = [handle, source.ctypes.data, target.ctypes.data]
        if direction is not None:
            args.append(direction)
        check(_EXEC[fft_type], function(*args))
    finally:
        plan_cache.release(key)


def _single(dtype):
    return dtype in (np.float32, np.complex64, np.float16)


def _complex_dtype(dtype):
    return np.complex64 if _single(dtype) else np.complex128


def _real_dtype(dtype):
    return np.float32 if _single(dtype) else np.float64


def _scale(norm, total, forward):
    if norm is None or norm == "backward":
        return 1.0 if forward else 1.0 / total
    if norm == "ortho":
        return 1.0 / math.sqrt(total)
    if norm == "forward":
        return 1.0 / total if forward else 1.0
    raise ValueError(f'Invalid norm value {norm!r}; should be "backward", "ortho" or "forward".')


def _resize(a, axis, length):
    """`a` cut or zero-padded to `length` along `axis` (numpy's n/s semantics)."""
    if length < 1:
        raise ValueError(f"Invalid number of FFT data points ({length}) specified.")
    have = a.shape[axis]
    if have == length:
        return a
    if have > length:
        index = [slice(None)] * a.ndim
        index[axis] = slice(0, length)
        return a[tuple(index)]
    shape = list(a.shape)
    shape[axis] = length
    padded = np.zeros(shape, a.dtype)
    index = [slice(None)] * a.ndim
    index[axis] = slice(0, have)
    padded[tuple(index)] = a
    return padded


def _gather(a, axes, dtype):
    """A contiguous copy of `a` as `dtype` with `axes` moved last, in order."""
    tail = list(range(a.ndim - len(axes), a.ndim))
    return np.array(np.moveaxis(a, axes, tail), dtype=dtype, order="C", copy=True), tail


def _batch(shape, rank):
    return math.prod(shape[: len(shape) - rank])


def _c2c(a, axes, direction):
    """Complex transforms over `axes`, up to three at a time; an axis listed twice is transformed twice."""
    dtype = _complex_dtype(a.dtype)
    if not axes:
        return np.asarray(a, dtype=dtype)
    groups = [axes[i:i + 3] for i in range(0, len(axes), 3)] if len(set(axes)) == len(axes) else [[x] for x in axes]
    for group in reversed(groups):
        work, tail = _gather(a, group, dtype)
        if work.size:
            fft_type = _C2C if dtype == np.complex64 else _Z2Z
            _run(fft_type, work.shape[-len(group):], _batch(work.shape, len(group)), work, work, direction)
        a = np.moveaxis(work, tail, group)
    return a


def _r2c(a, axes):
    """Real-to-complex over `axes`: the last one halved (in one plan with up to two more), then the rest."""
    if np.iscomplexobj(a):
        raise TypeError("a real-to-complex transform takes real input; use fft for complex input")
    dtype = _real_dtype(a.dtype)
    group = axes[-3:] if len(set(axes)) == len(axes) else axes[-1:]
    work, tail = _gather(a, group, dtype)
    out = np.empty(work.shape[:-1] + (work.shape[-1] // 2 + 1,), _complex_dtype(dtype))
    if work.size:
        _run(_R2C if dtype == np.float32 else _D2Z, work.shape[-len(group):], _batch(work.shape, len(group)), work,
             out)
    return _c2c(np.moveaxis(out, tail, group), axes[: len(axes) - len(group)], _FORWARD)


def _c2r(a, axes, last):
    """Complex-to-real over `axes` with `last` real values along the last one, as numpy defines it for any
    input: inverse complex transforms over the other axes, then the real one, reading neither the imaginary
    part of bin 0 nor that of the Nyquist bin."""
    a = _c2c(a, axes[:-1], _INVERSE)
    dtype = _complex_dtype(a.dtype)
    work, tail = _gather(a, axes[-1:], dtype)
    work[..., 0].imag = 0
    if last % 2 == 0:
        work[..., last // 2].imag = 0
    out = np.empty(work.shape[:-1] + (last,), _real_dtype(dtype))
    if out.size:
        _run(_C2R if dtype == np.complex64 else _Z2D, (last,), _batch(work.shape, 1), work, out)
    return np.moveaxis(out, tail, axes[-1:])


def _finish(result, factor, out):
    if factor != 1.0:
        result *= factor
    if out is None:
        return result
    if out.shape != result.shape:
        raise ValueError(f"out has shape {out.shape}; the result has shape {result.shape}")
    # As numpy's ufunc outputs: a complex result does not go into a real array.
    if not np.can_cast(result.dtype, out.dtype, casting="same_kind"):
        raise TypeError(f"a {result.dtype} result cannot be written to out of dtype {out.dtype}")
    out[...] = result
    return out


def _one_length(n):
    """A one-dimensional function's `n` as the `s` of its n-dimensional form: None, or a whole number of at least
    1 (numpy raises for -1 there, and for a float)."""
    if n is None:
        return None
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return [n]


def _axes_and_sizes(a, s, axes, inverse_real=False):
    """numpy's fftn conventions: `axes` default to the last len(s) axes, or to all of them; a size of -1 is the
    input's length along its axis, and None (or no `s`) the length the one-dimensional transform would take:
    2 (m - 1) along the last axis of an inverse real transform."""
    if axes is None:
        axes = range(a.ndim) if s is None else range(-len(s), 0)
    axes = [normalize_axis_index(int(x), a.ndim) for x in axes]
    if s is None:
        s = [None] * len(axes)
    elif len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    sizes = []
    for i, (n, axis) in enumerate(zip(s, axes)):
        if n is None:
            n = 2 * (a.shape[axis] - 1) if inverse_real and i == len(axes) - 1 else a.shape[axis]
        elif operator.index(n) == -1:
            n = a.shape[axis]
        sizes.append(operator.index(n))
    return axes, sizes


def _prepare(a):
    """`a` as an array fftx computes with: half precision as single, integers and booleans as double, and in
    the machine's byte order. fftx has no extended precision, so long doubles are refused, not rounded."""
    a = np.asarray(a)
    # Numbers only: numpy 2 refuses strings, dates and objects (numpy 1 parsed some of them).
    if a.dtype.kind not in "biufc":
        raise TypeError(f"fftx transforms numbers, not {a.dtype}")
    if a.dtype.kind in "fc" and a.dtype.itemsize > (8 if a.dtype.kind == "f" else 16):
        raise TypeError(f"fftx computes in single or double precision, not {a.dtype}; convert with astype first")
    if not a.dtype.isnative:
        a = a.astype(a.dtype.newbyteorder("="))
    if a.dtype == np.float16:
        return a.astype(np.float32)
    if a.dtype.kind not in "fc":
        return a.astype(np.float64)
    return a


def _real_axes_and_sizes(a, s, axes, inverse):
    axes, sizes = _axes_and_sizes(a, s, axes, inverse_real=inverse)
    if not axes:
        raise ValueError("a real transform needs at least one axis")
    return axes, sizes


def _complex_nd(a, s, axes, norm, out, direction):
    a = _prepare(a)
    axes, sizes = _axes_and_sizes(a, s, axes)
    for axis, n in zip(axes, sizes):
        a = _resize(a, axis, n)
    forward = direction == _FORWARD
    return _finish(_c2c(a, axes, direction), _scale(norm, math.prod(sizes), forward), out)


def _real_nd(a, s, axes, norm, out):
    a = _prepare(a)
    axes, sizes = _real_axes_and_sizes(a, s, axes, inverse=False)
    if len(set(axes)) < len(axes):
        # An axis named twice: numpy's sequence of one-dimensional transforms, the real one first.
        result = rfft(a, n=sizes[-1], axis=axes[-1], norm=norm)
        for axis, n in zip(reversed(axes[:-1]), reversed(sizes[:-1])):
            result = fft(result, n=n, axis=axis, norm=norm)
        return _finish(result, 1.0, out)
    for axis, n in zip(axes, sizes):
        a = _resize(a, axis, n)
    return _finish(_r2c(a, axes), _scale(norm, math.prod(sizes), True), out)


def _inverse_real_nd(a, s, axes, norm, out):
    a = _prepare(a)
    axes, sizes = _real_axes_and_sizes(a, s, axes, inverse=True)
    if len(set(axes)) < len(axes):
        # An axis named twice: numpy's sequence of one-dimensional transforms, the real one last.
        for axis, n in zip(axes[:-1], sizes[:-1]):
            a = ifft(a, n=n, axis=axis, norm=norm)
        return _finish(irfft(a, n=sizes[-1], axis=axes[-1], norm=norm), 1.0, out)
    for axis, n in zip(axes[:-1], sizes[:-1]):
        a = _resize(a, axis, n)
    if sizes[-1] < 1:
        raise ValueError(f"Invalid number of data points ({sizes[-1]}) specified")
    a = _resize(a, axes[-1], sizes[-1] // 2 + 1)
    return _finish(_c2r(a, axes, sizes[-1]), _scale(norm, math.prod(sizes), False), out)


def fft(a, n=None, axis=-1, norm=None, out=None):
    """One-dimensional discrete Fourier transform, as numpy.fft.fft."""
    return _complex_nd(a, _one_length(n), [axis], norm, out, _FORWARD)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """One-dimensional inverse discrete Fourier transform, as numpy.fft.ifft."""
    return _complex_nd(a, _one_length(n), [axis], norm, out, _INVERSE)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Two-dimensional discrete Fourier transform, as numpy.fft.fft2."""
    return _complex_nd(a, s, axes, norm, out, _FORWARD)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Two-dimensional inverse discrete Fourier transform, as numpy.fft.ifft2."""
    return _complex_nd(a, s, axes, norm, out, _INVERSE)


def fftn(a, s=None, axes=None, norm=None, out=None):
    """N-dimensional discrete Fourier transform, as numpy.fft.fftn."""
    return _complex_nd(a, s, axes, norm, out, _FORWARD)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """N-dimensional inverse discrete Fourier transform, as numpy.fft.ifftn."""
    return _complex_nd(a, s, axes, norm, out, _INVERSE)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """One-dimensional transform of real input, as numpy.fft.rfft."""
    return _real_nd(a, _one_length(n), [axis], norm, out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """Inverse of rfft, as numpy.fft.irfft."""
    return _inverse_real_nd(a, _one_length(n), [axis], norm, out)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Two-dimensional transform of real input, as numpy.fft.rfft2."""
    return _real_nd(a, s, axes, norm, out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Inverse of rfft2, as numpy.fft.irfft2."""
    return _inverse_real_nd(a, s, axes, norm, out)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """N-dimensional transform of real input, as numpy.fft.rfftn."""
    return _real_nd(a, s, axes, norm, out)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """Inverse of rfftn, as numpy.fft.irfftn."""
    return _inverse_real_nd(a, s, axes, norm, out)


# hfft and ihfft scale as the opposite direction: each `norm` names the other transform of the pair.
_SWAPPED_NORM = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """Transform of a Hermitian-symmetric signal given by its first half (a real spectrum), as
    numpy.fft.hfft."""
    return hfftn(a, _one_length(n), [axis], norm, out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """Inverse of hfft, as numpy.fft.ihfft."""
    return ihfftn(a, _one_length(n), [axis], norm, out)


# The 2D and N-D pair are scipy.fft's (numpy.fft has only the 1D one): the conjugate makes the inverse real
# transform over every axis a forward one.
def hfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Two-dimensional transform of a Hermitian-symmetric signal given by its half along the last axis, as
    scipy.fft.hfft2."""
    return hfftn(a, s, axes, norm, out)


def hfftn(a, s=None, axes=None, norm=None, out=None):
    """N-dimensional transform of a Hermitian-symmetric signal given by its half along the last axis, as
    scipy.fft.hfftn."""
    return irfftn(np.conjugate(_prepare(a)), s, axes, _SWAPPED_NORM.get(norm, norm), out)


def ihfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Inverse of hfft2, as scipy.fft.ihfft2."""
    return ihfftn(a, s, axes, norm, out)


def ihfftn(a, s=None, axes=None, norm=None, out=None):
    """Inverse of hfftn, as scipy.fft.ihfftn."""
    return _finish(np.conjugate(rfftn(a, s, axes, _SWAPPED_NORM.get(norm, norm))), 1.0, out)


def prebuild(shapes, dtypes=(np.complex64,), kinds=("c2c",)):
    """Compiles the kernels that transforms of `shapes` take and keeps them in fftx's disk cache (and the plans
    in `plan_cache`), so that later calls, in this process or another, start without the OpenCL compiler's
    seconds. Each shape is an array's shape, transformed over all its axes (as fftn); `kinds` are among "c2c",
    "r2c" and "c2r"; `dtypes` give the precisions (complex64 or float32: single; complex128 or float64:
    double). Returns the number of transforms prepared."""
    count = 0
    for shape in shapes:
        shape = tuple(operator.index(n) for n in (shape if np.iterable(shape) else (shape,)))
        for dtype in dtypes:
            complex_dtype = _complex_dtype(np.dtype(dtype))
            for kind in kinds:
                if kind == "c2c":
                    fftn(np.zeros(shape, complex_dtype))
                elif kind == "r2c":
                    rfftn(np.zeros(shape, _real_dtype(complex_dtype)))
                elif kind == "c2r":
                    half = shape[:-1] + (shape[-1] // 2 + 1,)
                    irfftn(np.zeros(half, complex_dtype), s=shape)
                else:
                    raise ValueError(f'kind {kind!r} is none of "c2c", "r2c" and "c2r"')
                count += 1
    return count
