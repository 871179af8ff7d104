//! When to try again after the server went away: exponential backoff, capped and bounded.
//!
//! A server restart takes seconds to a minute; a kick may be deliberate. So the bot retries soon
//! at first, then less and less often (doubling up to [`Backoff::max`]), and gives up after
//! [`Backoff::max_attempts`] failed attempts in a row instead of hammering a server forever.
//! A successful join resets the count. There is no jitter: it is one bot, not a crowd.

use std::time::Duration;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backoff {
    pub initial: Duration,
    pub max: Duration,
    pub max_attempts: u32,
    attempts: u32,
}

impl Default for Backoff {
    /// 1 s, 2 s, 4 s, 8 s, 16 s, then every 30 s; 20 attempts (about 8 minutes) in all.
    fn default() -> Self {
        Backoff::new(Duration::from_secs(1), Duration::from_secs(30), 20)
    }
}

impl Backoff {
    pub fn new(initial: Duration, max: Duration, max_attempts: u32) -> Backoff {
        Backoff { initial, max: max.max(initial), max_attempts, attempts: 0 }
    }

    /// The wait before the next attempt, or `None` when the attempts are used up.
    pub fn next_delay(&mut self) -> Option<Duration> {
        if self.attempts >= self.max_attempts {
            return None;
        }
        let factor = 1u32.checked_shl(self.attempts.min(31)).unwrap_or(u32::MAX);
        self.attempts += 1;
        Some(self.initial.saturating_mul(factor).min(self.max))
    }

    /// Attempts made since the last success.
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// The bot joined: the next failure starts from the short delay again.
    pub fn reset(&mut self) {
        self.attempts = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(b: &mut Backoff) -> Vec<u64> {
        std::iter::from_fn(|| b.next_delay()).map(|d| d.as_secs()).collect()
    }

    #[test]
    fn doubles_up_to_the_cap_then_gives_up() {
        let mut b = Backoff::default();
        let s = secs(&mut b);
        assert_eq!(&s[..7], &[1, 2, 4, 8, 16, 30, 30]);
        assert_eq!(s.len(), 20);
        assert_eq!(s.iter().sum::<u64>(), 1 + 2 + 4 + 8 + 16 + 30 * 15);
        assert_eq!(b.next_delay(), None, "stays exhausted");
        assert_eq!(b.attempts(), 20);
    }

    #[test]
    fn a_success_resets() {
        let mut b = Backoff::new(Duration::from_millis(500), Duration::from_secs(2), 3);
        assert_eq!(b.next_delay(), Some(Duration::from_millis(500)));
        assert_eq!(b.next_delay(), Some(Duration::from_secs(1)));
        b.reset();
        assert_eq!(b.next_delay(), Some(Duration::from_millis(500)));
        assert_eq!(b.next_delay(), Some(Duration::from_secs(1)));
        assert_eq!(b.next_delay(), Some(Duration::from_secs(2)));
        assert_eq!(b.next_delay(), None);
    }

    #[test]
    fn huge_attempt_counts_do_not_overflow() {
        let mut b = Backoff::new(Duration::from_secs(1), Duration::from_secs(60), 100);
        let last = std::iter::from_fn(|| b.next_delay()).last();
        assert_eq!(last, Some(Duration::from_secs(60)));
    }
}
