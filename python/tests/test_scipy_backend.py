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
