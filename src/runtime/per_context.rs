//! Values cached per OpenCL context, a bounded number, for the few contexts used last. What such a cache
//! holds (programs, kernels, buffers) retains its context, so a cache that kept every context an application
//! ever made would keep them all alive: an application that makes a context per job would leak one each time.

use std::collections::HashMap;
use std::hash::Hash;

/// Contexts whose values are kept: one per device of a multi-device application, say.
pub const KEPT_CONTEXTS: usize = 8;

/// Values by (context, device, key). Using a context that is not among the `KEPT_CONTEXTS` used last drops
/// the values of the one used longest ago; a value past `capacity` drops the one used longest ago. Dropped
/// values go back to the caller to release after its lock: releasing programs frees their LLVM modules,
/// which other threads' bakes need not wait for.
pub struct PerContext<K, V> {
    /// Each value with the tick of its last use.
    values: HashMap<(usize, usize, K), (V, u64)>,
    /// Contexts with values, the one used last at the end.
    recent: Vec<usize>,
    capacity: usize,
    tick: u64,
}

impl<K: Eq + Hash + Clone, V: Clone> PerContext<K, V> {
    pub fn new(capacity: usize) -> Self {
        PerContext { values: HashMap::new(), recent: Vec::new(), capacity: capacity.max(1), tick: 0 }
    }

    /// The value for `key` in `context` on `device`, made by `make` if there is none, and the values dropped
    /// to make room, for the caller to release.
    pub fn get_or_insert_with(
        &mut self,
        context: usize,
        device: usize,
        key: K,
        make: impl FnOnce() -> V,
    ) -> (V, Vec<V>) {
        let key = (context, device, key);
        let mut dropped = self.use_context(context);
        if !self.values.contains_key(&key) && self.values.len() >= self.capacity {
            let oldest = self.values.iter().min_by_key(|(_, (_, used))| *used).map(|(k, _)| k.clone());
            dropped.extend(oldest.and_then(|k| self.values.remove(&k)).map(|(value, _)| value));
        }
        let tick = self.next_tick();
        let (value, used) = self.values.entry(key).or_insert_with(|| (make(), tick));
        *used = tick;
        (value.clone(), dropped)
    }

    /// The value for `key` in `context` on `device`, if there is one.
    pub fn get(&mut self, context: usize, device: usize, key: K) -> Option<&V> {
        let key = (context, device, key);
        if !self.values.contains_key(&key) {
            return None;
        }
        // A context with values is among the kept ones: using it drops nothing.
        self.use_context(context);
        let tick = self.next_tick();
        self.values.get_mut(&key).map(|(value, used)| {
            *used = tick;
            &*value
        })
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.values.len()
    }

    pub fn clear(&mut self) {
        self.values.clear();
        self.recent.clear();
    }

    fn next_tick(&mut self) -> u64 {
        self.tick += 1;
        self.tick
    }

    /// Makes `context` the one used last; returns the values of the context that falls out of the kept ones.
    fn use_context(&mut self, context: usize) -> Vec<V> {
        self.recent.retain(|&c| c != context);
        self.recent.push(context);
        if self.recent.len() <= KEPT_CONTEXTS {
            return Vec::new();
        }
        let oldest = self.recent.remove(0);
        let keys: Vec<_> = self.values.keys().filter(|(c, _, _)| *c == oldest).cloned().collect();
        keys.iter().filter_map(|k| self.values.remove(k)).map(|(value, _)| value).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    #[test]
    fn keeps_the_values_of_the_contexts_used_last() {
        let held = Rc::new(());
        let mut cache: PerContext<u32, Rc<()>> = PerContext::new(100);
        let mut dropped = Vec::new();
        for context in 0..KEPT_CONTEXTS + 3 {
            for key in 0..2 {
                dropped.extend(cache.get_or_insert_with(context, 0, key, || held.clone()).1);
            }
            // Context 0 stays in use, so it is never the one used longest ago.
            assert!(cache.get(0, 0, 1).is_some());
        }
        assert_eq!(cache.len(), 2 * KEPT_CONTEXTS);
        assert_eq!(dropped.len(), 6);
        drop(dropped);
        assert_eq!(Rc::strong_count(&held), 1 + 2 * KEPT_CONTEXTS, "dropped values are released");
        assert!(cache.get(1, 0, 0).is_none() && cache.get(2, 0, 1).is_none() && cache.get(3, 0, 0).is_none());
        assert!(cache.get(0, 0, 0).is_some() && cache.get(KEPT_CONTEXTS + 2, 0, 1).is_some());
        cache.clear();
        assert_eq!(cache.len(), 0);
        assert_eq!(Rc::strong_count(&held), 1);
    }

    #[test]
    fn keeps_at_most_capacity_values_dropping_the_one_used_longest_ago() {
        let mut cache: PerContext<u32, u32> = PerContext::new(3);
        for key in 0..3 {
            assert!(cache.get_or_insert_with(1, 0, key, || key).1.is_empty());
        }
        assert_eq!(cache.get(1, 0, 0), Some(&0), "key 0 used again: key 1 is now the oldest");
        assert_eq!(cache.get_or_insert_with(1, 0, 3, || 3), (3, vec![1]));
        assert_eq!(cache.len(), 3);
        assert_eq!(cache.get(1, 0, 1), None);
        for key in [0, 2, 3] {
            assert_eq!(cache.get(1, 0, key), Some(&key));
        }
        assert_eq!(cache.get_or_insert_with(1, 0, 2, || 20), (2, vec![]), "a hit makes nothing");
    }

    #[test]
    fn keys_differ_by_device() {
        let mut cache: PerContext<u32, u32> = PerContext::new(10);
        assert_eq!(cache.get_or_insert_with(5, 1, 7, || 10).0, 10);
        assert_eq!(cache.get(5, 1, 7), Some(&10));
        assert_eq!(cache.get(5, 2, 7), None);
        assert_eq!(cache.get_or_insert_with(5, 2, 7, || 20).0, 20);
    }
}
