//! Importing a picture over a version 10 texture: its pixels, palette and size, and the
//! texture coordinates of every mesh drawn with it.
//!
//! A mesh's triangle commands store texel coordinates (`s`, `t`); the game divides them by the
//! texture's width and height as it draws (`R_StudioDrawPoints`). A texture of another size
//! therefore needs them rescaled to keep the same place on the picture, as HLAM's import does
//! (`CalculateScaledSTCoordinatesData`): here to the nearest texel, where HLAM truncates.
//!
//! A skin slot that shows this texture in some skin families and another texture in others
//! shares its coordinates with those textures, so the size cannot change there: the picture is
//! resampled to the texture's size instead (HLAM's rule too).

use studio_model::{Model, Texture};

use super::picture::Picture;
use super::quantize::{Quantized, quantize};
use super::size::{accepted_size, resample};

/// Where a mesh is in the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeshPlace {
    /// Body part.
    pub body_part: usize,
    /// Submodel of the body part.
    pub submodel: usize,
    /// Mesh of the submodel.
    pub mesh: usize,
}

/// A texture and the texture coordinates of the meshes drawn with it: what an import changes.
#[derive(Clone, Debug, PartialEq)]
pub struct TextureImage {
    /// The texture.
    pub texture: Texture,
    /// Each mesh drawn with it and its vertices' `(s, t)`, in the mesh's order.
    pub meshes: Vec<(MeshPlace, Vec<[i16; 2]>)>,
}

/// What an import did, for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportReport {
    /// The picture's size.
    pub source_size: (u32, u32),
    /// The texture's size before.
    pub old_size: (u32, u32),
    /// The texture's size now.
    pub new_size: (u32, u32),
    /// Whether the picture's own palette and indices were kept.
    pub kept_indices: bool,
    /// How many colours the resampled picture had (up to 257 counted), when it was quantized.
    pub colours_in: Option<usize>,
    /// Whether colours were merged into the palette.
    pub reduced: bool,
    /// Whether the size was held at the old one because skin families share the coordinates.
    pub size_held: bool,
    /// Texture coordinates rescaled.
    pub coordinates: usize,
    /// The palette ranges the game recolours with a player's colours (a `DM_Base` or `Remap`
    /// texture), when a new palette no longer keeps them.
    pub lost_remap: Option<studio_model::remap::RemapRanges>,
}

impl ImportReport {
    /// One line for a status bar or the CLI.
    pub fn summary(&self) -> String {
        let (sw, sh) = self.source_size;
        let (nw, nh) = self.new_size;
        let mut parts = vec![format!("{sw} × {sh} picture")];
        if self.source_size != self.new_size {
            parts.push(format!("resampled to {nw} × {nh}"));
        }
        if self.size_held {
            parts.push("the size held: other skin families share its texture coordinates".to_owned());
        }
        if self.kept_indices {
            parts.push("its palette and indices kept".to_owned());
        } else if self.reduced {
            parts.push("quantized to 256 colours".to_owned());
        } else if let Some(colours) = self.colours_in {
            parts.push(format!("{colours} colours kept exactly"));
        }
        if self.coordinates > 0 {
            let (ow, oh) = self.old_size;
            parts.push(format!("{} texture coordinates rescaled from {ow} × {oh}", self.coordinates));
        }
        if let Some(r) = self.lost_remap {
            let end = if r.high == 0 { r.mid } else { r.high };
            parts.push(format!(
                "the new palette does not keep entries {}–{end}, which the game recolours with a player's colours: import an indexed image with the texture's palette to keep them",
                r.low
            ));
        }
        parts.join(", ")
    }
}

/// The texture `index` as it is, with the coordinates of the meshes drawn with it.
pub fn texture_image(model: &Model, index: usize) -> Option<TextureImage> {
    let texture = model.textures.get(index)?.clone();
    let meshes = meshes_using(model, index)
        .into_iter()
        .filter_map(|place| {
            let mesh = mesh(model, place)?;
            Some((place, mesh.vertices.iter().map(|v| [v.s, v.t]).collect()))
        })
        .collect();
    Some(TextureImage { texture, meshes })
}

fn mesh(model: &Model, place: MeshPlace) -> Option<&studio_model::Mesh> {
    model.body_parts.get(place.body_part)?.submodels.get(place.submodel)?.meshes.get(place.mesh)
}

/// The skin slots that show texture `index` in some skin family.
fn slots_using(model: &Model, index: usize) -> Vec<i32> {
    let families = model.skins.num_families().max(1);
    (0..model.skins.num_refs() as i32)
        .filter(|&slot| (0..families).any(|f| model.skins.texture(f, slot) == Some(index)))
        .collect()
}

/// Every mesh whose skin slot shows texture `index` in some skin family.
pub fn meshes_using(model: &Model, index: usize) -> Vec<MeshPlace> {
    let slots = slots_using(model, index);
    let mut places = Vec::new();
    for (body_part, part) in model.body_parts.iter().enumerate() {
        for (submodel, sub) in part.submodels.iter().enumerate() {
            for (mesh, m) in sub.meshes.iter().enumerate() {
                if slots.contains(&m.skin_ref) {
                    places.push(MeshPlace { body_part, submodel, mesh });
                }
            }
        }
    }
    places
}

/// Whether texture `index`'s size must stay: a slot shows it in some skin families and another
/// texture of the same slot in others, which read the same coordinates.
pub fn size_is_held(model: &Model, index: usize) -> bool {
    let families = model.skins.num_families().max(1);
    slots_using(model, index)
        .into_iter()
        .any(|slot| (0..families).any(|f| model.skins.texture(f, slot) != Some(index)))
}

/// Why a picture cannot be imported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// No texture has that number.
    #[error("the model has no texture {0}")]
    NoTexture(usize),
}

/// The texture `index` of `model` with `picture` imported over it, beside what it was; the
/// model itself is not changed (apply the edit, so that it can be undone).
pub fn import_picture(
    model: &Model,
    index: usize,
    picture: Picture,
) -> Result<(TextureImage, TextureImage, ImportReport), ImportError> {
    let before = texture_image(model, index).ok_or(ImportError::NoTexture(index))?;
    let old = &before.texture;
    let source_size = picture.size();
    let size_held = size_is_held(model, index);
    let (width, height) =
        if size_held { (old.width, old.height) } else { accepted_size(source_size.0, source_size.1) };
    let picture = resample(picture, width, height);
    let (pixels, palette, kept_indices, colours_in, reduced) = match picture {
        Picture::Indexed { pixels, mut palette, .. } => {
            palette.resize(256, [0; 3]);
            (pixels, palette, true, None, false)
        }
        Picture::Rgba { pixels, .. } => {
            let Quantized { pixels, palette, colours_in, reduced } =
                quantize(width, height, &pixels, old.is_masked());
            (pixels, palette, false, Some(colours_in), reduced)
        }
    };
    let texture = Texture { width, height, pixels, palette, ..old.clone() };
    let scale = |value: i16, from: u32, to: u32| -> i16 {
        if from == to || from == 0 {
            return value;
        }
        (f64::from(value) * f64::from(to) / f64::from(from))
            .round()
            .clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16
    };
    let mut coordinates = 0;
    let meshes = before
        .meshes
        .iter()
        .map(|(place, st)| {
            let scaled: Vec<[i16; 2]> =
                st.iter().map(|&[s, t]| [scale(s, old.width, width), scale(t, old.height, height)]).collect();
            coordinates += scaled.iter().zip(st).filter(|(a, b)| a != b).count();
            (*place, scaled)
        })
        .collect();
    let report = ImportReport {
        source_size,
        old_size: (old.width, old.height),
        new_size: (width, height),
        kept_indices,
        colours_in,
        reduced,
        size_held,
        coordinates,
        lost_remap: studio_model::remap::remap_ranges(&old.name).filter(|_| !kept_indices),
    };
    Ok((before.clone(), TextureImage { texture, meshes }, report))
}

/// Writes `image` into texture `index` of `model`: false, and nothing changed, when the texture
/// or one of its meshes is not there or has another number of vertices.
pub fn set_texture_image(model: &mut Model, index: usize, image: &TextureImage) -> bool {
    let fits = index < model.textures.len()
        && image
            .meshes
            .iter()
            .all(|(place, st)| mesh(model, *place).is_some_and(|m| m.vertices.len() == st.len()));
    if !fits {
        return false;
    }
    model.textures[index] = image.texture.clone();
    for (place, st) in &image.meshes {
        let mesh = &mut model.body_parts[place.body_part].submodels[place.submodel].meshes[place.mesh];
        for (vertex, &[s, t]) in mesh.vertices.iter_mut().zip(st) {
            vertex.s = s;
            vertex.t = t;
        }
    }
    true
}
