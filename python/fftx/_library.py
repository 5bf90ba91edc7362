"""Finding and loading libfftx.so, and the ctypes signatures of the cuFFT-style API it exports."""

import ctypes
import ctypes.util
import os
import threading
from pathlib import Path

_lock = threading.Lock()
_library = None

# fftxResult values, as in fftx.h.
STATUS_NAMES = {
    0: "FFTX_SUCCESS",
    1: "FFTX_INVALID_PLAN",
    2: "FFTX_ALLOC_FAILED",
    3: "FFTX_INVALID_TYPE",
    4: "FFTX_INVALID_VALUE",
    5: "FFTX_INTERNAL_ERROR",
    6: "FFTX_EXEC_FAILED",
    7: "FFTX_SETUP_FAILED",
    8: "FFTX_INVALID_SIZE",
    9: "FFTX_UNALIGNED_DATA",
    11: "FFTX_INVALID_DEVICE",
    13: "FFTX_NO_WORKSPACE",
    14: "FFTX_NOT_IMPLEMENTED",
    16: "FFTX_NOT_SUPPORTED",
}


class LibraryNotFoundError(OSError):
    """libfftx.so could not be loaded from any of the places fftx looks."""


class FftxError(RuntimeError):
    """A call into libfftx.so failed; `status` is its fftxResult."""

    def __init__(self, call, status, reason=""):
        self.call = call
        self.status = status
        self.reason = reason
        name = STATUS_NAMES.get(status, "unknown status")
        super().__init__(f"{call} failed with {name} ({status})" + (f": {reason}" if reason else ""))


def _candidates():
    """(how, path) pairs in the order fftx tries them."""
    configured = os.environ.get("FFTX_LIBRARY")
    if configured:
        yield "FFTX_LIBRARY", configured
    yield "next to the package", str(Path(__file__).resolve().parent / "libfftx.so")
    yield "the system loader", "libfftx.so"
    found = ctypes.util.find_library("fftx")
    if found:
        yield "ctypes.util.find_library", found


def _declare(lib):
    c_int, c_ll, c_void_p, c_size_t = ctypes.c_int, ctypes.c_longlong, ctypes.c_void_p, ctypes.c_size_t
    lib.fftxCreate.argtypes = [ctypes.POINTER(c_int)]
    lib.fftxDestroy.argtypes = [c_int]
    lib.fftxMakePlanMany64.argtypes = [
        c_int, c_int, ctypes.POINTER(c_ll), c_void_p, c_ll, c_ll, c_void_p, c_ll, c_ll, c_int, c_ll,
        ctypes.POINTER(c_size_t),
    ]
    for name in ("fftxExecC2C", "fftxExecZ2Z"):
        getattr(lib, name).argtypes = [c_int, c_void_p, c_void_p, c_int]
    for name in ("fftxExecR2C", "fftxExecC2R", "fftxExecD2Z", "fftxExecZ2D"):
        getattr(lib, name).argtypes = [c_int, c_void_p, c_void_p]
    lib.fftxGetVersion.argtypes = [ctypes.POINTER(c_int)]
    lib.fftxGetLastErrorMessage.argtypes = []
    lib.fftxGetLastErrorMessage.restype = ctypes.c_char_p
    for function in (
        lib.fftxCreate, lib.fftxDestroy, lib.fftxMakePlanMany64, lib.fftxExecC2C, lib.fftxExecZ2Z, lib.fftxExecR2C,
        lib.fftxExecC2R, lib.fftxExecD2Z, lib.fftxExecZ2D, lib.fftxGetVersion,
    ):
        function.restype = c_int
    return lib


def library():
    """The loaded libfftx.so (loaded on first use)."""
    global _library
    with _lock:
        if _library is None:
            tried = []
            for how, path in _candidates():
                try:
                    lib = ctypes.CDLL(path)
                except OSError as error:
                    tried.append(f"{how}: {path}: {error}")
                    continue
                if not hasattr(lib, "fftxMakePlanMany64"):
                    tried.append(f"{how}: {path}: loaded, but it does not export the fftx API")
                    continue
                _library = _declare(lib)
                break
            else:
                raise LibraryNotFoundError(
                    "cannot load libfftx.so; tried\n  "
                    + "\n  ".join(tried)
                    + "\nbuild it with `cargo build --release` and set FFTX_LIBRARY=/path/to/libfftx.so, copy it next "
                    "to the fftx package, or put its folder on LD_LIBRARY_PATH"
                )
        return _library


def check(call, status):
    """Raises FftxError for a failed call, with the library's reason (the words FFTX_LOG=error prints)."""
    if status != 0:
        reason = _library.fftxGetLastErrorMessage().decode("utf-8", "replace")
        raise FftxError(call, status, reason)
