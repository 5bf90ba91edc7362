//! Compiles the VkFFT shim when Debian's header-only VkFFT is installed, and tells the program whether it did.

use std::path::Path;

const VKFFT_FOLDER: &str = "/usr/include";
const VKFFT_HEADER: &str = "/usr/include/vkFFT.h";

fn main() {
    println!("cargo:rustc-check-cfg=cfg(vkfft)");
    println!("cargo:rerun-if-changed=shim/vkfft_shim.c");
    if !Path::new(VKFFT_HEADER).exists() {
        // The folder, not the header: a package installs the header with its release date as its time, which
        // looks older than this script's last run, so the shim would stay out until a clean build.
        println!("cargo:rerun-if-changed={VKFFT_FOLDER}");
        return;
    }
    println!("cargo:rerun-if-changed={VKFFT_HEADER}");
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
