//! Test support shared by the studioview crates' tests (a dev-dependency only).
//!
//! Tests read the format's fixtures, real models and reference poses from `../shared` beside
//! the checkout, which CI always has. A user's fresh clone may not: then [`shared`] says so and
//! returns `None`, and the test passes over what needs it.

#![forbid(unsafe_code)]

use std::path::PathBuf;

/// `../shared` beside the repository, if it is there. Under CI (`CI` set) its absence fails the
/// test instead, so CI can never pass by skipping.
pub fn shared() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    if dir.join("fixtures").is_dir() {
        return Some(dir);
    }
    assert!(std::env::var_os("CI").is_none(), "../shared is missing, and CI must always have it");
    eprintln!("note: ../shared is missing; skipping the checks that need its models");
    None
}

/// The bytes of a file under `../shared`.
pub fn read(shared: &std::path::Path, path: &str) -> Vec<u8> {
    std::fs::read(shared.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// xorshift64*: a small seeded generator, so every run of a randomized test checks the same
/// cases.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`: any value, different seeds giving different streams.
    pub fn new(seed: u64) -> Self {
        // Spread the seed over all bits (the state must not be 0).
        Self(seed.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}
