"""fftx against numpy.fft: every function (the Hermitian pair included), random shapes and dtypes, n/s, axes
in any order and negative, norms, non-contiguous views, and the dtypes of the results."""

import zlib

import numpy as np
import pytest

import fftx

RNG = np.random.default_rng(20240611)
# Each distinct shape compiles kernels once (then they come from the disk cache): sizes come from a small pool.
SIZES = [1, 2, 3, 4, 5, 6, 8, 12]
COMPLEX = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn"]
REAL = ["rfft", "rfft2", "rfftn"]
INVERSE_REAL = ["irfft", "irfft2", "irfftn"]
NORMS = [None, "backward", "ortho", "forward"]


def tolerance(dtype):
    return 2e-5 if dtype in (np.float32, np.complex64) else 1e-12


def random(shape, dtype):
    values = RNG.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        values = values + 1j * RNG.standard_normal(shape)
    return values.astype(dtype)


def assert_close(got, want, dtype):
    assert got.shape == want.shape
    scale = max(np.abs(want).max(), 1e-30)
    error = np.abs(got - want).max() / scale
    assert error < tolerance(dtype), f"relative error {error:.2e}"


def expected_dtype(name, dtype):
    single = np.dtype(dtype) in (np.float32, np.complex64)
    if name.startswith("irfft"):
        return np.float32 if single else np.float64
    return np.complex64 if single else np.complex128


def shapes(seed, count=3):
    """Random shapes of 1 to 3 dimensions, the same for the same seed; the last size is at least 2 (an inverse
    real transform of one value has no length)."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        ndim = int(rng.integers(1, 4))
        shape = [int(n) for n in rng.choice(SIZES, size=ndim)]
        shape[-1] = max(shape[-1], 2)
        yield tuple(shape)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("name", COMPLEX)
def test_complex_transforms_match_numpy(name, dtype):
    for shape in shapes(zlib.crc32(name.encode())):
        if name.endswith("2") and len(shape) < 2:
            shape = shape + (5,)
        x = random(shape, dtype)
        for norm in NORMS:
            got = getattr(fftx, name)(x, norm=norm)
            assert got.dtype == expected_dtype(name, dtype)
            assert_close(got, getattr(np.fft, name)(x.astype(np.complex128), norm=norm), dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", REAL)
def test_real_transforms_match_numpy(name, dtype):
    for shape in shapes(zlib.crc32(name.encode())):
        if name.endswith("2") and len(shape) < 2:
            shape = (3,) + shape
        x = random(shape, dtype)
        for norm in NORMS:
            got = getattr(fftx, name)(x, norm=norm)
            assert got.dtype == expected_dtype(name, dtype)
            assert_close(got, getattr(np.fft, name)(x.astype(np.float64), norm=norm), dtype)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", INVERSE_REAL)
def test_inverse_real_transforms_match_numpy_on_any_input(name, dtype):
    # Random input is not Hermitian: numpy's definition (complex inverses first, then the real axis, ignoring
    # the imaginary parts of bin 0 and the Nyquist bin) fixes the answer anyway.
    for shape in shapes(zlib.crc32(name.encode())):
        if name.endswith("2") and len(shape) < 2:
            shape = (4,) + shape
        x = random(shape, dtype)
        for norm in NORMS:
            got = getattr(fftx, name)(x, norm=norm)
            assert got.dtype == expected_dtype(name, dtype)
            assert_close(got, getattr(np.fft, name)(x.astype(np.complex128), norm=norm), dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_hermitian_transforms_match_numpy(dtype):
    x = random((3, 7), dtype)
    single = np.dtype(dtype) in (np.float32, np.complex64)
    for norm in NORMS:
        for n in (None, 5, 12):
            got = fftx.hfft(x, n=n, norm=norm)
            assert got.dtype == (np.float32 if single else np.float64)
            assert_close(got, np.fft.hfft(x.astype(np.complex128), n=n, norm=norm), dtype)
            if np.dtype(dtype).kind == "f":
                got = fftx.ihfft(x, n=n, axis=0, norm=norm)
                assert got.dtype == (np.complex64 if single else np.complex128)
                assert_close(got, np.fft.ihfft(x.astype(np.float64), n=n, axis=0, norm=norm), dtype)
    real = x.real.astype(np.float64)
    assert_close(fftx.hfft(fftx.ihfft(real), n=7), real, np.float64)
    out = np.empty((3, 4), np.complex128)
    assert fftx.ihfft(real, axis=1, out=out) is out
    assert_close(out, np.fft.ihfft(real, axis=1), np.float64)
    with pytest.raises(ValueError):
        fftx.hfft(x, norm="sideways")


def test_numpy_helpers_are_numpy_s():
    assert fftx.fftfreq is np.fft.fftfreq and fftx.rfftfreq is np.fft.rfftfreq
    assert fftx.fftshift is np.fft.fftshift and fftx.ifftshift is np.fft.ifftshift


def test_lengths_n_and_s_cut_and_pad():
    x = random((6, 10), np.complex128)
    for n in (1, 7, 10, 16):
        assert_close(fftx.fft(x, n=n), np.fft.fft(x, n=n), np.complex128)
        assert_close(fftx.ifft(x, n=n, axis=0), np.fft.ifft(x, n=n, axis=0), np.complex128)
        assert_close(fftx.irfft(x, n=n), np.fft.irfft(x, n=n), np.complex128)
    r = random((6, 10), np.float64)
    for s in ((4, 4), (8, 13), (6, 9)):
        assert_close(fftx.fft2(x, s=s), np.fft.fft2(x, s=s), np.complex128)
        assert_close(fftx.rfft2(r, s=s), np.fft.rfft2(r, s=s), np.float64)
        assert_close(fftx.irfft2(x, s=s), np.fft.irfft2(x, s=s), np.complex128)
        assert_close(fftx.rfftn(r, s=s, axes=(1, 0)), np.fft.rfftn(r, s=s, axes=(1, 0)), np.float64)
    # numpy 2: a size of -1 is the input's length along its axis (also the last of an inverse real transform);
    # numpy 1 refuses it, so the reference takes the lengths themselves.
    for s in ((-1, 4), (8, -1), (-1, -1)):
        given = tuple(x.shape[axis] if n == -1 else n for axis, n in enumerate(s))
        assert_close(fftx.fftn(x, s=s, axes=(0, 1)), np.fft.fftn(x, s=given, axes=(0, 1)), np.complex128)
        assert_close(fftx.rfftn(r, s=s, axes=(0, 1)), np.fft.rfftn(r, s=given, axes=(0, 1)), np.float64)
        assert_close(fftx.irfftn(x, s=s, axes=(0, 1)), np.fft.irfftn(x, s=given, axes=(0, 1)), np.complex128)


def test_axes_in_any_order_and_negative():
    x = random((3, 4, 5, 6), np.complex64)
    r = random((3, 4, 5, 6), np.float32)
    for axes in ((0,), (-1, 0), (2, 0, 1), (-1, -3, -2, 0), (3, 1)):
        assert_close(fftx.fftn(x, axes=axes), np.fft.fftn(x, axes=axes), np.complex64)
        assert_close(fftx.ifftn(x, axes=axes), np.fft.ifftn(x, axes=axes), np.complex64)
        assert_close(fftx.rfftn(r, axes=axes), np.fft.rfftn(r, axes=axes), np.float32)
        assert_close(fftx.irfftn(x, axes=axes), np.fft.irfftn(x, axes=axes), np.complex64)
    # An axis given twice is transformed twice, as numpy does.
    assert_close(fftx.fftn(x, axes=(1, 1)), np.fft.fftn(x, axes=(1, 1)), np.complex64)
    for axis in (0, 1, -2, -1):
        assert_close(fftx.rfft(r, axis=axis), np.fft.rfft(r, axis=axis), np.float32)


def test_non_contiguous_views():
    base = random((10, 16, 12), np.complex128)
    real = random((10, 16, 12), np.float64)
    views = [base[::2], base[:, ::3, 1:], base.transpose(2, 0, 1), base[..., ::-1], base.real.T]
    for view in views:
        assert_close(fftx.fftn(view), np.fft.fftn(view), np.complex128)
        assert_close(fftx.ifft(view, axis=1), np.fft.ifft(view, axis=1), np.complex128)
    for view in (real[1::2, ::-2], real.transpose(1, 2, 0), np.asfortranarray(real)):
        assert_close(fftx.rfftn(view), np.fft.rfftn(view), np.float64)
        assert_close(fftx.rfft(view, axis=0), np.fft.rfft(view, axis=0), np.float64)


def test_input_is_never_modified():
    x = random((8, 6), np.complex64)
    kept = x.copy()
    fftx.fft2(x)
    fftx.irfft2(x)
    assert np.array_equal(x, kept)


def test_dtypes_follow_numpy():
    assert fftx.fft(np.ones(8, np.float16)).dtype == np.complex64
    assert fftx.fft(np.arange(8)).dtype == np.complex128
    assert fftx.rfft(np.ones(8, bool)).dtype == np.complex128
    assert fftx.irfft(np.ones(5, np.complex64)).dtype == np.float32
    assert_close(fftx.fft(np.arange(8)), np.fft.fft(np.arange(8)), np.float64)
    # The other byte order keeps its precision.
    for dtype, want in ((">f4", np.complex64), (">c8", np.complex64), (">f8", np.complex128), (">c16", np.complex128)):
        x = random(8, np.dtype(dtype).newbyteorder("="))
        got = fftx.fft(x.astype(dtype))
        assert got.dtype == want
        assert_close(got, np.fft.fft(x), want)
    assert fftx.rfft(np.ones(8, ">f4")).dtype == np.complex64
    # fftx has no extended precision: long doubles are refused rather than rounded.
    if np.dtype(np.longdouble).itemsize > 8:
        with pytest.raises(TypeError):
            fftx.fft(np.ones(8, np.longdouble))
        with pytest.raises(TypeError):
            fftx.ifft(np.ones(8, np.clongdouble))


def test_large_and_prime_lengths():
    x = random(2 ** 16, np.complex64)
    assert_close(fftx.fft(x), np.fft.fft(x.astype(np.complex128)), np.complex64)
    y = random((3, 101), np.float64)
    assert_close(fftx.rfft(y), np.fft.rfft(y), np.float64)


def test_out_and_empty_arrays():
    x = random((4, 8), np.complex128)
    out = np.empty((4, 8), np.complex128)
    assert fftx.fft(x, out=out) is out
    assert_close(out, np.fft.fft(x), np.complex128)
    assert fftx.fft(np.zeros((0, 8), np.complex64)).shape == (0, 8)
    assert fftx.rfft(np.zeros((3, 0, 8))).shape == (3, 0, 5)


def test_bad_arguments_raise_like_numpy():
    x = random(8, np.complex128)
    for n in (0, -1):
        for call in (fftx.fft, fftx.ifft, fftx.rfft, fftx.irfft, fftx.hfft, fftx.ihfft):
            with pytest.raises(ValueError):
                call(x.real if call in (fftx.rfft, fftx.ihfft) else x, n=n)
    # A length is a whole number: numpy raises TypeError for a float (numpy 1 let one equal to the length pass).
    for n in (4.0, 2.5):
        with pytest.raises(TypeError):
            fftx.fft(x, n=n)
    with pytest.raises(TypeError):
        fftx.fft2(random((4, 4), np.complex128), s=(4.0, 4))
    with pytest.raises(ValueError):
        fftx.fft(x, norm="sideways")
    with pytest.raises(np.exceptions.AxisError if hasattr(np, "exceptions") else IndexError):
        fftx.fft(x, axis=1)
    with pytest.raises(TypeError):
        fftx.rfft(x)
    with pytest.raises(ValueError):
        fftx.fftn(x, s=(4, 4), axes=(0,))
    # A real transform needs an axis (numpy raises IndexError, scipy ValueError); no plan is made.
    r = random((4, 8), np.float64)
    for call in (lambda: fftx.rfftn(r, axes=[]), lambda: fftx.rfft2(r, axes=()), lambda: fftx.rfftn(r, s=()),
                 lambda: fftx.irfftn(r, axes=[]), lambda: fftx.ihfftn(r, axes=[])):
        with pytest.raises(ValueError):
            call()


def test_plans_are_cached_per_shape():
    fftx.plan_cache.clear()
    x = random((5, 24), np.complex64)
    fftx.fft(x)
    fftx.fft(x)
    fftx.ifft(x)
    assert len(fftx.plan_cache) == 1
    fftx.fft(random((5, 25), np.complex64))
    fftx.fft(x.astype(np.complex128))
    assert len(fftx.plan_cache) == 3
    # The plans' data past max_bytes go, least recently used first, never the plan in use.
    kept = fftx.plan_cache.max_bytes
    try:
        fftx.plan_cache.max_bytes = 5 * 25 * 8
        fftx.fft(random((5, 25), np.complex64))
        assert len(fftx.plan_cache) == 1
        fftx.fft(x.astype(np.complex128))
        assert len(fftx.plan_cache) == 1
    finally:
        fftx.plan_cache.max_bytes = kept


def test_prebuild_prepares_the_plans_later_calls_use():
    fftx.plan_cache.clear()
    assert fftx.prebuild([(48,), (6, 10)], dtypes=(np.complex64, np.float64), kinds=("c2c", "r2c", "c2r")) == 12
    prepared = len(fftx.plan_cache)
    assert prepared >= 12  # a multi-dimensional c2r takes a complex plan for its other axes too
    x = random((6, 10), np.complex64)
    assert_close(fftx.fftn(x), np.fft.fftn(x), np.complex64)
    r = random(48, np.float64)
    assert_close(fftx.rfft(r), np.fft.rfft(r), np.float64)
    assert len(fftx.plan_cache) == prepared
    with pytest.raises(ValueError):
        fftx.prebuild([(8,)], kinds=("sideways",))


def test_out_of_a_kind_the_result_does_not_fit_raises():
    x = random(64, np.float64)
    with pytest.raises(TypeError):
        fftx.fft(x, out=np.empty(64, np.float64))
    out = np.empty(64, np.complex128)
    assert fftx.fft(x, out=out) is out
    assert_close(out, np.fft.fft(x), np.complex128)


def test_an_axis_named_twice_follows_numpy():
    a = random((12, 10), np.float64)
    for norm in (None, "ortho"):
        got = fftx.rfftn(a, axes=(1, 0, 1), norm=norm)
        assert got.shape == (12, 10)
        assert_close(got, np.fft.rfftn(a, axes=(1, 0, 1), norm=norm), np.float64)
        spectrum = random((12, 10), np.complex128)
        want = np.fft.irfftn(spectrum, axes=(0, 1, 1), norm=norm)
        assert_close(fftx.irfftn(spectrum, axes=(0, 1, 1), norm=norm), want, np.complex128)
        assert_close(fftx.fftn(spectrum, axes=(1, 0, 1), norm=norm), np.fft.fftn(spectrum, axes=(1, 0, 1), norm=norm),
                     np.complex128)


def test_input_that_is_not_numbers_raises():
    for bad in (np.array(["1", "2"]), np.array(["2020-01-01", "2020-01-02"], dtype="datetime64[D]"),
                np.array([1, 2], dtype=object)):
        with pytest.raises(TypeError):
            fftx.fft(bad)


def test_float32_real_transforms_near_the_largest_float():
    # DC = 3.4e38 / 1.5 < FLT_MAX: the R2C's post-process halves before it adds (even lengths, twins of odd
    # lengths in a batch, long lengths), so no intermediate overflows.
    for n in (64, 1000, 4096, 16384, 63, 1001, 1 << 20):
        for rows in (1, 3):
            x = np.full((rows, n), np.float32(3.4e38 / n / 1.5), np.float32)
            got = fftx.rfft(x)
            assert np.isfinite(got).all(), (n, rows)
            assert np.allclose(got[:, 0].real, np.float64(x[0, 0]) * n, rtol=1e-5), (n, rows)
            assert np.abs(got[:, 1:]).max() <= 1e-6 * abs(got[0, 0]), (n, rows)
