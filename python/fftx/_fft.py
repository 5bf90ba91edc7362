"""numpy.fft-compatible transforms over libfftx's cuFFT-style API.

Each pass runs a batched plan of rank 1 to 3 on host memory where it lies: complex transforms read their input
and write their result in any layout that cuFFT's advanced layout describes (`_layout`), real transforms in
C-contiguous arrays, or in place in cuFFT's padded layout. A pass writes into `out` where the plan can write its
result there, else into a new array; input of another dtype, or in a layout no plan reads, goes through a
contiguous copy (which also converts the dtype). An array transformed into itself (`out` the input, or scipy's
`overwrite_x`) runs in place. Single precision input (float32, complex64, float16) stays single precision;
everything else runs in double.
"""

import ctypes
import math
import operator
import threading
from collections import OrderedDict

import numpy as np

from ._library import FftxError, check, library

try:
    from numpy.lib.array_utils import normalize_axis_index
except ImportError:  # numpy < 2
    from numpy.core.multiarray import normalize_axis_index

# fftxType values, as in fftx.h.
_C2C, _Z2Z, _R2C, _D2Z, _C2R, _Z2D = 0x29, 0x69, 0x2A, 0x6A, 0x2C, 0x6C
_FORWARD, _INVERSE = -1, 1
_EXEC = {_C2C: "fftxExecC2C", _Z2Z: "fftxExecZ2Z", _R2C: "fftxExecR2C", _D2Z: "fftxExecD2Z",
         _C2R: "fftxExecC2R", _Z2D: "fftxExecZ2D"}
_DOUBLE_TYPES = (_Z2Z, _D2Z, _Z2D)
_INVALID_SIZE = 8  # FFTX_INVALID_SIZE


class _PlanCache:
    """Plans by (type, sizes, batch, layouts), least recently used dropped first; a plan in use is never
    dropped. A plan keeps buffers up to about the size of its data, so the cache holds at most `capacity` plans
    and, beyond the plan used last, at most `max_bytes` of their data: it drops idle plans when it makes one and
    when a call ends."""

    def __init__(self, capacity=64, max_bytes=1 << 30):
        self.capacity = capacity
        self.max_bytes = max_bytes
        self._plans = OrderedDict()  # key: [handle, users, bytes]
        self._bytes = 0
        self._lock = threading.Lock()

    def acquire(self, fft_type, sizes, batch, layouts=None):
        """The key and handle of the plan, marked in use until `release(key)`. `layouts` are cuFFT's advanced
        layouts of the input and the output, each (embed, stride, dist); None is the basic layout."""
        key = (fft_type, tuple(sizes), batch, layouts)
        with self._lock:
            entry = self._plans.get(key)
            if entry is not None:
                self._plans.move_to_end(key)
                entry[1] += 1
                return key, entry[0]
        lib = library()
        handle = ctypes.c_int()
        check("fftxCreate", lib.fftxCreate(ctypes.byref(handle)))
        rank = len(sizes)
        n = (ctypes.c_longlong * rank)(*sizes)
        if layouts is None:
            layout = [None, 1, 1, None, 1, 1]
        else:
            (in_embed, in_stride, in_dist), (out_embed, out_stride, out_dist) = layouts
            layout = [(ctypes.c_longlong * rank)(*in_embed), in_stride, in_dist,
                      (ctypes.c_longlong * rank)(*out_embed), out_stride, out_dist]
        work = ctypes.c_size_t()
        status = lib.fftxMakePlanMany64(handle, rank, n, *layout, fft_type, batch, ctypes.byref(work))
        if status != 0:
            lib.fftxDestroy(handle)
            check(f"fftxMakePlanMany64 for sizes {tuple(sizes)} x {batch}" + (f", layouts {layouts}" if layouts else ""),
                  status)
        with self._lock:
            entry = self._plans.get(key)
            if entry is not None:  # another thread made it meanwhile
                lib.fftxDestroy(handle)
                self._plans.move_to_end(key)
            else:
                size = math.prod(sizes) * batch * (16 if fft_type in _DOUBLE_TYPES else 8)
                entry = self._plans[key] = [handle.value, 0, size]
                self._bytes += size
            entry[1] += 1
            self._evict(lib, key)
            return key, entry[0]

    def release(self, key):
        with self._lock:
            entry = self._plans[key]
            entry[1] -= 1
            if len(self._plans) > self.capacity or self._bytes > self.max_bytes:
                self._evict(library(), key)

    def _evict(self, lib, kept):
        """Drops idle plans other than `kept`, least recently used first, until the cache is within its
        bounds."""
        for key in [k for k, entry in self._plans.items() if entry[1] == 0 and k != kept]:
            if len(self._plans) <= self.capacity and self._bytes <= self.max_bytes:
                break
            self._drop(lib, key)

    def _drop(self, lib, key):
        handle, _, size = self._plans.pop(key)
        self._bytes -= size
        lib.fftxDestroy(handle)

    def clear(self):
        """Destroys every idle plan."""
        with self._lock:
            lib = library()
            for key in [k for k, entry in self._plans.items() if entry[1] == 0]:
                self._drop(lib, key)

    def __len__(self):
        return len(self._plans)


plan_cache = _PlanCache()
_exec_functions = {}


def _run(fft_type, source, target, rank, direction=None):
    """Runs the plan of `rank` over the last axes of `source` into `target` (the same memory runs in place).
    Real transforms take C-contiguous arrays, or cuFFT's padded layout in place; complex ones any layout that
    `_layout` describes. Host data the device cannot hold at once runs in parts of the batch, or streams through
    it (the library does both) in the basic layout; in an advanced layout too large for the device, nothing runs
    and the answer is False. True otherwise."""
    shape = target.shape if fft_type in (_C2R, _Z2D) else source.shape
    lead = len(shape) - rank
    layouts = None
    if fft_type in (_C2C, _Z2Z) and not (source.flags.c_contiguous and target.flags.c_contiguous):
        layouts = (_layout(source, rank), _layout(target, rank))
    try:
        key, handle = plan_cache.acquire(fft_type, shape[lead:], math.prod(shape[:lead]), layouts)
    except FftxError as error:
        if layouts is None or error.status != _INVALID_SIZE:
            raise
        return False
    try:
        function = _exec_functions.get(fft_type)
        if function is None:
            function = _exec_functions[fft_type] = getattr(library(), _EXEC[fft_type])
        if direction is None:
            status = function(handle, source.ctypes.data, target.ctypes.data)
        else:
            status = function(handle, source.ctypes.data, target.ctypes.data, direction)
        if status:
            check(_EXEC[fft_type], status)
    finally:
        plan_cache.release(key)
    return True


def _layout(a, rank):
    """cuFFT's advanced layout of `a` with its last `rank` axes transformed and the others a batch: (embed,
    stride, dist) in elements. None where none describes it: each transformed axis's step must be a whole
    multiple of the next one's, the batch axes one run of equal steps, no step negative and no element reached
    twice."""
    item = a.itemsize
    shape = a.shape
    lead = len(shape) - rank
    steps = [0] * len(shape)
    for axis in range(len(shape) - 1, -1, -1):
        step, rest = divmod(a.strides[axis], item)
        if shape[axis] == 1:  # any step: the one the next axis in would give
            step, rest = (steps[axis + 1] * shape[axis + 1] if axis + 1 < len(shape) else 1), 0
        if rest or step <= 0:
            return None
        steps[axis] = step
    n, strides = shape[lead:], steps[lead:]
    embed = [n[0]]
    for k in range(1, rank):
        if strides[k - 1] % strides[k] or strides[k - 1] // strides[k] < n[k]:
            return None
        embed.append(strides[k - 1] // strides[k])
    batch_axes = [axis for axis in range(lead) if shape[axis] > 1]
    for outer, inner in zip(batch_axes, batch_axes[1:]):
        if steps[outer] != steps[inner] * shape[inner]:
            return None
    batch = math.prod(shape[:lead])
    dist = steps[batch_axes[-1]] if batch_axes else strides[0] * n[0]
    spans = sorted(list(zip(strides, n)) + [(dist, batch)])
    if any(step < inner_step * inner_size for (inner_step, inner_size), (step, _) in zip(spans, spans[1:])):
        return None
    return tuple(embed), strides[-1], dist


_SINGLE = frozenset(np.dtype(t) for t in (np.float32, np.complex64, np.float16))


def _complex_dtype(dtype):
    return np.dtype(np.complex64) if dtype in _SINGLE else np.dtype(np.complex128)


def _real_dtype(dtype):
    return np.dtype(np.float32) if dtype in _SINGLE else np.dtype(np.float64)


def _scale(norm, total, forward):
    if norm is None or norm == "backward":
        return 1.0 if forward else 1.0 / total
    if norm == "ortho":
        return 1.0 / math.sqrt(total)
    if norm == "forward":
        return 1.0 / total if forward else 1.0
    raise ValueError(f'Invalid norm value {norm!r}; should be "backward", "ortho" or "forward".')


def _resize(a, axis, length):
    """`a` cut or zero-padded to `length` along `axis` (numpy's n/s semantics), and whether it is a new array."""
    if length < 1:
        raise ValueError(f"Invalid number of FFT data points ({length}) specified.")
    have = a.shape[axis]
    if have == length:
        return a, False
    index = [slice(None)] * a.ndim
    if have > length:
        index[axis] = slice(0, length)
        return a[tuple(index)], False
    shape = list(a.shape)
    shape[axis] = length
    padded = np.zeros(shape, a.dtype)
    index[axis] = slice(0, have)
    padded[tuple(index)] = a
    return padded, True


def _moved(a, axes):
    """`a` with `axes` moved last, in order, and the places they take there."""
    tail = list(range(a.ndim - len(axes), a.ndim))
    return (a if axes == tail else np.moveaxis(a, axes, tail)), tail


def _moved_back(a, tail, axes):
    return a if axes == tail else np.moveaxis(a, tail, axes)


def _direct(a, dtype, rank=None):
    """True where a plan reads or writes `a` as it lies: aligned, of `dtype`, and C-contiguous, or for a complex
    plan over its last `rank` axes, laid out as `_layout` describes."""
    return (a.dtype == dtype and a.flags.aligned
            and (a.flags.c_contiguous or (rank is not None and _layout(a, rank) is not None)))


def _target(out, axes, shape, dtype, rank=None, padded_with=None):
    """`out` with `axes` moved last where the plan can write its result there: writable, of `shape`, and
    `_direct` (with `rank`) or laid out with `padded_with` as `_padded` says. None otherwise."""
    if out is None:
        return None
    target, _ = _moved(out, axes)
    if target.shape != shape or not target.flags.writeable:
        return None
    if _direct(target, dtype, rank) or (padded_with is not None and _padded(target, padded_with)):
        return target
    return None


def _new(shape, dtype, axes):
    """A new array of `shape` (the axes in their order) with `axes` moved last: C-contiguous in that order where a
    complex plan can write it so, else C-contiguous with `axes` last."""
    array, _ = _moved(np.empty(shape, dtype), axes)
    if not array.flags.c_contiguous and _layout(array, len(axes)) is None:
        array = np.empty(array.shape, dtype)
    return array


def _same(a, b):
    """True where `a` and `b` are the same elements of the same memory."""
    return a is b or (a.shape == b.shape and a.strides == b.strides and a.ctypes.data == b.ctypes.data)


def _padded(real, spectrum):
    """True where `real` lies in `spectrum`'s memory as cuFFT lays out in-place real transforms: each row of
    reals (of the precision of `spectrum`) at the start of its row of n / 2 + 1 complex values, which are
    C-contiguous and aligned."""
    return (real.dtype.kind == "f" and spectrum.dtype.kind == "c" and 2 * real.itemsize == spectrum.itemsize
            and real.strides[:-1] == spectrum.strides[:-1] and real.strides[-1] == real.itemsize
            and spectrum.flags.c_contiguous and spectrum.flags.aligned and real.ctypes.data == spectrum.ctypes.data)


def _c2c(a, axes, direction, out=None, writable=False):
    """Complex transforms over `axes`, up to three at a time; an axis listed twice is transformed twice. Each
    pass writes into `out` where it can, else into `a` itself where `writable` says its values may go (a copy
    fftx made, or the caller's consent), else into a new array."""
    dtype = _complex_dtype(a.dtype)
    if not axes:
        return np.asarray(a, dtype=dtype)
    fft_type = _C2C if dtype == np.complex64 else _Z2Z
    groups = [axes[i:i + 3] for i in range(0, len(axes), 3)] if len(set(axes)) == len(axes) else [[x] for x in axes]
    for group in reversed(groups):
        source, tail = _moved(a, group)
        rank = len(group)
        if rank > 1 and not _direct(source, dtype, rank):
            # The transforms over distinct axes commute: the axes in the order of the memory's steps may give a
            # layout the plan reads as it lies (a Fortran-ordered array).
            ordered = sorted(group, key=lambda axis: -abs(a.strides[axis]))
            moved, ordered_tail = _moved(a, ordered)
            if _direct(moved, dtype, rank):
                group, source, tail = ordered, moved, ordered_tail
        target = _target(out, group, source.shape, dtype, rank)
        if _direct(source, dtype, rank):
            if target is None:
                target = source if writable and source.flags.writeable else _new(a.shape, dtype, group)
            elif not _same(source, target) and np.may_share_memory(source, target):
                target[...] = source
                source = target
        elif target is None:
            source = target = np.array(source, dtype=dtype, order="C")
        else:
            target[...] = source
            source = target
        if target.size and not _run(fft_type, source, target, rank, direction):
            # Too large for the device in this layout: the basic layout runs in parts.
            work = np.array(source, dtype=dtype, order="C")
            _run(fft_type, work, work, rank, direction)
            target[...] = work
        a = _moved_back(target, tail, group)
        writable = True
    return a


def _r2c(a, axes, out=None):
    """Real-to-complex over `axes`: the last one halved (in one plan with up to two more), then the rest. In
    place where `out` holds `a` as cuFFT lays out in-place real transforms."""
    if np.iscomplexobj(a):
        raise TypeError("a real-to-complex transform takes real input; use fft for complex input")
    dtype = _real_dtype(a.dtype)
    spectrum_dtype = _complex_dtype(dtype)
    group = axes[-3:] if len(set(axes)) == len(axes) else axes[-1:]
    rest = axes[: len(axes) - len(group)]
    source, tail = _moved(a, group)
    shape = source.shape[:-1] + (source.shape[-1] // 2 + 1,)
    target = _target(out, group, shape, spectrum_dtype)
    if target is None or not _padded(source, target):
        if not _direct(source, dtype):
            source = np.array(source, dtype=dtype, order="C")
        if target is None:
            target = np.empty(shape, spectrum_dtype)
        elif np.may_share_memory(source, target):
            source = source.copy()
    if target.size:
        _run(_R2C if dtype == np.float32 else _D2Z, source, target, len(group))
    return _c2c(_moved_back(target, tail, group), rest, _FORWARD, out, writable=True)


def _c2r(a, axes, last, out=None, writable=False):
    """Complex-to-real over `axes` with `last` real values along the last one, as numpy defines it for any
    input: inverse complex transforms over the other axes, then the real one, reading neither the imaginary
    part of bin 0 nor that of the Nyquist bin, which it sets to zero. The real transform may overwrite its
    input: that is `a` only where `writable` says its values may go, a copy otherwise. In place where `out`
    lies in `a` as cuFFT lays out in-place real transforms."""
    if len(axes) > 1:
        a = _c2c(a, axes[:-1], _INVERSE, writable=writable)
        writable = True
    dtype = _complex_dtype(a.dtype)
    real_dtype = _real_dtype(dtype)
    source, tail = _moved(a, axes[-1:])
    if not (writable and source.flags.writeable and _direct(source, dtype)):
        source = np.array(source, dtype=dtype, order="C")
    source[..., 0].imag = 0
    if last % 2 == 0:
        source[..., last // 2].imag = 0
    shape = source.shape[:-1] + (last,)
    target = _target(out, axes[-1:], shape, real_dtype, padded_with=source)
    if target is None or (not _padded(target, source) and np.may_share_memory(source, target)):
        target = np.empty(shape, real_dtype)
    if target.size:
        _run(_C2R if dtype == np.complex64 else _Z2D, source, target, 1)
    return _moved_back(target, tail, axes[-1:])


def _multiply(a, factor):
    """`a *= factor`, on the reals of a complex array where its memory is contiguous in some order of its axes:
    numpy multiplies those several times faster than complex64 values by a scalar. Finite values come out
    the same; an infinite part stays infinite where the complex product would also make the other part NaN."""
    if a.dtype.kind == "c":
        if not a.flags.c_contiguous:
            a = a.transpose(sorted(range(a.ndim), key=lambda axis: -a.strides[axis]))
        if a.flags.c_contiguous:
            a = a.view(_real_dtype(a.dtype))
    a *= factor


def _finish(result, factor, out):
    """`result` scaled by `factor`, in `out` where given: a result computed there is scaled in place, any other
    is copied in."""
    if out is None or _same(result, out):
        if factor != 1.0:
            _multiply(result, factor)
        return result if out is None else out
    if out.shape != result.shape:
        raise ValueError(f"out has shape {out.shape}; the result has shape {result.shape}")
    # As numpy's ufunc outputs: a complex result does not go into a real array.
    if not np.can_cast(result.dtype, out.dtype, casting="same_kind"):
        raise TypeError(f"a {result.dtype} result cannot be written to out of dtype {out.dtype}")
    if factor != 1.0:
        _multiply(result, factor)
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


# _axes_and_sizes's answers by (shape, s, axes, inverse_real), for the calls that repeat.
_known_axes = {}


def _axes_and_sizes(a, s, axes, inverse_real=False):
    """numpy's fftn conventions: `axes` default to the last len(s) axes, or to all of them; a size of -1 is the
    input's length along its axis, and None (or no `s`) the length the one-dimensional transform would take:
    2 (m - 1) along the last axis of an inverse real transform."""
    try:
        key = (a.shape, s if s is None else tuple(s), axes if axes is None else tuple(axes), inverse_real)
        known = _known_axes.get(key)
    except TypeError:  # unhashable values: nothing to look up
        key = known = None
    if known is None:
        known = _axes_and_sizes_of(a, s, axes, inverse_real)
        if key is not None:
            if len(_known_axes) >= 1024:
                _known_axes.clear()
            _known_axes[key] = known
    return list(known[0]), list(known[1])


def _axes_and_sizes_of(a, s, axes, inverse_real):
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
    return tuple(axes), tuple(sizes)


# The dtypes fftx computes with as they are.
_NATIVE = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128))


def _prepare(a):
    """`a` as an array fftx computes with: half precision as single, integers and booleans as double, and in
    the machine's byte order; and whether that made a copy. fftx has no extended precision, so long doubles are
    refused, not rounded."""
    a = np.asarray(a)
    if a.dtype in _NATIVE:
        return a, False
    # Numbers only: numpy 2 refuses strings, dates and objects (numpy 1 parsed some of them).
    if a.dtype.kind not in "biufc":
        raise TypeError(f"fftx transforms numbers, not {a.dtype}")
    if a.dtype.kind in "fc" and a.dtype.itemsize > (8 if a.dtype.kind == "f" else 16):
        raise TypeError(f"fftx computes in single or double precision, not {a.dtype}; convert with astype first")
    if not a.dtype.isnative:
        a = a.astype(a.dtype.newbyteorder("="))
    if a.dtype == np.float16:
        return a.astype(np.float32), True
    if a.dtype.kind not in "fc":
        return a.astype(np.float64), True
    return a, True


def _real_axes_and_sizes(a, s, axes, inverse):
    axes, sizes = _axes_and_sizes(a, s, axes, inverse_real=inverse)
    if not axes:
        raise ValueError("a real transform needs at least one axis")
    return axes, sizes


def _resized(a, axes, sizes, writable):
    """`a` cut or zero-padded to `sizes` along `axes`, and whether its values may be overwritten: `writable`
    says so of `a`, and a padded copy is fftx's own."""
    for axis, n in zip(axes, sizes):
        a, padded = _resize(a, axis, n)
        writable = writable or padded
    return a, writable


def _complex_nd(a, s, axes, norm, out, direction, overwrite=False):
    """The complex transforms; `overwrite` lets the result take the input's place."""
    a, converted = _prepare(a)
    axes, sizes = _axes_and_sizes(a, s, axes)
    a, writable = _resized(a, axes, sizes, converted or overwrite)
    factor = _scale(norm, math.prod(sizes), direction == _FORWARD)
    return _finish(_c2c(a, axes, direction, out, writable), factor, out)


def _real_nd(a, s, axes, norm, out):
    a, _ = _prepare(a)
    axes, sizes = _real_axes_and_sizes(a, s, axes, inverse=False)
    if len(set(axes)) < len(axes):
        # An axis named twice: numpy's sequence of one-dimensional transforms, the real one first.
        result = rfft(a, n=sizes[-1], axis=axes[-1], norm=norm)
        for axis, n in zip(reversed(axes[:-1]), reversed(sizes[:-1])):
            result = fft(result, n=n, axis=axis, norm=norm)
        return _finish(result, 1.0, out)
    a, _ = _resized(a, axes, sizes, False)
    return _finish(_r2c(a, axes, out), _scale(norm, math.prod(sizes), True), out)


def _inverse_real_nd(a, s, axes, norm, out, overwrite=False):
    """The inverse real transforms; `overwrite` lets them overwrite the input, which they otherwise copy."""
    a, converted = _prepare(a)
    axes, sizes = _real_axes_and_sizes(a, s, axes, inverse=True)
    if len(set(axes)) < len(axes):
        # An axis named twice: numpy's sequence of one-dimensional transforms, the real one last.
        for axis, n in zip(axes[:-1], sizes[:-1]):
            a = ifft(a, n=n, axis=axis, norm=norm)
        return _finish(irfft(a, n=sizes[-1], axis=axes[-1], norm=norm), 1.0, out)
    if sizes[-1] < 1:
        raise ValueError(f"Invalid number of data points ({sizes[-1]}) specified")
    a, writable = _resized(a, axes, sizes[:-1] + [sizes[-1] // 2 + 1], converted or overwrite)
    if out is not None and not writable:
        # The result written over the input, as cuFFT lays out in-place real transforms: the input is the
        # caller's to overwrite.
        writable = _padded(_moved(out, axes[-1:])[0], _moved(a, axes[-1:])[0])
    factor = _scale(norm, math.prod(sizes), False)
    return _finish(_c2r(a, axes, sizes[-1], out, writable), factor, out)


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
    return _inverse_real_nd(np.conjugate(_prepare(a)[0]), s, axes, _SWAPPED_NORM.get(norm, norm), out, overwrite=True)


def ihfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Inverse of hfft2, as scipy.fft.ihfft2."""
    return ihfftn(a, s, axes, norm, out)


def ihfftn(a, s=None, axes=None, norm=None, out=None):
    """Inverse of hfftn, as scipy.fft.ihfftn."""
    result = _real_nd(a, s, axes, _SWAPPED_NORM.get(norm, norm), out)
    return np.conjugate(result, out=result)


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
