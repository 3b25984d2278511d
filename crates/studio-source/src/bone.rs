//! Bones and their procedural rules (source-bones.md, "Bones", "Procedural bones").

use glam::{Quat, Vec3};

use crate::error::{Problem, Record, Result, Warning, WarningKind};
use crate::raw::{RawAimAt, RawAxisInterp, RawBone, RawHeader, RawJiggle, RawQuatInterp, RawQuatTrigger};
use crate::reader::{FileData, reference};

/// Bone flag names, for display (source-bones.md, "Bone flags").
pub const BONE_FLAG_NAMES: [(i32, &str); 19] = [
    (0x1, "PHYSICALLY_SIMULATED"),
    (0x2, "PHYSICS_PROCEDURAL"),
    (0x4, "ALWAYS_PROCEDURAL"),
    (0x8, "SCREEN_ALIGN_SPHERE"),
    (0x10, "SCREEN_ALIGN_CYLINDER"),
    (0x100, "USED_BY_HITBOX"),
    (0x200, "USED_BY_ATTACHMENT"),
    (0x400, "USED_BY_VERTEX_LOD0"),
    (0x800, "USED_BY_VERTEX_LOD1"),
    (0x1000, "USED_BY_VERTEX_LOD2"),
    (0x2000, "USED_BY_VERTEX_LOD3"),
    (0x4000, "USED_BY_VERTEX_LOD4"),
    (0x8000, "USED_BY_VERTEX_LOD5"),
    (0x10000, "USED_BY_VERTEX_LOD6"),
    (0x20000, "USED_BY_VERTEX_LOD7"),
    (0x40000, "USED_BY_BONE_MERGE"),
    (0x100000, "FIXED_ALIGNMENT"),
    (0x200000, "HAS_SAVEFRAME_POS"),
    (0x400000, "HAS_SAVEFRAME_ROT"),
];

/// `BONE_HAS_SAVEFRAME_POS`.
pub const BONE_HAS_SAVEFRAME_POS: i32 = 0x0020_0000;
/// `BONE_HAS_SAVEFRAME_ROT`.
pub const BONE_HAS_SAVEFRAME_ROT: i32 = 0x0040_0000;

/// One bone.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    /// Its name.
    pub name: String,
    /// Its parent, which comes before it.
    pub parent: Option<usize>,
    /// The bone controller of each motion axis (x, y, z, xr, yr, zr).
    pub controllers: [Option<usize>; 6],
    /// Default position.
    pub position: Vec3,
    /// Default rotation.
    pub quaternion: Quat,
    /// Default rotation as Euler angles (radians).
    pub rotation: Vec3,
    /// Compression scale of the position.
    pub position_scale: Vec3,
    /// Compression scale of the rotation.
    pub rotation_scale: Vec3,
    /// Pose-to-bone transform, rows of a 3×4 matrix.
    pub pose_to_bone: [[f32; 4]; 3],
    /// Fixed alignment (`BONE_FIXED_ALIGNMENT`).
    pub alignment: Quat,
    /// `BONE_*` flags.
    pub flags: i32,
    /// Its procedural rule, if any.
    pub procedural: Option<Procedural>,
    /// Surface property.
    pub surface_prop: String,
    /// Contents flags.
    pub contents: i32,
}

/// A procedural bone's rule (source-bones.md, "Procedural bones"): parsed, not simulated.
#[derive(Clone, Debug, PartialEq)]
pub enum Procedural {
    /// `STUDIO_PROC_AXISINTERP` (1).
    AxisInterp {
        /// Control bone.
        control: i32,
        /// Axis.
        axis: i32,
        /// Positions for X+, X−, Y+, Y−, Z+, Z−.
        positions: [Vec3; 6],
        /// Rotations, the same order.
        rotations: [Quat; 6],
    },
    /// `STUDIO_PROC_QUATINTERP` (2).
    QuatInterp {
        /// Control bone.
        control: i32,
        /// The triggers.
        triggers: Vec<QuatTrigger>,
    },
    /// `STUDIO_PROC_AIMATBONE` (3) or `STUDIO_PROC_AIMATATTACH` (4, with `at_attachment`).
    AimAt {
        /// Whether `aim` is an attachment (type 4) rather than a bone.
        at_attachment: bool,
        /// Parent bone.
        parent: i32,
        /// The bone or attachment aimed at.
        aim: i32,
        /// Aim vector.
        aim_vector: Vec3,
        /// Up vector.
        up_vector: Vec3,
        /// Base position.
        base_position: Vec3,
    },
    /// `STUDIO_PROC_JIGGLE` (5).
    Jiggle {
        /// `JIGGLE_*` flags.
        flags: i32,
        /// The 34 floats, in studio.h's order (length, tipMass, …).
        values: [f32; 34],
    },
}

impl Procedural {
    /// studio.h's type number.
    pub fn proctype(&self) -> i32 {
        match self {
            Procedural::AxisInterp { .. } => 1,
            Procedural::QuatInterp { .. } => 2,
            Procedural::AimAt { at_attachment: false, .. } => 3,
            Procedural::AimAt { at_attachment: true, .. } => 4,
            Procedural::Jiggle { .. } => 5,
        }
    }

    /// studio.h's name, for display.
    pub fn name(&self) -> &'static str {
        match self.proctype() {
            1 => "axis interpolation",
            2 => "quaternion interpolation",
            3 => "aim at bone",
            4 => "aim at attachment",
            _ => "jiggle",
        }
    }
}

/// One trigger of a quaternion-interpolation bone (`mstudioquatinterpinfo_t`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuatTrigger {
    /// 1 / radian angle of the trigger's influence.
    pub inv_tolerance: f32,
    /// The rotation to match.
    pub trigger: Quat,
    /// New position.
    pub position: Vec3,
    /// New rotation.
    pub rotation: Quat,
}

fn quat(q: [f32; 4]) -> Quat {
    Quat::from_array(q)
}

/// Reads the bones; procedural types studio.h does not define are kept out with a warning.
pub(crate) fn parse(
    file: &FileData<'_>,
    raw: &RawHeader,
    num_controllers: usize,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Bone>> {
    let table =
        file.table::<RawBone>(Record::Bone, None, 0, "numbones", raw.numbones, "boneindex", raw.boneindex)?;
    let mut bones = Vec::with_capacity(table.len());
    for (i, at, b) in table.iter() {
        let place = (Record::Bone, Some(i), at);
        let parent = match b.parent {
            -1 => None,
            p if p >= 0 && (p as usize) < i => Some(p as usize),
            p => return Err(file.error(Record::Bone, Some(i), at + 4, Problem::ParentOrder { parent: p })),
        };
        let mut controllers = [None; 6];
        for (slot, &c) in controllers.iter_mut().zip(&b.bonecontroller) {
            *slot = reference(file, place, "bonecontroller", c, "bone controller", num_controllers)?;
        }
        let procedural = match (b.proctype, b.procindex) {
            (0, _) | (_, 0) => None,
            (kind, index) => {
                let proc_at = file.at(Record::ProceduralBone, Some(i), at, "procindex", index)?;
                procedural(file, i, proc_at, kind, warnings)?
            }
        };
        bones.push(Bone {
            name: file.name(Record::Bone, Some(i), at, "sznameindex", b.sznameindex)?,
            parent,
            controllers,
            position: Vec3::from_array(b.pos),
            quaternion: quat(b.quat),
            rotation: Vec3::from_array(b.rot),
            position_scale: Vec3::from_array(b.posscale),
            rotation_scale: Vec3::from_array(b.rotscale),
            pose_to_bone: b.pose_to_bone,
            alignment: quat(b.q_alignment),
            flags: b.flags,
            procedural,
            surface_prop: file.optional_name(
                Record::Bone,
                Some(i),
                at,
                "surfacepropidx",
                b.surfacepropidx,
                warnings,
            ),
            contents: b.contents,
        });
    }
    Ok(bones)
}

fn procedural(
    file: &FileData<'_>,
    bone: usize,
    at: u64,
    kind: i32,
    warnings: &mut Vec<Warning>,
) -> Result<Option<Procedural>> {
    let record = Record::ProceduralBone;
    Ok(Some(match kind {
        1 => {
            let r: RawAxisInterp = file.read(record, Some(bone), at)?;
            Procedural::AxisInterp {
                control: r.control,
                axis: r.axis,
                positions: r.pos.map(Vec3::from_array),
                rotations: r.quat.map(quat),
            }
        }
        2 => {
            let r: RawQuatInterp = file.read(record, Some(bone), at)?;
            let table = file.table::<RawQuatTrigger>(
                record,
                Some(bone),
                at,
                "numtriggers",
                r.numtriggers,
                "triggerindex",
                r.triggerindex,
            )?;
            let triggers = table
                .iter()
                .map(|(_, _, t)| QuatTrigger {
                    inv_tolerance: t.inv_tolerance,
                    trigger: quat(t.trigger),
                    position: Vec3::from_array(t.pos),
                    rotation: quat(t.quat),
                })
                .collect();
            Procedural::QuatInterp { control: r.control, triggers }
        }
        3 | 4 => {
            let r: RawAimAt = file.read(record, Some(bone), at)?;
            Procedural::AimAt {
                at_attachment: kind == 4,
                parent: r.parent,
                aim: r.aim,
                aim_vector: Vec3::from_array(r.aimvector),
                up_vector: Vec3::from_array(r.upvector),
                base_position: Vec3::from_array(r.basepos),
            }
        }
        5 => {
            let r: RawJiggle = file.read(record, Some(bone), at)?;
            Procedural::Jiggle { flags: r.flags, values: r.values }
        }
        other => {
            warnings.push(Warning {
                place: file.place(record, Some(bone), at),
                kind: WarningKind::UnknownValue { field: "proctype", value: i64::from(other) },
            });
            return Ok(None);
        }
    }))
}
