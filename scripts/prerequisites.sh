#!/usr/bin/env bash
# Installs what fftx needs on Debian with apt-get, when missing. Python packages come from Debian too; the
# test suite installs the fftx package into the project's virtual environment (.venv, see scripts/test), never
# into the system's or the user's Python.
#
#   scripts/prerequisites.sh demo   the demo: a C toolchain, the PoCL OpenCL runtime (CPU device), and the
#                                   CA certificates cargo needs to download crates
#   scripts/prerequisites.sh test   (the default) the whole test suite: the above, the comparison libraries
#                                   (clFFT and its client, VkFFT, FFTW), ufo-filters (a clFFT application),
#                                   make, CMake and patchelf for the installation tests, g++ (fftx.h is
#                                   compiled as C++ too), Oclgrind (GPU kernels checked for races),
#                                   LeakSanitizer's runtime, and Python 3 with venv, numpy, scipy and pytest
set -euo pipefail

purpose="${1:-test}"
packages=(ca-certificates gcc libc6-dev pkg-config pocl-opencl-icd ocl-icd-opencl-dev opencl-headers clinfo)
case "$purpose" in
    demo) ;;
    test)
        packages+=(g++ make cmake patchelf binutils liblsan0 oclgrind libclfft-dev clfft-client libvkfft-dev
                   libfftw3-dev ufo-filters libufo-bin python3 python3-venv python3-numpy python3-scipy python3-pytest)
        ;;
    *) echo "usage: scripts/prerequisites.sh [demo|test]" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "installing with apt-get: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! command -v cargo >/dev/null; then
    echo "cargo not found: install Rust (https://rustup.rs) and run again" >&2
    exit 1
fi
