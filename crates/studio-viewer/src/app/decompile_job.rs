//! File ▸ Decompile… in the viewer: the open model's sources written on a thread of their own,
//! so the window keeps drawing, with the share done for a progress bar. The model decompiled
//! is the one shown, edits included.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

use studio_decompile::{DecompileError, goldsrc, source};

/// The model a job decompiles.
#[derive(Clone, Debug)]
pub enum DecompileModel {
    /// A version 10 model.
    Gold(Arc<studio_model::Model>),
    /// A Source model, with the collision model beside its file.
    Source(Arc<studio_source::SourceModel>, Option<studio_source::Phy>),
}

/// What a finished job did.
#[derive(Clone, Debug, PartialEq)]
pub struct DecompileDone {
    /// Files written.
    pub files: usize,
    /// Their bytes.
    pub bytes: u64,
    /// Seconds it took.
    pub seconds: f64,
    /// What the sources say other than the model does (`Decompiled::warnings`).
    pub warnings: Vec<String>,
}

/// A decompile running on its own thread.
#[derive(Debug)]
pub struct DecompileJob {
    /// The folder written into.
    pub dir: PathBuf,
    /// The share done, 0 to 1, as `f32` bits.
    progress: Arc<AtomicU32>,
    result: Receiver<Result<DecompileDone, DecompileError>>,
}

impl DecompileJob {
    /// Starts decompiling `model` (saved as `stem.mdl`) into `dir`.
    pub fn start(model: DecompileModel, stem: String, dir: PathBuf) -> Self {
        let progress = Arc::new(AtomicU32::new(0));
        let (send, result) = channel();
        let (shared, out) = (Arc::clone(&progress), dir.clone());
        std::thread::spawn(move || {
            let started = std::time::Instant::now();
            let mut tell = |share: f32| shared.store((share * 0.9).to_bits(), Ordering::Relaxed);
            let files = match &model {
                DecompileModel::Gold(model) => goldsrc::decompile(model, &stem, &mut tell),
                DecompileModel::Source(model, phy) => {
                    source::decompile(model, phy.as_ref(), &stem, &mut tell)
                }
            };
            let done = files.and_then(|files| {
                files.write_to(&out)?;
                Ok(DecompileDone {
                    files: files.files.len(),
                    bytes: files.size(),
                    seconds: started.elapsed().as_secs_f64(),
                    warnings: files.warnings,
                })
            });
            shared.store(1.0f32.to_bits(), Ordering::Relaxed);
            // The window may be gone; nobody is left to tell then.
            let _ = send.send(done);
        });
        Self { dir, progress, result }
    }

    /// The share done, 0 to 1 (the last tenth is the writing).
    pub fn progress(&self) -> f32 {
        f32::from_bits(self.progress.load(Ordering::Relaxed))
    }

    /// The result, once the job has finished.
    pub fn poll(&self) -> Option<Result<DecompileDone, DecompileError>> {
        match self.result.try_recv() {
            Ok(result) => Some(result),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(DecompileError::Write {
                path: self.dir.clone(),
                message: "the decompile stopped before it finished".into(),
            })),
        }
    }
}
