"""Points the package at the library cargo built when FFTX_LIBRARY is not set, and keeps compiled kernels in
the repository's test cache."""

import os
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]

if "FFTX_LIBRARY" not in os.environ:
    built = REPOSITORY / "target" / "release" / "libfftx.so"
    if built.is_file():
        os.environ["FFTX_LIBRARY"] = str(built)
os.environ.setdefault("FFTX_CACHE_DIR", str(REPOSITORY / "target" / "fftx-test-cache"))
os.environ["FFTX_BUILD_OPTIONS"] = "-Werror"  # a compiler warning in a kernel fails the test
