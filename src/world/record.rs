//! Keeping the change record and chat log bounded.
//!
//! Worlds keep block changes in order, and readers (perception, the web view) hold cursors
//! counted from the first change ever; they take what is new every tick. A world that kept
//! every change would grow for as long as it runs, so only the newest are kept: once a log
//! holds twice its `keep`, the oldest go, and the world counts how many went so cursors stay
//! valid.

/// Block changes kept at least; a world holds at most twice as many.
pub const KEEP_CHANGES: usize = 100_000;
/// Chat lines kept at least; a world holds at most twice as many.
pub const KEEP_CHAT: usize = 5_000;
/// Pickups kept at least; a world holds at most twice as many.
pub const KEEP_PICKUPS: usize = 1_000;

/// Lets go of the oldest entries of `log` once it holds `2 × keep`, down to `keep`; returns
/// how many went (amortised, a push stays O(1)).
pub fn trim<T>(log: &mut Vec<T>, keep: usize) -> usize {
    if log.len() < 2 * keep.max(1) {
        return 0;
    }
    let cut = log.len() - keep;
    log.drain(..cut);
    cut
}

/// The entries from `cursor` on, of a log that let go of its first `dropped`; and the cursor
/// after the newest.
pub fn since<T>(log: &[T], dropped: usize, cursor: usize) -> (&[T], usize) {
    (&log[cursor.saturating_sub(dropped).min(log.len())..], dropped + log.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_log_keeps_its_newest_and_its_cursors() {
        let (mut log, mut dropped) = (Vec::new(), 0);
        let mut cursor = 0;
        for i in 0..1000u32 {
            log.push(i);
            dropped += trim(&mut log, 100);
            let (new, next) = since(&log, dropped, cursor);
            assert_eq!(new, &[i], "a reader that keeps up misses nothing");
            cursor = next;
        }
        assert!(log.len() < 200 && log.len() >= 100, "{}", log.len());
        assert_eq!(dropped + log.len(), 1000);
        assert_eq!(since(&log, dropped, 0).0.first(), Some(&(dropped as u32)), "an old cursor gets what is kept");
        assert!(since(&log, dropped, 5000).0.is_empty());
    }
}
