"""A scipy.fft backend: `with scipy.fft.set_backend(fftx.scipy_backend): scipy.fft.fft(x)`.

It takes the eighteen transforms fftx implements; for anything else (DCTs and DSTs, a `plan` argument) it answers
NotImplemented and scipy falls back to its own implementation. `workers` is accepted and has no effect: fftx
runs on the OpenCL device. `overwrite_x=True` lets a complex transform (fft, ifft, fft2, ifft2, fftn, ifftn) run
in place, its result in `x`'s memory (what it returns is `x` or a view of it), where `x` is complex64 or
complex128 in the machine's byte order, writable, and laid out as a plan reads it (python/README.md lists the
layouts); and it lets an inverse real transform (irfft, irfft2, irfftn) overwrite `x` instead of a copy of it.
Elsewhere it has no effect, and without it fftx never writes the input.
"""

from . import _fft

__ua_domain__ = "numpy.scipy.fft"


def _one_dimensional(run):
    """scipy's signature of a one-dimensional transform, over `run(x, s, axes, norm, overwrite_x)`."""

    def transform(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
        if plan is not None:
            return NotImplemented
        return run(x, _fft._one_length(n), [axis], norm, overwrite_x)

    return transform


def _multidimensional(run, default_axes):
    """scipy's signature of a 2D or N-D transform, over `run(x, s, axes, norm, overwrite_x)`."""

    def transform(x, s=None, axes=default_axes, norm=None, overwrite_x=False, workers=None, *, plan=None):
        if plan is not None:
            return NotImplemented
        return run(x, s, axes, norm, overwrite_x)

    return transform


def _forward(x, s, axes, norm, overwrite_x):
    return _fft._complex_nd(x, s, axes, norm, None, _fft._FORWARD, overwrite=overwrite_x)


def _inverse(x, s, axes, norm, overwrite_x):
    return _fft._complex_nd(x, s, axes, norm, None, _fft._INVERSE, overwrite=overwrite_x)


def _real(x, s, axes, norm, overwrite_x):
    return _fft._real_nd(x, s, axes, norm, None)


def _inverse_real(x, s, axes, norm, overwrite_x):
    return _fft._inverse_real_nd(x, s, axes, norm, None, overwrite=overwrite_x)


def _hermitian(x, s, axes, norm, overwrite_x):
    return _fft.hfftn(x, s, axes, norm)


def _inverse_hermitian(x, s, axes, norm, overwrite_x):
    return _fft.ihfftn(x, s, axes, norm)


_TRANSFORMS = {}
for _prefix, _run in (("", _forward), ("i", _inverse), ("r", _real), ("ir", _inverse_real), ("h", _hermitian),
                      ("ih", _inverse_hermitian)):
    _TRANSFORMS[_prefix + "fft"] = _one_dimensional(_run)
    _TRANSFORMS[_prefix + "fft2"] = _multidimensional(_run, (-2, -1))
    _TRANSFORMS[_prefix + "fftn"] = _multidimensional(_run, None)
del _prefix, _run


def __ua_function__(method, args, kwargs):
    transform = _TRANSFORMS.get(method.__name__)
    if transform is None:
        return NotImplemented
    return transform(*args, **kwargs)
