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
    /// A Half-Life player's colours, TOP,BOTTOM (0-255 each): they recolour the model's
    /// DM_Base and Remap textures as the game does.
    #[arg(long = "player-colors", value_name = "TOP,BOTTOM", value_parser = parse_player_colours)]
    pub player_colours: Option<(u8, u8)>,
    /// Level of detail, 0 the finest (Source models).
    #[arg(long, default_value_t = 0)]
    pub lod: usize,
    /// A game folder to look materials up in besides the model's own (Source models;
    /// repeatable).
    #[arg(long)]
    pub game: Vec<PathBuf>,
}

/// `TOP,BOTTOM`, each 0-255.
fn parse_player_colours(text: &str) -> Result<(u8, u8), String> {
    let parse =
        |part: &str| part.trim().parse::<u8>().map_err(|_| format!("{part:?} is not a colour from 0 to 255"));
    match text.split_once(',') {
        Some((top, bottom)) => Ok((parse(top)?, parse(bottom)?)),
        None => Err("give two colours, TOP,BOTTOM".to_owned()),
    }
}

impl Shown {
    /// The player's colours as the renderer takes them.
    pub fn colours(&self) -> Option<studio_render::goldsrc::PlayerColours> {
        self.player_colours.map(|(top, bottom)| studio_render::goldsrc::PlayerColours { top, bottom })
    }
}
