//! Plan handles, for both APIs. Handles count up from 1 and are never reused, so a destroyed or
//! double-destroyed handle is always recognised. A plan sits behind its own mutex; an enqueue holds it for
//! the duration of the call, and a plan destroyed meanwhile lives until that call returns.

use super::cufft::CuPlan;
use super::Plan;
use crate::error::{fail, ErrorKind, Result};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// A plan shared between the registry and the calls using it.
pub type Shared<T> = Arc<Mutex<T>>;

/// The clFFT API's plans (`clfftPlanHandle`, a `size_t`).
pub static CLFFT_PLANS: Registry<Plan> = Registry::new(usize::MAX);

/// The cuFFT-style API's plans (`fftxHandle`, an `int`).
pub static CUFFT_PLANS: Registry<CuPlan> = Registry::new(i32::MAX as usize);

/// Live plans by handle.
pub struct Registry<T> {
    plans: Mutex<BTreeMap<usize, Shared<T>>>,
    next: AtomicUsize,
    /// The largest handle the API's handle type holds.
    last: usize,
}

impl<T> Registry<T> {
    pub const fn new(last: usize) -> Registry<T> {
        Registry { plans: Mutex::new(BTreeMap::new()), next: AtomicUsize::new(1), last }
    }

    fn plans(&self) -> MutexGuard<'_, BTreeMap<usize, Shared<T>>> {
        self.plans.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers the plan `make` returns for its new handle.
    pub fn insert_with(&self, make: impl FnOnce(usize) -> T) -> Result<usize> {
        let handle = self.next.fetch_add(1, Ordering::Relaxed);
        if handle == 0 || handle > self.last {
            return fail(ErrorKind::OutOfResources, "every plan handle has been used");
        }
        self.plans().insert(handle, Arc::new(Mutex::new(make(handle))));
        Ok(handle)
    }

    pub fn get(&self, handle: usize) -> Result<Shared<T>> {
        match self.plans().get(&handle) {
            Some(plan) => Ok(plan.clone()),
            None => fail(ErrorKind::InvalidPlan, format!("no plan with handle {handle} (never created, or destroyed)")),
        }
    }

    pub fn remove(&self, handle: usize) -> Result<Shared<T>> {
        match self.plans().remove(&handle) {
            Some(plan) => Ok(plan),
            None => fail(ErrorKind::InvalidPlan, format!("no plan with handle {handle} to destroy")),
        }
    }

    /// Destroys every plan (teardown); returns how many there were.
    pub fn clear(&self) -> usize {
        let mut plans = self.plans();
        let count = plans.len();
        plans.clear();
        count
    }

    /// Number of live plans.
    pub fn len(&self) -> usize {
        self.plans().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Locks a plan, recovering it if a panicking thread poisoned the lock.
pub fn lock<T>(plan: &Shared<T>) -> MutexGuard<'_, T> {
    plan.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_count_up_are_never_reused_and_stop_at_the_last() {
        let registry = Registry::new(3);
        let (a, b) = (registry.insert_with(|h| h * 10).unwrap(), registry.insert_with(|h| h * 10).unwrap());
        assert_eq!((a, b), (1, 2));
        assert_eq!(*lock(&registry.get(b).unwrap()), 20);
        registry.remove(a).unwrap();
        assert_eq!(registry.get(a).unwrap_err().kind, ErrorKind::InvalidPlan);
        assert_eq!(registry.remove(a).unwrap_err().kind, ErrorKind::InvalidPlan);
        assert_eq!(registry.insert_with(|h| h).unwrap(), 3);
        assert_eq!(registry.insert_with(|h| h).unwrap_err().kind, ErrorKind::OutOfResources);
        assert_eq!(registry.clear(), 2);
        assert!(registry.is_empty());
    }
}
