//! What of a model `render` and `export` (and the viewer's File ▸ Export) draw or write: the
//! body number, the skin family, the level of detail and the game folders Source materials are
//! looked up in.

use std::path::PathBuf;

/// The choices of what is shown.
#[derive(clap::Args, Clone, Debug, Default, PartialEq)]
pub struct Shown {
    /// Body number (picks each body part's submodel).
    #[arg(long, default_value_t = 0)]
    pub body: i32,
    /// Skin family.
    #[arg(long, default_value_t = 0)]
    pub skin: usize,
    /// Level of detail, 0 the finest (Source models).
    #[arg(long, default_value_t = 0)]
    pub lod: usize,
    /// A game folder to look materials up in besides the model's own (Source models;
    /// repeatable).
    #[arg(long)]
    pub game: Vec<PathBuf>,
}
