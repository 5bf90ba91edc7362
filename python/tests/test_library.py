"""How the package finds libfftx.so, and what it says when it cannot."""

import os
import subprocess
import sys
from pathlib import Path

PACKAGE_PARENT = str(Path(__file__).resolve().parents[1])


def run_python(code, env_changes):
    env = dict(os.environ, PYTHONPATH=PACKAGE_PARENT, **env_changes)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)


def test_missing_library_lists_what_was_tried():
    result = run_python(
        "import fftx, numpy\nfftx.fft(numpy.ones(4))",
        {"FFTX_LIBRARY": "/nonexistent/libfftx.so", "LD_LIBRARY_PATH": "/nonexistent"},
    )
    assert result.returncode != 0
    message = result.stderr
    assert "LibraryNotFoundError" in message
    assert "FFTX_LIBRARY: /nonexistent/libfftx.so" in message
    assert "next to the package" in message
    assert "the system loader" in message


def test_library_from_the_environment_is_used():
    library = os.environ["FFTX_LIBRARY"]
    result = run_python("import fftx\nprint(fftx.library()._name)", {"FFTX_LIBRARY": library})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == library


def test_batches_larger_than_the_device_run_in_parts():
    # PoCL with 1 GiB of memory allows 256 MiB per buffer: 328 MB of rows (and as much of spectra) run in parts
    # of 838 transforms (268 MB of spectra), the odd length too.
    code = """
import numpy as np, fftx
for n in (40000, 40001):
    x = np.random.default_rng(7).standard_normal((1024, n))
    got = fftx.rfft(x)
    want = np.fft.rfft(x)
    print(np.abs(got - want).max() / np.abs(want).max())
"""
    env = {"FFTX_LIBRARY": os.environ["FFTX_LIBRARY"], "POCL_MEMORY_LIMIT": "1", "FFTX_LOG": "plan"}
    result = run_python(code, env)
    assert result.returncode == 0, result.stderr
    for error in result.stdout.split():
        assert float(error) < 1e-12
    parts = [line for line in result.stderr.splitlines() if "host data of 1024 transforms in parts of" in line]
    assert len(parts) == 2, result.stderr[-2000:]


def test_strided_arrays_larger_than_the_device_go_through_a_copy():
    # 288 MB down the columns: the advanced layout that reads them where they lie is more than PoCL with 1 GiB
    # allows in one buffer (256 MiB), so the pass copies them contiguous and runs there in parts.
    code = """
import numpy as np, fftx
x = np.random.default_rng(3).standard_normal((6000, 6000)).astype(np.float32).astype(np.complex64)
got = fftx.fft(x, axis=0)
want = np.fft.fft(x[:, :5].astype(np.complex128), axis=0)
print(np.abs(got[:, :5] - want).max() / np.abs(want).max())
"""
    env = {"FFTX_LIBRARY": os.environ["FFTX_LIBRARY"], "POCL_MEMORY_LIMIT": "1"}
    result = run_python(code, env)
    assert result.returncode == 0, result.stderr
    assert float(result.stdout) < 2e-5


def test_errors_carry_the_librarys_reason():
    import pytest
    from fftx._library import FftxError, check, library

    status = library().fftxDestroy(987654321)
    with pytest.raises(FftxError) as raised:
        check("fftxDestroy", status)
    assert raised.value.status == 1
    assert raised.value.reason.startswith("fftxDestroy: ")
    assert str(raised.value).startswith("fftxDestroy failed with FFTX_INVALID_PLAN (1): fftxDestroy: ")


def _transform_in_child(results):
    import numpy as np

    import fftx

    try:
        fftx.fft(np.ones(8))
        results.put("ok")
    except fftx.FftxError as error:
        results.put(str(error))


def test_multiprocessing_fork_fails_clearly_and_spawn_works():
    import multiprocessing

    import numpy as np

    import fftx

    fftx.fft(np.ones(8))  # the parent has used OpenCL
    for method, expected in (("fork", "does not survive fork()"), ("spawn", "ok")):
        context = multiprocessing.get_context(method)
        results = context.Queue()
        child = context.Process(target=_transform_in_child, args=(results,))
        child.start()
        said = results.get(timeout=120)
        child.join(60)
        assert expected in said, (method, said)
