//! dlopen/dlsym. fftx and clFFT export the same symbol names, so each is opened RTLD_LOCAL | RTLD_DEEPBIND:
//! neither can interpose on the other, and each resolves its own calls inside itself first.

use std::ffi::{c_void, CStr, CString};

pub struct Library {
    handle: *mut c_void,
    pub path: String,
}

impl Library {
    /// Opens `path` (a file path, or a soname looked up the usual way). Libraries stay loaded until the
    /// process exits: their static state (program caches, singletons) must outlive every call.
    pub fn open(path: &str) -> Result<Self, String> {
        let name = CString::new(path).map_err(|_| format!("{path:?}: a NUL byte in the path"))?;
        let handle = unsafe { libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL | libc::RTLD_DEEPBIND) };
        if handle.is_null() {
            return Err(last_error());
        }
        Ok(Library { handle, path: path.to_string() })
    }

    /// The address of `name`, as a function pointer of type `F`.
    ///
    /// # Safety
    /// `F` must be an `extern "C" fn` type whose signature matches the symbol's.
    pub unsafe fn function<F: Copy>(&self, name: &str) -> Result<F, String> {
        assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<*mut c_void>());
        let symbol = CString::new(name).map_err(|_| format!("{name:?}: a NUL byte in the name"))?;
        let address = libc::dlsym(self.handle, symbol.as_ptr());
        if address.is_null() {
            return Err(format!("{}: no symbol {name}", self.path));
        }
        Ok(std::mem::transmute_copy::<*mut c_void, F>(&address))
    }
}

fn last_error() -> String {
    let message = unsafe { libc::dlerror() };
    if message.is_null() {
        "dlopen failed".into()
    } else {
        unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned()
    }
}
