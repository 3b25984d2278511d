//! Half-Life's muzzle flashes: what a model's flash events draw, and the sprites they draw.
//!
//! The client's `HUD_StudioEvent` (HL SDK `cl_dll/entity.cpp`) turns events 5001, 5011, 5021
//! and 5031 into `R_MuzzleFlash` at the entity's attachment 0, 1, 2 or 3, with the event's
//! options read by `atoi` as the flash's type. The engine's `R_MuzzleFlash` then:
//!
//! - picks the sprite `sprites/muzzleflash{N}.spr`, N − 1 = type mod 5, kept within 0–2;
//! - scales it by (type / 10) × 0.1 (integer division), or 0.5 where that is 0; the rifle
//!   flash (sprite 1) takes a further random 0.5–0.6 of that;
//! - draws it additively (`kRenderTransAdd`, amount 255), at a random frame, rolled by a
//!   random multiple of 90° (rifle) or any whole degree (the others);
//! - removes it 0.01 s later: one frame of the game.
//!
//! Where the game draws at random, a flash here draws from numbers fixed by where the event
//! is (its sequence, its place and the loop it fired in), so that a capture is reproducible.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use studio_sprite::Sprite;

/// The events that flash, in attachment order.
pub const FLASH_EVENTS: [i32; 4] = [5001, 5011, 5021, 5031];

/// The sprites of `R_MuzzleFlash`, below a game folder.
pub const FLASH_SPRITES: [&str; 3] =
    ["sprites/muzzleflash1.spr", "sprites/muzzleflash2.spr", "sprites/muzzleflash3.spr"];

/// How long a flash is shown, in seconds (`die = cl.time + 0.01`).
pub const FLASH_LIFE: f64 = 0.01;

/// One flash, as `R_MuzzleFlash` sets up its temporary entity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MuzzleFlash {
    /// The attachment it is drawn at.
    pub attachment: usize,
    /// Which of [`FLASH_SPRITES`].
    pub sprite: usize,
    /// Its scale.
    pub scale: f32,
    /// Its roll, degrees.
    pub roll: f32,
    /// Which frame of the sprite, reduced modulo its frame count when drawn.
    pub frame: u32,
}

/// C's `atoi`: leading white space, a sign, then digits as far as they go (0 when none);
/// a value past `i32` saturates.
pub fn atoi(text: &str) -> i32 {
    let text = text.trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let mut value: i64 = 0;
    for d in digits.bytes().take_while(u8::is_ascii_digit) {
        value = (value * 10 + i64::from(d - b'0')).min(i64::from(i32::MAX) + 1);
    }
    let value = if negative { -value } else { value };
    value.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// A small fixed sequence of numbers standing in for the game's `RandomLong` and
/// `RandomFloat` (splitmix64).
struct Draws(u64);

impl Draws {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A whole number from `low` to `high`, both included.
    fn long(&mut self, low: u32, high: u32) -> u32 {
        low + (self.next() % u64::from(high - low + 1)) as u32
    }
    /// A number from `low` to `high`.
    fn float(&mut self, low: f32, high: f32) -> f32 {
        low + (self.next() >> 40) as f32 / (1u64 << 24) as f32 * (high - low)
    }
}

/// The flash event `event` with options `options` draws, if it is one; `seed` stands for the
/// game's random draws.
pub fn muzzle_flash(event: i32, options: &str, seed: u64) -> Option<MuzzleFlash> {
    let attachment = FLASH_EVENTS.iter().position(|&e| e == event)?;
    let kind = atoi(options);
    // C's `%` and `/` truncate towards zero; `bound(0, type % 5, 2)`.
    let sprite = (kind % 5).clamp(0, 2) as usize;
    let scale = match (kind / 10) as f32 * 0.1 {
        0.0 => 0.5,
        s => s,
    };
    let mut draws = Draws(seed);
    let frame = draws.next() as u32;
    let (scale, roll) = if sprite == 0 {
        (scale * draws.float(0.5, 0.6), 90.0 * draws.long(0, 3) as f32)
    } else {
        (scale, draws.long(0, 359) as f32)
    };
    Some(MuzzleFlash { attachment, sprite, scale, roll, frame })
}

/// The seed of the flash of event `index` of sequence `sequence` fired in loop `loops`.
pub fn seed(sequence: usize, index: usize, loops: u64) -> u64 {
    (sequence as u64) << 40 ^ (index as u64) << 20 ^ loops
}

/// The muzzle flash sprites of one model, read from its game's search path when first drawn,
/// with what went wrong for those that could not be.
#[derive(Debug, Default)]
pub struct FlashSprites {
    model: Option<PathBuf>,
    extra: Vec<PathBuf>,
    sprites: [Option<Result<Arc<Sprite>, String>>; 3],
}

impl FlashSprites {
    /// The sprites of the model at `model` (`None`: the demo model, searched in `extra` only),
    /// searched in its game and then `extra`.
    pub fn new(model: Option<&Path>, extra: &[PathBuf]) -> Self {
        Self { model: model.map(Path::to_path_buf), extra: extra.to_vec(), sprites: Default::default() }
    }

    /// Sprite `index` of [`FLASH_SPRITES`], read on first use; an error naming every place
    /// tried when it is not found, or the file and its fault when it cannot be read.
    pub fn sprite(&mut self, index: usize) -> Result<Arc<Sprite>, String> {
        let Some(slot) = self.sprites.get_mut(index) else {
            return Err(format!("no muzzle flash sprite {index}"));
        };
        slot.get_or_insert_with(|| {
            let name = FLASH_SPRITES[index];
            let folders = match &self.model {
                Some(model) => crate::installs::search(model, &self.extra).folders,
                None => {
                    let mut folders = studio_archive::GameFolders::default();
                    for game in &self.extra {
                        folders = folders.then(crate::installs::search_game(game).folders);
                    }
                    folders
                }
            };
            let mut tried = Vec::new();
            let found = folders.find(name, &mut tried)?;
            let Some(found) = found else {
                return Err(if tried.is_empty() {
                    format!("{name}: no game folder to look in (the model is in none; add one)")
                } else {
                    format!("{name} not found; looked in {}", tried.join(", "))
                });
            };
            let origin = found.origin.display().to_string();
            studio_sprite::parse(&found.bytes).map(Arc::new).map_err(|e| format!("{origin}: {e}"))
        })
        .clone()
    }
}

/// The body number (flattened picture, [`studio_render::sprite::pictures`]) of frame `frame`
/// of `sprite`, reduced modulo its frame count, at `time` seconds into a group.
pub fn picture_of(sprite: &Sprite, frame: u32, time: f32) -> i32 {
    let count = sprite.frames.len();
    if count == 0 {
        return 0;
    }
    let wanted = frame as usize % count;
    let mut body = 0usize;
    for (i, f) in sprite.frames.iter().enumerate() {
        match f {
            studio_sprite::Frame::Single(_) if i == wanted => break,
            studio_sprite::Frame::Single(_) => body += 1,
            studio_sprite::Frame::Group { pictures, .. } if i == wanted => {
                let shown = f.picture_at(time);
                body += pictures.iter().position(|p| Some(p) == shown).unwrap_or(0);
                break;
            }
            studio_sprite::Frame::Group { pictures, .. } => body += pictures.len(),
        }
    }
    i32::try_from(body).unwrap_or(0)
}

/// The flashes sequence `index` (`sequence`) fires when playback moves from frame `from` to
/// frame `to` (`studio_pose::playback::events_between`), in loop `loops`; with no `from`
/// (a still picture, a paused viewer), those whose event is on frame `to` itself.
pub fn flashes_fired(
    sequence: &studio_model::Sequence,
    index: usize,
    from: Option<f32>,
    to: f32,
    loops: u64,
) -> Vec<MuzzleFlash> {
    let on_frame = |e: &studio_model::Event| match from {
        Some(from) => studio_pose::playback::events_between(sequence, from, to).any(|f| std::ptr::eq(f, e)),
        None => to.is_finite() && e.frame as f32 == to.floor(),
    };
    sequence
        .events
        .iter()
        .enumerate()
        .filter(|(_, e)| FLASH_EVENTS.contains(&e.event) && on_frame(e))
        .filter_map(|(i, e)| muzzle_flash(e.event, &e.options, seed(index, i, loops)))
        .collect()
}

/// The flashes of an animation drawn frame after frame (`render --frames`, a capture): the
/// frame drawn before and the loops played, so each frame gets the flashes fired since the last.
#[derive(Clone, Copy, Debug, Default)]
pub struct FlashPlayback {
    before: Option<f32>,
    loops: u64,
}

impl FlashPlayback {
    /// The flashes sequence `index` (`sequence`) fires reaching frame `frame` from the frame
    /// drawn before (the first frame: those on it); a frame below the one before starts a loop.
    pub fn next(&mut self, sequence: &studio_model::Sequence, index: usize, frame: f32) -> Vec<MuzzleFlash> {
        self.loops += u64::from(self.before.is_some_and(|b| frame < b));
        let fired = flashes_fired(sequence, index, self.before, frame, self.loops);
        self.before = Some(frame);
        fired
    }
}

/// The bone drawing `flash` (of sprite `sprite`) at its attachment among `attachments`, for a
/// camera whose view is `view_from_model`; `None` when the model has no such attachment.
pub fn flash_bone(
    flash: &MuzzleFlash,
    sprite: &Sprite,
    attachments: &[glam::Vec3A],
    view_from_model: glam::Mat4,
) -> Option<[glam::Affine3A; 1]> {
    let at = glam::Vec3::from(*attachments.get(flash.attachment)?);
    Some([studio_render::sprite::sprite_skinning(
        sprite.orientation,
        at,
        view_from_model,
        flash.scale,
        flash.roll,
    )])
}

/// How `flash` of `sprite` is drawn, from the scene's options `scene`: its picture, the mesh
/// alone, unlit, no overlays.
pub fn flash_options(
    flash: &MuzzleFlash,
    sprite: &Sprite,
    scene: &studio_render::RenderOptions,
) -> studio_render::RenderOptions {
    studio_render::RenderOptions {
        mesh: true,
        wireframe: false,
        lighting: false,
        opacity: 1.0,
        body: picture_of(sprite, flash.frame, 0.0),
        lod: 0,
        skin: 0,
        overlay: Default::default(),
        ..*scene
    }
}

/// A sprite drawn as a muzzle flash: `kRenderTransAdd`.
pub fn flash_model(sprite: &Sprite) -> studio_render::RenderModel {
    studio_render::sprite::render_model(sprite, studio_render::Blend::Additive)
}

/// A flash placed for a frame: its sprite, the bone drawing it at its attachment and how.
pub struct PlacedFlash {
    /// Which of [`FLASH_SPRITES`] (the key the renderers keep its model under).
    pub key: usize,
    /// The sprite.
    pub sprite: Arc<Sprite>,
    /// The bone drawing it at its attachment, turned to the camera.
    pub bone: [glam::Affine3A; 1],
    /// How it is drawn.
    pub options: studio_render::RenderOptions,
}

impl PlacedFlash {
    /// What the sprite renderers draw.
    pub fn draw(&self) -> studio_render::sprite::SpriteDraw<'_> {
        studio_render::sprite::SpriteDraw {
            key: self.key,
            pose: studio_render::sprite::frame_pose(&self.bone),
            options: self.options,
        }
    }
}

/// `flashes` (each with its sprite) placed at the model's `attachments` for a camera whose view
/// is `view_from_model`, drawn within the scene's options `scene`; a flash whose attachment
/// the model lacks is left out.
pub fn place_flashes(
    flashes: &[(MuzzleFlash, Arc<Sprite>)],
    attachments: &[glam::Vec3A],
    view_from_model: glam::Mat4,
    scene: &studio_render::RenderOptions,
) -> Vec<PlacedFlash> {
    flashes
        .iter()
        .filter_map(|(flash, sprite)| {
            Some(PlacedFlash {
                key: flash.sprite,
                sprite: Arc::clone(sprite),
                bone: flash_bone(flash, sprite, attachments, view_from_model)?,
                options: flash_options(flash, sprite, scene),
            })
        })
        .collect()
}

/// The model of flash sprite `key` among `placed` (an empty one when none shows it).
pub fn placed_model(placed: &[PlacedFlash], key: usize) -> studio_render::RenderModel {
    placed.iter().find(|p| p.key == key).map(|p| flash_model(&p.sprite)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atoi_reads_as_c_does() {
        assert_eq!(atoi("20"), 20);
        assert_eq!(atoi("  -7x"), -7);
        assert_eq!(atoi("+3"), 3);
        assert_eq!(atoi("abc"), 0);
        assert_eq!(atoi(""), 0);
        assert_eq!(atoi("99999999999999"), i32::MAX);
        assert_eq!(atoi("-99999999999999"), i32::MIN);
    }

    #[test]
    fn flash_events_pick_attachment_sprite_and_scale_as_r_muzzleflash_does() {
        assert_eq!(muzzle_flash(5004, "20", 0), None);
        for (event, attachment) in FLASH_EVENTS.iter().zip(0..) {
            assert_eq!(muzzle_flash(*event, "1", 0).unwrap().attachment, attachment);
        }
        // "31": sprite 2 (31 mod 5 = 1), scale 0.3, any whole degree of roll.
        let flash = muzzle_flash(5011, "31", 7).unwrap();
        assert_eq!((flash.sprite, flash.scale), (1, 0.3));
        assert!(flash.roll.fract() == 0.0 && (0.0..360.0).contains(&flash.roll));
        // "3" and "4": sprite 3 at most; scale 0.5 when the tens are 0.
        assert_eq!(muzzle_flash(5001, "3", 0).unwrap().sprite, 2);
        assert_eq!(muzzle_flash(5001, "4", 0).unwrap().sprite, 2);
        assert_eq!(muzzle_flash(5001, "2", 0).unwrap().scale, 0.5);
        assert_eq!(muzzle_flash(5001, "12", 0).unwrap().scale, 0.1);
        // A negative type is sprite 1 (bound to 0) with a negative scale, as in C.
        let flash = muzzle_flash(5001, "-21", 0).unwrap();
        assert_eq!(flash.sprite, 0);
        // The rifle flash ("20", as v_mg's shoot has): 0.2 × 0.5–0.6, a quarter turn's roll.
        for seed in 0..200 {
            let flash = muzzle_flash(5001, "20", seed).unwrap();
            assert_eq!(flash.sprite, 0);
            assert!((0.1..=0.12).contains(&flash.scale), "{}", flash.scale);
            assert!([0.0, 90.0, 180.0, 270.0].contains(&flash.roll));
        }
        // Fixed by the seed.
        assert_eq!(muzzle_flash(5001, "20", 5), muzzle_flash(5001, "20", 5));
    }

    #[test]
    fn a_missing_sprite_names_every_place_tried() {
        let dir = std::env::temp_dir().join(format!("studioview-flash-{}", std::process::id()));
        let game = dir.join("valve");
        std::fs::create_dir_all(game.join("models")).unwrap();
        std::fs::write(game.join("liblist.gam"), "game \"Half-Life\"\n").unwrap();
        let mut sprites = FlashSprites::new(Some(&game.join("models/v_gun.mdl")), &[]);
        let error = sprites.sprite(0).unwrap_err();
        // Said once, and the same each time after.
        assert_eq!(sprites.sprite(0).unwrap_err(), error);
        std::fs::remove_dir_all(&dir).ok();
        assert!(error.contains("sprites/muzzleflash1.spr not found"), "{error}");
        assert!(error.contains("valve"), "{error}");
        assert!(FlashSprites::new(None, &[]).sprite(1).unwrap_err().contains("no game folder"));
        assert!(FlashSprites::new(None, &[]).sprite(3).is_err());
    }
}
