#!/usr/bin/env python3
"""fftx's Python package against scipy.fft with every CPU as workers, on host numpy arrays.

Each case times one call at a time: warm-up calls first (the plans are made and the kernels compiled there), then
turns that alternate between the two libraries, and the median of every timed call. Plain calls allocate their
result as numpy and scipy do; the in-place column gives fftx `out=x` and scipy `overwrite_x=True` (c2c only).
Prints a table with the machine, the commit and the command; writes a file only with --out.

    FFTX_LIBRARY=target/release/libfftx.so python3 bench/python_host.py
    FFTX_LIBRARY=target/release/libfftx.so python3 bench/python_host.py --cases fft2:64x64,fft:1048576 --seconds 2
"""

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import scipy
import scipy.fft

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY / "python"))

import fftx  # noqa: E402

# (function, shape): complex64 input for the complex transforms, float32 for the real forward ones, the
# complex64 half spectrum for the inverse real ones.
CASES = [
    ("fft", (1 << 20,)),
    ("fft2", (64, 64)),
    ("fft2", (256, 256)),
    ("fft2", (1024, 1024)),
    ("fft2", (2048, 2048)),
    ("rfft", (256, 4096)),
    ("rfft2", (1024, 1024)),
    ("ifft2", (1024, 1024)),
    ("fftn", (64, 64, 64)),
]
COMPLEX = {"fft", "ifft", "fft2", "ifft2", "fftn", "ifftn"}


def parse_cases(text):
    cases = []
    for item in text.split(","):
        name, _, shape = item.partition(":")
        cases.append((name, tuple(int(n) for n in shape.split("x"))))
    return cases


def input_for(name, shape, rng):
    if name.startswith("irfft"):
        half = shape[:-1] + (shape[-1] // 2 + 1,)
        return (rng.standard_normal(half) + 1j * rng.standard_normal(half)).astype(np.complex64), shape
    if name.startswith("rfft"):
        return rng.standard_normal(shape).astype(np.float32), None
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64), None


def calls(name, x, s, workers):
    """(fftx plain, scipy plain, fftx in place, scipy in place) as functions of no argument; the in-place ones
    are None for the real transforms."""
    fx, sp = getattr(fftx, name), getattr(scipy.fft, name)
    kwargs = {} if s is None else {"s": s}
    plain = (lambda: fx(x, **kwargs), lambda: sp(x, workers=workers, **kwargs))
    if name not in COMPLEX:
        return plain + (None, None)
    data = x.copy()
    # The same array transformed again and again would grow without bound: each in-place call starts from a
    # fresh copy of x, made before its timing starts.
    refill = Refill(data, x)
    return plain + (refill.then(lambda: fx(data, out=data)),
                    refill.then(lambda: sp(data, workers=workers, overwrite_x=True)))


class Refill:
    """Copies `source` into `data`; `then(call)` is the call with that copy as its untimed setup."""

    def __init__(self, data, source):
        self.data, self.source = data, source

    def __call__(self):
        np.copyto(self.data, self.source)

    def then(self, call):
        call.setup = self
        return call


def timed(function, count):
    setup = getattr(function, "setup", lambda: None)
    times = []
    for _ in range(count):
        setup()
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return times


def measure(functions, seconds, turns):
    """Median seconds per call of each function (None stays None): warm-up, then `turns` alternating turns of
    about seconds / turns / len(functions) each."""
    present = [f for f in functions if f is not None]
    per_call = {}
    for f in present:
        per_call[f] = max(min(timed(f, 4)), 1e-6)
    samples = {f: [] for f in present}
    for _ in range(turns):
        for f in present:
            count = max(5, int(seconds / turns / len(present) / per_call[f]))
            samples[f] += timed(f, count)
    return [statistics.median(samples[f]) if f is not None else None for f in functions]


def machine():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} logical CPUs"


def commit():
    try:
        head = subprocess.run(["git", "-C", str(REPOSITORY), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(REPOSITORY), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return head + (" (with uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def load_average():
    try:
        return " ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        return "unknown"


def fmt_ms(seconds):
    return "-" if seconds is None else f"{seconds * 1e3:.3f}"


def fmt_ratio(fftx_seconds, scipy_seconds):
    return "-" if fftx_seconds is None else f"{scipy_seconds / fftx_seconds:.2f}x"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=parse_cases, default=CASES,
                        help="name:NxM,... (default: the standard list)")
    parser.add_argument("--seconds", type=float, default=3.0, help="timed seconds per case, all columns (default 3)")
    parser.add_argument("--turns", type=int, default=5, help="alternating turns per case (default 5)")
    parser.add_argument("--workers", type=int, default=os.cpu_count(), help="scipy's workers (default: every CPU)")
    parser.add_argument("--out", type=Path, help="also write the table to this file")
    args = parser.parse_args()

    lines = [
        f"command: {' '.join([Path(sys.executable).name] + sys.argv)}",
        f"machine: {machine()}",
        f"commit:  {commit()}",
        f"load average at the start: {load_average()}",
        f"fftx library: {fftx.library()._name}; numpy {np.__version__}, scipy {scipy.__version__} "
        f"(workers={args.workers})",
        "per call, median ms; ratio = scipy / fftx (above 1: fftx is faster)",
        "",
        f"{'case':<18}{'fftx':>10}{'scipy':>10}{'ratio':>8}{'fftx out=x':>12}{'scipy ow_x':>12}{'ratio':>8}",
    ]
    print("\n".join(lines), flush=True)
    rng = np.random.default_rng(1)
    for name, shape in args.cases:
        x, s = input_for(name, shape, rng)
        fx, sp, fx_in, sp_in = measure(calls(name, x, s, args.workers), args.seconds, args.turns)
        row = (f"{name + ' ' + 'x'.join(map(str, shape)):<18}{fmt_ms(fx):>10}{fmt_ms(sp):>10}{fmt_ratio(fx, sp):>8}"
               f"{fmt_ms(fx_in):>12}{fmt_ms(sp_in):>12}{fmt_ratio(fx_in, sp_in) if sp_in else '-':>8}")
        print(row, flush=True)
        lines.append(row)
    end = f"load average at the end: {load_average()}"
    print(end)
    lines.append(end)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
