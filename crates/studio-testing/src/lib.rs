//! Test support shared by the studioview crates' tests (a dev-dependency only).
//!
//! Tests read the format's fixtures, real models and reference poses from `../shared` beside
//! the checkout, which CI always has. A user's fresh clone may not: then [`shared`] says so and
//! returns `None`, and the test passes over what needs it.

#![forbid(unsafe_code)]

pub mod phy;
pub mod png_image;
pub mod process;
pub mod source_face;
pub mod source_mdl;
pub mod sprite_file;

use std::path::{Path, PathBuf};

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

/// Valve's Half-Life studiomdl for the tests that build what we decompile: `../shared`'s, a
/// Linux program, on Linux and macOS. A Windows test binary cannot start a Linux program (not
/// under Wine either), so there it is the `studiomdl.exe` that `STUDIOVIEW_STUDIOMDL` names, or
/// `None`, said: the Linux run of the same tests builds with `../shared`'s.
pub fn studiomdl(shared: &Path) -> Option<PathBuf> {
    if !cfg!(windows) {
        return Some(shared.join("tools/studiomdl/studiomdl"));
    }
    let named = std::env::var_os("STUDIOVIEW_STUDIOMDL").map(PathBuf::from);
    if named.is_none() {
        eprintln!(
            "note: ../shared's studiomdl is a Linux program, which Windows cannot start; set \
             STUDIOVIEW_STUDIOMDL to a Windows studiomdl.exe to build with it here"
        );
    }
    named
}

/// The bytes of a file under `../shared`.
pub fn read(shared: &std::path::Path, path: &str) -> Vec<u8> {
    std::fs::read(shared.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Allocation a reader may make per byte of input (textures decode to 4 bytes a pixel,
/// vertices to `Vec3`s, files are kept for later stages...), plus a fixed allowance.
pub const ALLOC_PER_INPUT_BYTE: u64 = 40;
/// The fixed allowance.
pub const ALLOC_BASE: u64 = 1 << 20;

/// Runs `read` on `input_bytes` bytes of input, checking that it neither panics nor allocates
/// out of proportion, and that an error names its place ("at byte"); returns whether it read
/// the input. `what` names the case in the message of a failure.
pub fn read_guarded(
    input_bytes: u64,
    what: &str,
    read: impl FnOnce() -> Result<(), String>,
) -> Result<bool, String> {
    let mut result = None;
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        allocation_counter::measure(|| {
            result = Some(read());
        })
        .bytes_max
    }));
    let peak = run.map_err(|_| format!("{what}: the reader panicked"))?;
    let limit = ALLOC_PER_INPUT_BYTE * input_bytes + ALLOC_BASE;
    if peak > limit {
        return Err(format!("{what}: peak allocation {peak} bytes for {input_bytes} input bytes"));
    }
    match result {
        Some(Ok(())) => Ok(true),
        Some(Err(message)) if message.contains("at byte") => Ok(false),
        Some(Err(message)) => Err(format!("{what}: error without a place: {message}")),
        None => Err(format!("{what}: no result")),
    }
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

    /// A float in [0, 1), from the top 24 bits.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// Applies one to four mutations to `bytes`: bit flips, int32 fields (the header's `fields.1`
/// counts and offsets from byte `fields.0`, or any aligned one) and int16s set to values at the
/// edges, and cuts. The same seed gives the same mutations.
pub fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>, fields: (usize, usize)) {
    for _ in 0..1 + rng.below(4) {
        let len = bytes.len();
        if len < 4 {
            return;
        }
        match rng.below(10) {
            // Flip a few bits anywhere.
            0 | 1 => {
                for _ in 0..1 + rng.below(8) {
                    let at = rng.below(len);
                    bytes[at] ^= 1 << rng.below(8);
                }
            }
            // Overwrite a header count or offset, or any aligned int32 (record counts and
            // offsets are aligned), with a value chosen to hit the edges.
            2..=6 => {
                let at = if rng.below(3) == 0 {
                    fields.0 + 4 * rng.below(fields.1)
                } else {
                    4 * rng.below(len / 4)
                };
                if at + 4 > len {
                    continue;
                }
                let value: i64 = match rng.below(12) {
                    0 => 0,
                    1 => -1,
                    2 => i64::from(i32::MAX),
                    3 => i64::from(i32::MIN),
                    4 => 0x7FFF,
                    5 => len as i64,
                    6 => len as i64 - 1,
                    7 => len as i64 - 4,
                    8 => len as i64 - 1 - rng.below(64) as i64,
                    9 => rng.below(len) as i64,
                    10 => 1 + rng.below(300) as i64,
                    _ => rng.next_u64() as i32 as i64,
                };
                bytes[at..at + 4].copy_from_slice(&(value as i32).to_le_bytes());
            }
            // Overwrite an int16 (triangle commands, skin table, animation offsets and runs).
            7 | 8 => {
                let at = 2 * rng.below(len / 2);
                let value: i16 = match rng.below(6) {
                    0 => 0,
                    1 => -1,
                    2 => i16::MAX,
                    3 => i16::MIN,
                    4 => rng.below(64) as i16,
                    _ => rng.next_u64() as i16,
                };
                bytes[at..at + 2].copy_from_slice(&value.to_le_bytes());
            }
            // Cut the end off.
            _ => {
                let keep = len - rng.below(len.min(4096));
                bytes.truncate(keep);
            }
        }
    }
}

/// An empty folder `name` under `root` (a test's `env!("CARGO_TARGET_TMPDIR")`), made afresh:
/// whatever an earlier run left there is removed.
pub fn scratch(root: &str, name: &str) -> PathBuf {
    let dir = Path::new(root).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// `std::fs::copy`, with the copy made writable: the shared files may be read-only, a copy keeps
/// their permissions, and Windows then refuses to delete the copy (or its test folder).
pub fn copy(from: impl AsRef<Path>, to: impl AsRef<Path>) -> std::io::Result<u64> {
    let to = to.as_ref();
    let bytes = std::fs::copy(from, to)?;
    let mut permissions = std::fs::metadata(to)?.permissions();
    if permissions.readonly() {
        #[allow(clippy::permissions_set_readonly_false)] // The owner's write bit: a test's own copy.
        permissions.set_readonly(false);
        std::fs::set_permissions(to, permissions)?;
    }
    Ok(bytes)
}

/// Copies the files (not the folders) of `from` for which `keep` holds into `to`.
pub fn copy_files(from: &Path, to: &Path, keep: impl Fn(&Path) -> bool) {
    let entries = std::fs::read_dir(from).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    for entry in entries {
        let path = entry.unwrap_or_else(|e| panic!("{}: {e}", from.display())).path();
        if path.is_file() && keep(&path) {
            let name = path.file_name().unwrap_or_default();
            copy(&path, to.join(name)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
}

/// Every truncation and 20,000 mutations of `file` through `read`, each guarded by
/// [`read_guarded`]: an error must name its place, and nothing may panic or allocate out of
/// proportion. `name` names the file in a failure (and seeds the mutations).
pub fn robust(name: &str, file: &[u8], read: impl Fn(&[u8]) -> Result<(), String>) {
    for len in 0..file.len() {
        read_guarded(len as u64, &format!("{name} cut to {len}"), || read(&file[..len])).unwrap();
    }
    let mut rng = Rng::new(name.len() as u64);
    for case in 0..20_000 {
        let mut bytes = file.to_vec();
        mutate(&mut rng, &mut bytes, (0, 24));
        read_guarded(bytes.len() as u64, &format!("{name} mutation {case}"), || read(&bytes)).unwrap();
    }
}

/// Writes `bytes` to `root/relative`, making the folders on the way.
pub fn write_below(root: &Path, relative: &str, bytes: &[u8]) {
    let path = root.join(relative);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    }
    std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}
