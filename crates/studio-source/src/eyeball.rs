//! A model's eyeballs (`mstudioeyeball_t`, 172 bytes; source-mesh.md, "Models and meshes in the
//! .mdl", numeyeballs at 100; the record in `docs/flex.md`). An eyeball mesh (materialtype 1)
//! names its eyeball in materialparam; the engine projects the eye's texture onto it from the
//! eyeball's centre, looking at a target.

use glam::Vec3;

use crate::error::{Record, Result, Warning};
use crate::raw::{RawEyeball, RawModel};
use crate::reader::{FileData, required};

/// One eyeball.
#[derive(Clone, Debug, PartialEq)]
pub struct Eyeball {
    /// Its name.
    pub name: String,
    /// The bone it turns with.
    pub bone: usize,
    /// Its centre, in the bone's space.
    pub origin: Vec3,
    /// How far the iris sits in front of the eyeball's surface, as a fraction (`zoffset`).
    pub z_offset: f32,
    /// Its radius.
    pub radius: f32,
    /// Up, in the bone's space.
    pub up: Vec3,
    /// Forward, in the bone's space.
    pub forward: Vec3,
    /// The texture (material) of its mesh.
    pub texture: i32,
    /// The iris' scale: the projection spans `1 / iris_scale` units.
    pub iris_scale: f32,
    /// The flex descriptions raising the upper lid (closed, neutral, raised).
    pub upper_flex_desc: [Option<usize>; 3],
    /// The same for the lower lid.
    pub lower_flex_desc: [Option<usize>; 3],
    /// The lid heights those stand for (radians of the eye's arc).
    pub upper_target: [f32; 3],
    /// The same for the lower lid.
    pub lower_target: [f32; 3],
    /// The flex description the upper lid's height is written to.
    pub upper_lid_flex_desc: Option<usize>,
    /// The same for the lower lid.
    pub lower_lid_flex_desc: Option<usize>,
    /// Whether the lids are driven by non-FACS controllers.
    pub non_facs: bool,
}

/// The eyeballs of the model at `model_at`.
pub(crate) fn parse(
    file: &FileData<'_>,
    (m, model_at, model): (usize, u64, &RawModel),
    bones: usize,
    descs: usize,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Eyeball>> {
    let table = file.table::<RawEyeball>(
        Record::Model,
        Some(m),
        model_at,
        "numeyeballs",
        model.numeyeballs,
        "eyeballindex",
        model.eyeballindex,
    )?;
    let mut out = Vec::with_capacity(table.len());
    for (e, at, eye) in table.iter() {
        let place = (Record::Eyeball, Some(e), at);
        // The lid descriptions are read only by the eyelid code, and studiomdl leaves them 0
        // or -1 where a model has no lid flexes: one that names no description is none.
        let desc = |value: i32| usize::try_from(value).ok().filter(|&d| d < descs);
        out.push(Eyeball {
            name: file.optional_name(Record::Eyeball, Some(e), at, "sznameindex", eye.sznameindex, warnings),
            bone: required(file, place, "bone", eye.bone, "bone", bones)?,
            origin: Vec3::from_array(eye.org),
            z_offset: eye.zoffset,
            radius: eye.radius,
            up: Vec3::from_array(eye.up),
            forward: Vec3::from_array(eye.forward),
            texture: eye.texture,
            iris_scale: eye.iris_scale,
            upper_flex_desc: eye.upperflexdesc.map(desc),
            lower_flex_desc: eye.lowerflexdesc.map(desc),
            upper_target: eye.uppertarget,
            lower_target: eye.lowertarget,
            upper_lid_flex_desc: desc(eye.upperlidflexdesc),
            lower_lid_flex_desc: desc(eye.lowerlidflexdesc),
            non_facs: eye.non_facs != 0,
        });
    }
    Ok(out)
}
