//! `fftx-prebuild` fills the disk cache with the kernels of the shapes it is given, and refuses bad arguments.

use std::path::Path;
use std::process::Command;

fn prebuild(cache: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_fftx-prebuild"))
        .args(args)
        .env("FFTX_CACHE_DIR", cache)
        .output()
        .expect("run fftx-prebuild")
}

#[test]
fn prebuild_fills_the_disk_cache() {
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("prebuild-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    let output = prebuild(&cache, &["--kind", "c2c,r2c", "--placement", "out", "96", "12x10"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("4 plans baked, 0 failed"), "{stdout}");
    let entries = std::fs::read_dir(&cache).expect("the cache folder").count();
    assert!(entries >= 4, "{entries} entries in the cache");
    // A second run finds every program there and builds none.
    let output = prebuild(&cache, &["--kind", "c2c,r2c", "--placement", "out", "96", "12x10"]);
    assert!(output.status.success());
    assert_eq!(std::fs::read_dir(&cache).expect("the cache folder").count(), entries);
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn prebuild_refuses_bad_arguments() {
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("prebuild-refused");
    for args in [&["12x"][..], &["--kind", "c3c", "64"], &["--batch", "0", "64"], &[]] {
        let output = prebuild(&cache, args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("usage: fftx-prebuild"), "{args:?}");
    }
}
