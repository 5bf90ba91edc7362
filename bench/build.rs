//! Compiles the VkFFT shim when Debian's header-only VkFFT is installed, and tells the program whether it did.

use std::path::Path;

const VKFFT_HEADER: &str = "/usr/include/vkFFT.h";

fn main() {
    println!("cargo:rustc-check-cfg=cfg(vkfft)");
    println!("cargo:rerun-if-changed=shim/vkfft_shim.c");
    println!("cargo:rerun-if-changed={VKFFT_HEADER}");
    if !Path::new(VKFFT_HEADER).exists() {
        return;
    }
    cc::Build::new()
        .file("shim/vkfft_shim.c")
        .opt_level(2)
        // vkFFT.h is third-party code that trips many warnings; they are not ours to fix.
        .warnings(false)
        .compile("fftx_vkfft_shim");
    println!("cargo:rustc-link-lib=OpenCL");
    println!("cargo:rustc-link-lib=m");
    println!("cargo:rustc-cfg=vkfft");
}
