//! Plan handles. Handles count up from 1 and are never reused, so a destroyed or double-destroyed handle is
//! always recognised. A plan sits behind its own mutex; enqueue holds it for the duration of the call, and
//! a plan destroyed meanwhile lives until that call returns.

use super::Plan;
use crate::error::{fail, ErrorKind, Result};
use once_cell::sync::Lazy;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

pub type Shared = Arc<Mutex<Plan>>;

static PLANS: Lazy<Mutex<HashMap<usize, Shared>>> = Lazy::new(|| Mutex::new(HashMap::new()));
static NEXT: AtomicUsize = AtomicUsize::new(1);

fn plans() -> MutexGuard<'static, HashMap<usize, Shared>> {
    PLANS.lock().unwrap_or_else(|e| e.into_inner())
}

pub fn insert(mut plan: Plan) -> usize {
    let handle = NEXT.fetch_add(1, Ordering::Relaxed);
    plan.handle = Some(handle);
    plans().insert(handle, Arc::new(Mutex::new(plan)));
    handle
}

pub fn get(handle: usize) -> Result<Shared> {
    match plans().get(&handle) {
        Some(plan) => Ok(plan.clone()),
        None => fail(ErrorKind::InvalidPlan, format!("no plan with handle {handle} (never created, or destroyed)")),
    }
}

pub fn remove(handle: usize) -> Result<Shared> {
    match plans().remove(&handle) {
        Some(plan) => Ok(plan),
        None => fail(ErrorKind::InvalidPlan, format!("no plan with handle {handle} to destroy")),
    }
}

/// Destroys every plan (teardown).
pub fn clear() -> usize {
    let mut map = plans();
    let count = map.len();
    map.clear();
    count
}

/// Number of live plans.
pub fn len() -> usize {
    plans().len()
}

/// Locks a plan, recovering it if a panicking thread poisoned the lock.
pub fn lock(plan: &Shared) -> MutexGuard<'_, Plan> {
    plan.lock().unwrap_or_else(|e| e.into_inner())
}
