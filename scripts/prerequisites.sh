#!/usr/bin/env bash
# Installs what fftx needs on Debian when it is missing: the PoCL OpenCL runtime (CPU device), the ICD
# loader and headers, the comparison libraries the tests and benchmark use (clFFT, VkFFT, FFTW), and the
# tools the installation tests build with (pkg-config, CMake), LeakSanitizer's runtime (the C tests), and
# ufo-filters, a clFFT application the installation tests run on fftx.
set -euo pipefail

packages=(pocl-opencl-icd ocl-icd-opencl-dev opencl-headers clinfo libclfft-dev clfft-client libvkfft-dev
          libfftw3-dev pkg-config cmake liblsan0 ufo-filters libufo-bin)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "installing: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# The Python package's tests: numpy (which it needs), scipy (its backend) and pytest.
if ! python3 -c "import numpy, scipy, pytest" 2>/dev/null; then
    echo "installing: numpy scipy pytest (pip)"
    python3 -m pip install --quiet numpy scipy pytest
fi
if ! command -v cargo >/dev/null; then
    echo "cargo not found: install Rust (https://rustup.rs) and run again" >&2
    exit 1
fi
