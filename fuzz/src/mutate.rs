//! A small seeded mutator for the short random run that `cargo test` makes.
//!
//! Not coverage-guided — that is what `cargo fuzz` is for. It re-mixes the committed corpus,
//! which coverage already chose, so the ordinary test run meets inputs nobody wrote down,
//! without building libFuzzer or instrumenting the dependencies. The same seed gives the same
//! inputs; the test prints it.

/// A xorshift generator and the mutations it drives.
pub struct Mutator {
    state: u64,
}

/// Bytes that mean something to some target: line and word breaks, slashes, quotes, brackets,
/// the TOML and JSON punctuation, a `§` half, an escape and the ends of the byte range.
const INTERESTING: &[u8] = b"\n \t/\\\"'[]{}=,:<>0\x1b\xc2\xa7\x00\x7f\xff";

impl Mutator {
    pub fn new(seed: u64) -> Mutator {
        Mutator { state: seed | 1 }
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.state = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }

    /// `input` changed one to four times, sometimes with a piece of `other` spliced in; at most
    /// `max_len` bytes.
    pub fn mutate(&mut self, input: &[u8], other: &[u8], max_len: usize) -> Vec<u8> {
        let mut out = input.to_vec();
        for _ in 0..1 + self.below(4) {
            let at = self.below(out.len() + 1);
            match self.below(6) {
                0 if !out.is_empty() => {
                    let i = at.min(out.len() - 1);
                    out[i] ^= 1 << self.below(8);
                }
                1 if !out.is_empty() => {
                    let i = at.min(out.len() - 1);
                    out[i] = INTERESTING[self.below(INTERESTING.len())];
                }
                2 => {
                    let bytes: Vec<u8> = (0..1 + self.below(8)).map(|_| self.next() as u8).collect();
                    out.splice(at..at, bytes);
                }
                3 => {
                    let end = (at + 1 + self.below(16)).min(out.len());
                    out.drain(at.min(end)..end);
                }
                4 => {
                    let end = (at + 1 + self.below(32)).min(out.len());
                    let piece = out[at.min(end)..end].to_vec();
                    let to = self.below(out.len() + 1);
                    out.splice(to..to, piece);
                }
                _ => {
                    let from = self.below(other.len() + 1);
                    let end = (from + 1 + self.below(64)).min(other.len());
                    out.splice(at..at, other[from.min(end)..end].iter().copied());
                }
            }
        }
        out.truncate(max_len);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_inputs() {
        let (mut a, mut b) = (Mutator::new(9), Mutator::new(9));
        let seeds: Vec<Vec<u8>> = (0..50).map(|i| a.mutate(b"build a red cube", format!("{i}").as_bytes(), 64)).collect();
        let again: Vec<Vec<u8>> = (0..50).map(|i| b.mutate(b"build a red cube", format!("{i}").as_bytes(), 64)).collect();
        assert_eq!(seeds, again);
        assert!(seeds.iter().any(|s| s != b"build a red cube"), "it mutates");
        assert!(seeds.iter().all(|s| s.len() <= 64), "it keeps to the length");
    }
}
