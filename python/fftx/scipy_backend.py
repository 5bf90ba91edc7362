"""A scipy.fft backend: `with scipy.fft.set_backend(fftx.scipy_backend): scipy.fft.fft(x)`.

It takes the eighteen transforms fftx implements; for anything else (DCTs and DSTs, a `plan` argument) it answers
NotImplemented and scipy falls back to its own implementation. `workers` and `overwrite_x` are accepted and have
no effect: fftx runs on the OpenCL device and never writes its input.
"""

import inspect

from . import _fft

__ua_domain__ = "numpy.scipy.fft"

_TRANSFORMS = {
    name: getattr(_fft, name)
    for name in (
        "fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn", "hfft",
        "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn",
    )
}


def __ua_function__(method, args, kwargs):
    transform = _TRANSFORMS.get(method.__name__)
    if transform is None:
        return NotImplemented
    bound = inspect.signature(method).bind(*args, **kwargs)
    arguments = dict(bound.arguments)
    if arguments.pop("plan", None) is not None:
        return NotImplemented
    arguments.pop("overwrite_x", None)
    arguments.pop("workers", None)
    arguments["a"] = arguments.pop("x")
    return transform(**arguments)
