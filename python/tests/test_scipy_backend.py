"""fftx as a scipy.fft backend."""

import numpy as np
import pytest

import fftx

scipy_fft = pytest.importorskip("scipy.fft")


def test_scipy_uses_fftx_and_matches():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((6, 20)) + 1j * rng.standard_normal((6, 20))
    r = rng.standard_normal((6, 20)).astype(np.float32)
    fftx.plan_cache.clear()
    with scipy_fft.set_backend(fftx.scipy_backend):
        results = {
            "fft": (scipy_fft.fft(x, 24, -1, "ortho", False, 2), np.fft.fft(x, 24, norm="ortho")),
            "ifft2": (scipy_fft.ifft2(x, axes=(1, 0)), np.fft.ifft2(x, axes=(1, 0))),
            "fftn": (scipy_fft.fftn(x, workers=4), np.fft.fftn(x)),
            "rfft": (scipy_fft.rfft(r, axis=0), np.fft.rfft(r, axis=0)),
            "irfftn": (scipy_fft.irfftn(x, s=(6, 18), axes=(0, 1)), np.fft.irfftn(x, s=(6, 18), axes=(0, 1))),
            "hfft": (scipy_fft.hfft(x, 30, norm="forward"), np.fft.hfft(x, 30, norm="forward")),
            "ihfft": (scipy_fft.ihfft(r, axis=0), np.fft.ihfft(r, axis=0)),
        }
        # Transforms fftx does not implement fall back to scipy's own.
        dct = scipy_fft.dct(r.astype(np.float64))
    assert len(fftx.plan_cache) > 0, "scipy.fft ran on fftx"
    for name, (got, want) in results.items():
        assert got.shape == want.shape, name
        assert np.abs(got - want).max() < 1e-4 * np.abs(want).max(), name
    assert results["rfft"][0].dtype == np.complex64
    assert np.allclose(dct, scipy_fft.dct(r.astype(np.float64)))


def test_multidimensional_hermitian_transforms_match_scipy():
    rng = np.random.default_rng(11)
    x = rng.standard_normal((5, 6, 9)) + 1j * rng.standard_normal((5, 6, 9))
    r = rng.standard_normal((5, 6, 16))
    cases = {
        "hfft2": lambda f: f.hfft2(x),
        "hfftn s": lambda f: f.hfftn(x, s=(4, 6, 15), norm="ortho"),
        "hfftn axes": lambda f: f.hfftn(x, axes=(0, 2), norm="forward"),
        "ihfft2": lambda f: f.ihfft2(r),
        "ihfftn": lambda f: f.ihfftn(r, s=(5, 4, 12), norm="backward"),
        "ihfftn axes": lambda f: f.ihfftn(r, axes=(2, 0), norm="forward"),
    }
    fftx.plan_cache.clear()
    with scipy_fft.set_backend(fftx.scipy_backend):
        through_backend = {name: case(scipy_fft) for name, case in cases.items()}
    assert len(fftx.plan_cache) > 0, "scipy.fft ran on fftx"
    for name, case in cases.items():
        want = case(scipy_fft)
        for got in (case(fftx), through_backend[name]):
            assert got.shape == want.shape, name
            assert got.dtype == want.dtype, name
            assert np.abs(got - want).max() < 1e-10 * np.abs(want).max(), name
