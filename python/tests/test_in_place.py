"""Transforms into their own input: `out=x`, cuFFT's padded layout of in-place real transforms, scipy's
overwrite_x; what each call allocates in Python and which pointers it hands the library."""

import tracemalloc

import numpy as np
import pytest

import fftx
from fftx import _fft

from test_numpy_compat import assert_close, random


@pytest.fixture
def runs(monkeypatch):
    """The (input, output) addresses of every execution the package asks of the library."""
    seen = []
    real_run = _fft._run

    def run(fft_type, source, target, rank, direction=None):
        seen.append((source.ctypes.data, target.ctypes.data))
        return real_run(fft_type, source, target, rank, direction)

    monkeypatch.setattr(_fft, "_run", run)
    return seen


def peak_allocated(call):
    """The most memory that numpy and Python held at once during `call`, above what they held before it."""
    call()  # plans and kernels first
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        call()
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name, shape", [("fft", (96,)), ("ifft", (5, 40)), ("fft2", (24, 20)), ("ifft2", (3, 16, 12)),
                                         ("fftn", (6, 8, 10))])
def test_out_the_input_transforms_in_place(name, shape, dtype, runs):
    x = random(shape, dtype)
    want = getattr(np.fft, name)(x.astype(np.complex128))
    for norm in (None, "ortho"):
        data = x.copy()
        address = data.ctypes.data
        runs.clear()
        got = getattr(fftx, name)(data, norm=norm, out=data)
        assert got is data
        assert runs == [(address, address)]
        assert_close(got, getattr(np.fft, name)(x.astype(np.complex128), norm=norm), dtype)
    assert_close(getattr(fftx, name)(x, out=x), want, dtype)


def test_out_the_input_along_leading_axes_is_right():
    # The transformed axes are not last: the pass goes through a contiguous copy, and the result into x.
    x = random((12, 10, 3), np.complex128)
    kept = x.copy()
    assert fftx.fft(x, axis=0, out=x) is x
    assert_close(x, np.fft.fft(kept, axis=0), np.complex128)
    y = np.asfortranarray(random((16, 6), np.complex64))
    kept = y.copy()
    assert fftx.fft2(y, out=y) is y
    assert_close(y, np.fft.fft2(kept), np.complex64)


def test_in_place_allocates_nothing_of_the_datas_size():
    x = random((256, 256), np.complex128)  # 1 MiB
    assert peak_allocated(lambda: fftx.fft2(x, out=x)) < x.nbytes // 16
    assert peak_allocated(lambda: fftx.ifft(x, out=x)) < x.nbytes // 16
    # A plain call allocates its result and nothing else.
    assert x.nbytes <= peak_allocated(lambda: fftx.fft2(x)) < 1.25 * x.nbytes
    r = random((256, 256), np.float64)
    assert peak_allocated(lambda: fftx.rfft(r)) < 1.25 * (256 * 129 * 16)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [16, 15])
def test_real_transforms_in_cufft_padded_layout_run_in_place(n, dtype, runs):
    complex_dtype = np.complex64 if dtype == np.float32 else np.complex128
    spectrum = np.zeros((3, 5, n // 2 + 1), complex_dtype)
    reals = spectrum.view(dtype)[..., :n]  # each row of reals at the start of its row of complex values
    values = random(reals.shape, dtype)
    reals[...] = values
    address = spectrum.ctypes.data
    assert fftx.rfft(reals, out=spectrum) is spectrum
    assert runs == [(address, address)]
    assert_close(spectrum, np.fft.rfft(values), dtype)
    runs.clear()
    assert fftx.irfft(spectrum, n=n, out=reals) is reals
    assert runs == [(address, address)]
    assert_close(reals, values, dtype)
    # Two and three axes in one plan, the same way.
    runs.clear()
    assert fftx.rfftn(reals, out=spectrum) is spectrum
    assert runs == [(address, address)]
    assert_close(spectrum, np.fft.rfftn(values), dtype)
    # The inverse: the complex pass down the first axis runs in place too, through cuFFT's advanced layout.
    spectrum, reals = spectrum[0], reals[0]
    want = np.fft.irfft2(spectrum, s=(5, n))
    runs.clear()
    assert fftx.irfft2(spectrum, s=(5, n), out=reals) is reals
    assert runs == [(address, address)] * 2
    assert_close(reals, want, dtype)


def test_real_transforms_into_other_outputs_keep_the_input():
    values = random((4, 10), np.float64)
    spectrum = np.empty((4, 6), np.complex128)
    kept = values.copy()
    assert fftx.rfft(values, out=spectrum) is spectrum
    assert np.array_equal(values, kept)
    assert_close(spectrum, np.fft.rfft(values), np.float64)
    kept = spectrum.copy()
    back = np.empty((4, 10))
    assert fftx.irfft(spectrum, out=back) is back
    assert np.array_equal(spectrum, kept)
    assert_close(back, values, np.float64)


scipy_fft = pytest.importorskip("scipy.fft")


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_scipy_overwrite_x_runs_in_place(dtype, runs):
    with scipy_fft.set_backend(fftx.scipy_backend):
        for name, shape in (("fft", (4, 30)), ("ifft2", (12, 10)), ("fftn", (4, 6, 8))):
            x = random(shape, dtype)
            want = getattr(np.fft, name)(x.astype(np.complex128), norm="ortho")
            address = x.ctypes.data
            runs.clear()
            got = getattr(scipy_fft, name)(x, norm="ortho", overwrite_x=True)
            assert got is x, name
            assert runs == [(address, address)], name
            assert_close(got, want, dtype)
        # Without overwrite_x the input stays as it was; where x cannot take the result, it is still right.
        x = random((8, 6), dtype)
        kept = x.copy()
        assert_close(scipy_fft.fft2(x), np.fft.fft2(kept), dtype)
        assert np.array_equal(x, kept)
        for view in (lambda a: a.T, lambda a: a[:, ::2], lambda a: a.real):
            x = random((8, 6), dtype)
            want = np.fft.fft2(view(x).astype(np.complex128))
            assert_close(scipy_fft.fft2(view(x), overwrite_x=True), want, dtype)
        # n cuts x: the rows of four values are one batch of the advanced layout, transformed in x.
        want = np.fft.fft(x[:, :4].astype(np.complex128))
        runs.clear()
        got = scipy_fft.fft(x, n=4, overwrite_x=True)
        assert runs == [(x.ctypes.data, x.ctypes.data)]
        assert_close(got, want, dtype)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_scipy_overwrite_x_lets_inverse_real_transforms_use_the_input(dtype, runs):
    x = random((5, 9), dtype)
    want = np.fft.irfftn(x.astype(np.complex128), s=(5, 16))
    with scipy_fft.set_backend(fftx.scipy_backend):
        got = scipy_fft.irfftn(x.copy(), s=(5, 16), overwrite_x=True)
        assert_close(got, want, dtype)
        data = x.copy()
        address = data.ctypes.data
        runs.clear()
        got = scipy_fft.irfft(data, overwrite_x=True)
        assert runs[0][0] == address
        assert_close(got, np.fft.irfft(x.astype(np.complex128)), dtype)
        kept = x.copy()
        scipy_fft.irfft(x)
        assert np.array_equal(x, kept)
