"""fftx: numpy.fft-compatible FFTs on any OpenCL device, through libfftx.so's cuFFT-style API.

    import fftx, numpy
    spectrum = fftx.fft(numpy.random.rand(1024).astype(numpy.float32))   # complex64, computed by fftx

`fftx.scipy_backend` plugs the same transforms into scipy.fft. Plans are made once per shape, type, batch
and layout and kept in `fftx.plan_cache` (least recently used first out). `fftx.fft(x, out=x)` transforms `x`
in place; the package's README lists what each call allocates. A shape's first transform compiles its
kernels (0.1 to a few seconds, then cached on disk); `fftx.prebuild(shapes)` does that ahead of time.
"""

# numpy.fft's helpers compute no transform; they are here so that `import fftx as fft` serves code written
# for numpy.fft.
from numpy.fft import fftfreq, fftshift, ifftshift, rfftfreq

from . import scipy_backend
from ._fft import (fft, fft2, fftn, hfft, hfft2, hfftn, ifft, ifft2, ifftn, ihfft, ihfft2, ihfftn, irfft, irfft2,
                   irfftn, plan_cache, prebuild, rfft, rfft2, rfftn)
from ._library import FftxError, LibraryNotFoundError, library

__version__ = "0.1.0"

__all__ = [
    "fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
    "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift",
    "scipy_backend", "plan_cache", "prebuild", "library", "FftxError", "LibraryNotFoundError",
]
