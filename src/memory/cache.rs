//! A small cache of triple lookups: "which memories have this predicate with one of these keys".
//!
//! Queries read such id lists off the `(pred, obj_key, subj)` index and intersect them. Repeated
//! queries (an interpreter resolving several references in one tick, a clarification round, a
//! question asked twice) find the lists here instead. Any write that can change triples —
//! adding one, forgetting any memory (deletes cascade to triples), moving facts after a merge, a
//! rolled-back batch — clears the whole cache; perception moving players and mobs does not, so
//! the cache survives ordinary ticks.

use super::types::MemoryId;

/// Id lists of recent lookups, keyed by (predicates, keys).
#[derive(Default)]
pub(crate) struct LookupCache {
    entries: std::cell::RefCell<rustc_hash::FxHashMap<LookupKey, std::rc::Rc<Vec<MemoryId>>>>,
}

/// A lookup: (predicates, keys).
pub(crate) type LookupKey = (Vec<String>, Vec<String>);

impl LookupCache {
    /// Most lists a cache keeps before starting over.
    const CAPACITY: usize = 256;

    pub fn get(&self, key: &LookupKey) -> Option<std::rc::Rc<Vec<MemoryId>>> {
        self.entries.borrow().get(key).cloned()
    }

    pub fn put(&self, key: LookupKey, ids: std::rc::Rc<Vec<MemoryId>>) {
        let mut entries = self.entries.borrow_mut();
        if entries.len() >= Self::CAPACITY {
            entries.clear();
        }
        entries.insert(key, ids);
    }

    pub fn clear(&self) {
        self.entries.borrow_mut().clear();
    }
}
