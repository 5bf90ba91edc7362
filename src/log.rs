//! `FFTX_LOG` diagnostics on stderr.
//!
//! `FFTX_LOG` is a list of topics separated by `,` or `|`: `error` (every failure returned to a caller, with
//! its reason and any OpenCL build log), `info` (device choice, cache hits and misses, allocations), `plan`
//! (the execution tree of each baked plan), `kernels` (the source and options of each compiled kernel),
//! `steps` (each step of a transform timed alone: the enqueue waits for every kernel, so transforms run
//! slower), or `all`.

use once_cell::sync::Lazy;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topic {
    Error = 1,
    Info = 2,
    Plan = 4,
    Kernels = 8,
    Steps = 16,
}

impl Topic {
    fn name(self) -> &'static str {
        match self {
            Topic::Error => "error",
            Topic::Info => "info",
            Topic::Plan => "plan",
            Topic::Kernels => "kernels",
            Topic::Steps => "steps",
        }
    }
}

static ENABLED: Lazy<u32> = Lazy::new(|| parse(&std::env::var("FFTX_LOG").unwrap_or_default()));

fn parse(spec: &str) -> u32 {
    spec.split([',', '|'])
        .map(|word| match word.trim().to_ascii_lowercase().as_str() {
            "error" => Topic::Error as u32,
            "info" => Topic::Info as u32,
            "plan" => Topic::Plan as u32,
            "kernels" => Topic::Kernels as u32,
            "steps" => Topic::Steps as u32,
            "all" => 31,
            _ => 0,
        })
        .fold(0, |a, b| a | b)
}

pub fn enabled(topic: Topic) -> bool {
    *ENABLED & topic as u32 != 0
}

/// Writes one message under `topic` when that topic is on. A failed write is ignored: `eprintln!` would panic
/// (a closed stderr pipe with SIGPIPE ignored), and logging runs after the C ABI's panic guard.
pub fn write(topic: Topic, message: &str) {
    if enabled(topic) {
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "fftx[{}]: {}", topic.name(), message);
    }
}

/// `log!(Topic::Info, "format", args)`: formats only when the topic is on.
#[macro_export]
macro_rules! log {
    ($topic:expr, $($arg:tt)*) => {
        if $crate::log::enabled($topic) {
            $crate::log::write($topic, &format!($($arg)*));
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_topic_lists() {
        assert_eq!(parse(""), 0);
        assert_eq!(parse("error"), 1);
        assert_eq!(parse("error|plan"), 5);
        assert_eq!(parse("info, kernels"), 10);
        assert_eq!(parse("plan,steps"), 20);
        assert_eq!(parse("all"), 31);
        assert_eq!(parse("nonsense"), 0);
    }
}
