//! A user's clFFT callback (`clfftSetPlanCallback`): the pre-callback computes the input the transform reads,
//! the post-callback receives the output it writes.
//!
//! The callbacks run in the loads of the plan's kernels that read the input and the stores of the kernel that
//! writes the output, whether Stockham, elementwise or transpose (`FusedCallbacks`, `kernels/access.cl`), as
//! clFFT runs them. Where the user's code does not build inside those kernels, each runs as a pass of its own
//! over its side (`CallbackKernel`, `kernels/callback.cl`), at the cost of one more read and write of
//! that side and a copy of it.

use super::{Defines, KernelSource, COMMON_CL};
use crate::types::Precision;

/// A user's callback as a kernel calls it, in its loads and stores or in a pass of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserCallback {
    /// The user's function name and code.
    pub function: String,
    pub code: String,
    /// The function takes a `__local` buffer as its last argument.
    pub local_mem: bool,
}

/// The callbacks fused into one kernel: the pre-callback into its loads, the post-callback into its stores.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FusedCallbacks {
    pub pre: Option<UserCallback>,
    pub post: Option<UserCallback>,
}

impl FusedCallbacks {
    /// PRE_CALLBACK, PRE_FN and PRE_LOCAL, and the same for POST.
    pub(crate) fn define(&self, d: &mut Defines) {
        for (prefix, callback) in [("PRE", &self.pre), ("POST", &self.post)] {
            d.flag(&format!("{prefix}_CALLBACK"), callback.is_some());
            if let Some(c) = callback {
                d.set(&format!("{prefix}_FN"), self.name(prefix, c)).flag(&format!("{prefix}_LOCAL"), c.local_mem);
            }
        }
    }

    /// Both callbacks in one piece of code, which then comes once.
    fn shared_code(&self) -> bool {
        matches!((&self.pre, &self.post), (Some(pre), Some(post)) if pre.code == post.code)
    }

    /// The name the kernel calls a callback by. Two pieces of code may each name their function alike (each
    /// ran in a program of its own before): each is renamed for the kernel, a macro around its code.
    fn name(&self, prefix: &str, callback: &UserCallback) -> String {
        if self.shared_code() {
            callback.function.clone()
        } else {
            format!("fftx_{}_callback", prefix.to_lowercase())
        }
    }

    /// Kernel `entry` of `program`, with the user's code ahead of the kernel's defines and files, so that
    /// neither sees the other's macros (the kernel's single letters would break the user's names); double
    /// precision enabled first, as clFFT does.
    pub fn ahead_of(&self, entry: &'static str, program: String, precision: Precision) -> KernelSource {
        if self.pre.is_none() && self.post.is_none() {
            return KernelSource::own(entry, program);
        }
        let mut source = String::new();
        if precision == Precision::Double {
            source.push_str("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
        }
        if self.shared_code() {
            source.push_str(&self.pre.as_ref().map_or(String::new(), |c| format!("{}\n", c.code)));
        } else {
            for (prefix, callback) in [("PRE", &self.pre), ("POST", &self.post)] {
                if let Some(c) = callback {
                    let name = self.name(prefix, c);
                    source.push_str(&format!("#define {} {name}\n{}\n#undef {}\n", c.function, c.code, c.function));
                }
            }
        }
        KernelSource { entry, source: source + &program, user_code: true }
    }
}

const CALLBACK_CL: &str = include_str!("../../kernels/callback.cl");

/// Work-items per work-group of a callback pass, at most.
const GROUP: usize = 256;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallbackStage {
    Pre,
    Post,
}

/// How the user's data is stored on the callback's side, which fixes its prototype.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallbackElement {
    Real,
    Interleaved,
    Planar,
}

#[derive(Debug, Clone)]
pub struct CallbackKernel {
    pub stage: CallbackStage,
    pub precision: Precision,
    pub element: CallbackElement,
    pub callback: UserCallback,
    /// (count, stride) of each dimension of the side, fastest first, the batch last.
    pub dims: Vec<(usize, usize)>,
    /// The device's largest work-group.
    pub max_group: usize,
}

impl CallbackKernel {
    pub fn source(&self) -> KernelSource {
        let mut d = Defines::default();
        if self.precision == Precision::Double {
            d.set("FFTX_DOUBLE", 1);
        }
        let element = match self.element {
            CallbackElement::Real => 0,
            CallbackElement::Interleaved => 1,
            CallbackElement::Planar => 2,
        };
        // Offsets are the uint clFFT's prototypes take while they fit.
        let wide = self.reach() > u32::MAX as usize;
        d.set("VW", 1)
            .set("IDX", if wide { "ulong" } else { "uint" })
            .flag("PRE", self.stage == CallbackStage::Pre)
            .set("ELEMENT", element)
            .flag("LOCAL_MEM", self.callback.local_mem)
            .set("NDIM", self.dims.len())
            .set("CALLBACK", &self.callback.function);
        KernelSource {
            entry: "fftx_callback",
            source: d.program(&[COMMON_CL, &self.callback.code, CALLBACK_CL]),
            user_code: true,
        }
    }

    /// (count, stride) pairs for `params`.
    pub fn params(&self) -> Vec<u64> {
        self.dims.iter().flat_map(|&(count, stride)| [count as u64, stride as u64]).collect()
    }

    /// Elements along dimension 0, the kernel's global x; the other dimensions make up global y.
    pub fn count(&self) -> usize {
        self.dims[0].0
    }

    /// One work-item per element: groups of up to `GROUP` along dimension 0.
    pub fn work_size(&self) -> ([usize; 2], [usize; 2]) {
        let group = self.count().next_power_of_two().min(GROUP).min(prev_power_of_two(self.max_group));
        let rows = self.dims[1..].iter().map(|d| d.0).product();
        ([self.count().div_ceil(group) * group, rows], [group, 1])
    }

    /// One past the furthest element the pass touches.
    pub fn reach(&self) -> usize {
        self.dims.iter().map(|&(count, stride)| (count - 1) * stride).sum::<usize>() + 1
    }
}

fn prev_power_of_two(n: usize) -> usize {
    if n == 0 {
        1
    } else {
        1 << n.ilog2()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Precision;

    #[test]
    fn the_user_code_precedes_the_pass_that_calls_it() {
        let kernel = CallbackKernel {
            stage: CallbackStage::Post,
            precision: Precision::Double,
            element: CallbackElement::Planar,
            callback: UserCallback {
                function: "scaled".into(),
                code:
                    "void scaled(__global void *re, __global void *im, uint k, __global void *u, double a, double b) {}"
                        .into(),
                local_mem: false,
            },
            dims: vec![(5, 1), (3, 8), (2, 40)],
            max_group: 1024,
        };
        let source = kernel.source().source;
        assert!(source.find("void scaled(").unwrap() < source.find("__kernel void fftx_callback").unwrap());
        assert!(source.contains("#define CALLBACK scaled") && source.contains("#define PRE 0"));
        assert_eq!(kernel.params(), [5, 1, 3, 8, 2, 40]);
        assert_eq!((kernel.count(), kernel.reach()), (5, 4 + 16 + 40 + 1));
        assert_eq!(kernel.work_size(), ([8, 6], [8, 1]));
        let long = CallbackKernel { dims: vec![(1000, 1), (3, 1000)], ..kernel.clone() };
        assert_eq!(long.work_size(), ([1024, 3], [256, 1]));
        assert_eq!(CallbackKernel { max_group: 100, ..long }.work_size(), ([1024, 3], [64, 1]));
    }
}
