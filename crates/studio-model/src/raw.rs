//! On-disk records of a version 10 studio model, exactly as `studio.h` lays them out.
//!
//! Layout only, no logic: each struct mirrors one table of `../shared/spec/goldsrc-*.md`, is
//! `bytemuck::Pod` and is read with [`bytemuck::try_pod_read_unaligned`], so no alignment is
//! assumed. Typed, validated views live in the other modules.

use bytemuck::{Pod, Zeroable};

/// `studiohdr_t`, 244 bytes (goldsrc-header.md, "Header").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawHeader {
    pub id: [u8; 4],
    pub version: i32,
    pub name: [u8; 64],
    pub length: i32,
    pub eyeposition: [f32; 3],
    pub min: [f32; 3],
    pub max: [f32; 3],
    pub bbmin: [f32; 3],
    pub bbmax: [f32; 3],
    pub flags: i32,
    pub numbones: i32,
    pub boneindex: i32,
    pub numbonecontrollers: i32,
    pub bonecontrollerindex: i32,
    pub numhitboxes: i32,
    pub hitboxindex: i32,
    pub numseq: i32,
    pub seqindex: i32,
    pub numseqgroups: i32,
    pub seqgroupindex: i32,
    pub numtextures: i32,
    pub textureindex: i32,
    pub texturedataindex: i32,
    pub numskinref: i32,
    pub numskinfamilies: i32,
    pub skinindex: i32,
    pub numbodyparts: i32,
    pub bodypartindex: i32,
    pub numattachments: i32,
    pub attachmentindex: i32,
    pub soundtable: i32,
    pub soundindex: i32,
    pub soundgroups: i32,
    pub soundgroupindex: i32,
    pub numtransitions: i32,
    pub transitionindex: i32,
}

/// `studioseqhdr_t`, 76 bytes: the header of a sequence group file (goldsrc-header.md).
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawSequenceGroupHeader {
    pub id: [u8; 4],
    pub version: i32,
    pub name: [u8; 64],
    pub length: i32,
}

/// `mstudiobone_t`, 112 bytes (goldsrc-skeleton.md, "Bones").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawBone {
    pub name: [u8; 32],
    pub parent: i32,
    pub flags: i32,
    pub bonecontroller: [i32; 6],
    pub value: [f32; 6],
    pub scale: [f32; 6],
}

/// `mstudiobonecontroller_t`, 24 bytes (goldsrc-skeleton.md, "Bone controllers").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawBoneController {
    pub bone: i32,
    pub kind: i32,
    pub start: f32,
    pub end: f32,
    pub rest: i32,
    pub index: i32,
}

/// `mstudiobbox_t`, 32 bytes (goldsrc-skeleton.md, "Hit boxes").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawHitbox {
    pub bone: i32,
    pub group: i32,
    pub bbmin: [f32; 3],
    pub bbmax: [f32; 3],
}

/// `mstudioattachment_t`, 88 bytes (goldsrc-skeleton.md, "Attachments").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawAttachment {
    pub name: [u8; 32],
    pub kind: i32,
    pub bone: i32,
    pub org: [f32; 3],
    pub vectors: [[f32; 3]; 3],
}

/// `mstudioseqgroup_t`, 104 bytes (goldsrc-sequences.md, "Sequence groups").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawSequenceGroup {
    pub label: [u8; 32],
    pub name: [u8; 64],
    pub unused1: i32,
    pub unused2: i32,
}

/// `mstudioseqdesc_t`, 176 bytes (goldsrc-sequences.md, "Sequences").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawSequence {
    pub label: [u8; 32],
    pub fps: f32,
    pub flags: i32,
    pub activity: i32,
    pub actweight: i32,
    pub numevents: i32,
    pub eventindex: i32,
    pub numframes: i32,
    pub numpivots: i32,
    pub pivotindex: i32,
    pub motiontype: i32,
    pub motionbone: i32,
    pub linearmovement: [f32; 3],
    pub automoveposindex: i32,
    pub automoveangleindex: i32,
    pub bbmin: [f32; 3],
    pub bbmax: [f32; 3],
    pub numblends: i32,
    pub animindex: i32,
    pub blendtype: [i32; 2],
    pub blendstart: [f32; 2],
    pub blendend: [f32; 2],
    pub blendparent: i32,
    pub seqgroup: i32,
    pub entrynode: i32,
    pub exitnode: i32,
    pub nodeflags: i32,
    pub nextseq: i32,
}

/// `mstudioevent_t`, 76 bytes (goldsrc-sequences.md, "Events").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawEvent {
    pub frame: i32,
    pub event: i32,
    pub kind: i32,
    pub options: [u8; 64],
}

/// `mstudiopivot_t`, 20 bytes (goldsrc-sequences.md, "Pivots").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawPivot {
    pub org: [f32; 3],
    pub start: i32,
    pub end: i32,
}

/// `mstudioanim_t`, 12 bytes (goldsrc-sequences.md, "Animation data").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawAnim {
    pub offset: [u16; 6],
}

/// `mstudiobodyparts_t`, 76 bytes (goldsrc-geometry.md, "Body parts").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawBodyPart {
    pub name: [u8; 64],
    pub nummodels: i32,
    pub base: i32,
    pub modelindex: i32,
}

/// `mstudiomodel_t`, 112 bytes (goldsrc-geometry.md, "Submodels").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawSubmodel {
    pub name: [u8; 64],
    pub kind: i32,
    pub boundingradius: f32,
    pub nummesh: i32,
    pub meshindex: i32,
    pub numverts: i32,
    pub vertinfoindex: i32,
    pub vertindex: i32,
    pub numnorms: i32,
    pub norminfoindex: i32,
    pub normindex: i32,
    pub numgroups: i32,
    pub groupindex: i32,
}

/// `mstudiomesh_t`, 20 bytes (goldsrc-geometry.md, "Meshes").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawMesh {
    pub numtris: i32,
    pub triindex: i32,
    pub skinref: i32,
    pub numnorms: i32,
    pub normindex: i32,
}

/// `mstudiotexture_t`, 80 bytes (goldsrc-geometry.md, "Textures").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawTexture {
    pub name: [u8; 64],
    pub flags: i32,
    pub width: i32,
    pub height: i32,
    pub index: i32,
}

/// One vertex of a triangle command: vertex, normal, s, t (goldsrc-geometry.md).
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawTriVertex {
    pub vertex: i16,
    pub normal: i16,
    pub s: i16,
    pub t: i16,
}

const _: () = assert!(size_of::<RawHeader>() == 244);
const _: () = assert!(size_of::<RawSequenceGroupHeader>() == 76);
const _: () = assert!(size_of::<RawBone>() == 112);
const _: () = assert!(size_of::<RawBoneController>() == 24);
const _: () = assert!(size_of::<RawHitbox>() == 32);
const _: () = assert!(size_of::<RawAttachment>() == 88);
const _: () = assert!(size_of::<RawSequenceGroup>() == 104);
const _: () = assert!(size_of::<RawSequence>() == 176);
const _: () = assert!(size_of::<RawEvent>() == 76);
const _: () = assert!(size_of::<RawPivot>() == 20);
const _: () = assert!(size_of::<RawAnim>() == 12);
const _: () = assert!(size_of::<RawBodyPart>() == 76);
const _: () = assert!(size_of::<RawSubmodel>() == 112);
const _: () = assert!(size_of::<RawMesh>() == 20);
const _: () = assert!(size_of::<RawTexture>() == 80);
const _: () = assert!(size_of::<RawTriVertex>() == 8);
