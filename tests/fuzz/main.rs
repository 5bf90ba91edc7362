//! Fuzzing with proptest: random sequences of API calls with random plan parameters, against small
//! buffers, through both C APIs exactly as a C program calls them. Every call must answer with a status
//! from the documented table (docs/status.md), never a crash or a hang; a transform that succeeds is checked
//! against a double-precision reference; settings that the contract calls valid must succeed.
//!
//! The budget is fixed for CI: `FFTX_FUZZ_CASES` sequences per API (default 12). A long run sets
//! `FFTX_FUZZ_SECONDS` instead and keeps drawing fresh sequences until the time is up; `FFTX_FUZZ_SEED`
//! replays a run. Each test prints its counts (`--nocapture` shows them).
//!
//! Each API's sequences run twice: with the planner's own choices, and with plans whose tuning caps the
//! single-kernel length at 16 and runs CPU batches in chunks of at most 16 KiB (`DEEP`), so that the same
//! small lengths plan as four-steps, three-pass splits, real stages between passes, chunked batches and,
//! with the no-allocation switch, in-place transposes.
//!
//! `clfft.rs` fuzzes the clFFT API, `fftx.rs` the cuFFT-style one.

mod clfft;
#[path = "../common/mod.rs"]
mod common;
mod fftx;

use common::Prec;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use std::cell::Cell;
use std::time::{Duration, Instant};

/// The tuning of the deep runs: kernels of at most 16 points, CPU batches in chunks of at most 16 KiB.
const DEEP: &str = "profile=cpu;max_leaf=16;chunk=16384";

/// How long and how much to fuzz, from the environment.
struct Budget {
    cases: u32,
    until: Option<Instant>,
    seed: u64,
    /// Keeps the two APIs' sequences apart under one seed.
    salt: u64,
}

impl Budget {
    fn from_env(salt: u64) -> Budget {
        let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
        Budget {
            cases: var("FFTX_FUZZ_CASES").unwrap_or(12) as u32,
            until: var("FFTX_FUZZ_SECONDS").map(|s| Instant::now() + Duration::from_secs(s)),
            seed: var("FFTX_FUZZ_SEED").unwrap_or(0x5EED_F00D) ^ salt,
            salt,
        }
    }

    /// Runs `test` on sequences drawn from `strategy` until the budget is spent; panics with the minimal
    /// failing sequence and the seed that found it.
    fn run<S: Strategy>(&self, name: &str, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
    where
        S::Value: std::fmt::Debug,
    {
        let started = Instant::now();
        let mut round = 0u64;
        loop {
            let seed = self.seed.wrapping_add(round.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let mut bytes = [0u8; 32];
            bytes[..8].copy_from_slice(&seed.to_le_bytes());
            let config = Config { cases: self.cases, failure_persistence: None, ..Config::default() };
            let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes));
            if let Err(e) = runner.run(&strategy, &test) {
                panic!("{name}: found with FFTX_FUZZ_SEED={}: {e}", seed ^ self.salt);
            }
            round += 1;
            match self.until {
                Some(t) if Instant::now() < t => {}
                _ => break,
            }
        }
        println!(
            "fuzz {name}: {} sequences, {} API calls, {} transforms checked against the reference, in {:.1} s",
            round * self.cases as u64,
            CALLS.get(),
            CHECKED.get(),
            started.elapsed().as_secs_f64()
        );
    }
}

thread_local! {
    // Per test: each runs its sequences on its own thread.
    static CALLS: Cell<u64> = const { Cell::new(0) };
    static CHECKED: Cell<u64> = const { Cell::new(0) };
}

fn counted<T>(status: T) -> T {
    CALLS.set(CALLS.get() + 1);
    status
}

fn checked() {
    CHECKED.set(CHECKED.get() + 1);
}

fn precision_of(double: bool) -> Prec {
    if double {
        Prec::Double
    } else {
        Prec::Single
    }
}

/// Offset of element `index` (fastest axis first) of `lengths` laid out with `strides`.
fn offset(mut index: usize, lengths: &[usize], strides: &[usize]) -> usize {
    let mut at = 0;
    for (l, s) in lengths.iter().zip(strides) {
        at += (index % l) * s;
        index /= l;
    }
    at
}

/// One past the last position `lengths` x `batch` reach with `strides` and `dist`.
fn extent(lengths: &[usize], strides: &[usize], dist: usize, batch: usize) -> usize {
    lengths.iter().zip(strides).map(|(l, s)| (l - 1) * s).sum::<usize>() + (batch - 1) * dist + 1
}

/// The layout contract: no two elements at one position. Axes sorted by stride must each clear the extent
/// of the axes below them (lengths of 1 take no room).
fn disjoint(lengths: &[usize], strides: &[usize], dist: usize, batch: usize) -> bool {
    let mut axes: Vec<(usize, usize)> =
        lengths.iter().zip(strides).map(|(&l, &s)| (s, l)).chain([(dist, batch)]).filter(|&(_, l)| l > 1).collect();
    axes.sort();
    let mut reach = 1;
    for (stride, length) in axes {
        if stride < reach {
            return false;
        }
        reach += (length - 1) * stride;
    }
    true
}

fn lengths_strategy() -> impl Strategy<Value = Vec<usize>> {
    // 85 and 255: odd, with a prime above 13 beside a factor of 5 to 16 (real twins split across the lanes).
    // 256, 1000 and 1024 take three passes under `DEEP`, and 256 and 1024 in place without scratch.
    let sizes = vec![24, 32, 49, 60, 64, 85, 97, 128, 243, 255, 256, 1000, 1024];
    let length = prop_oneof![4 => 1usize..=20, 1 => prop::sample::select(sizes)];
    prop::collection::vec(length, 1..=3).prop_filter("small", |l| l.iter().product::<usize>() <= 4096)
}

#[test]
fn clfft_call_sequences() {
    clfft::call_sequences(None);
}

#[test]
fn clfft_call_sequences_deep() {
    clfft::call_sequences(Some(DEEP));
}

#[test]
fn fftx_call_sequences() {
    fftx::call_sequences(None);
}

#[test]
fn fftx_call_sequences_deep() {
    fftx::call_sequences(Some(DEEP));
}
