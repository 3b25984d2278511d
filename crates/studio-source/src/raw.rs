//! The on-disk records of a Source `.mdl`, byte for byte (32-bit layout, little-endian), as the
//! spec pages give them: `source-header.md`, `source-bones.md`, `source-animation.md` and
//! `source-mesh.md`. Field names are studio.h's.

use bytemuck::{Pod, Zeroable};

/// `studiohdr_t`, 408 bytes (source-header.md, "Header").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawHeader {
    pub id: [u8; 4],
    pub version: i32,
    pub checksum: i32,
    pub name: [u8; 64],
    pub length: i32,
    pub eyeposition: [f32; 3],
    pub illumposition: [f32; 3],
    pub hull_min: [f32; 3],
    pub hull_max: [f32; 3],
    pub view_bbmin: [f32; 3],
    pub view_bbmax: [f32; 3],
    pub flags: i32,
    pub numbones: i32,
    pub boneindex: i32,
    pub numbonecontrollers: i32,
    pub bonecontrollerindex: i32,
    pub numhitboxsets: i32,
    pub hitboxsetindex: i32,
    pub numlocalanim: i32,
    pub localanimindex: i32,
    pub numlocalseq: i32,
    pub localseqindex: i32,
    pub activitylistversion: i32,
    pub eventsindexed: i32,
    pub numtextures: i32,
    pub textureindex: i32,
    pub numcdtextures: i32,
    pub cdtextureindex: i32,
    pub numskinref: i32,
    pub numskinfamilies: i32,
    pub skinindex: i32,
    pub numbodyparts: i32,
    pub bodypartindex: i32,
    pub numlocalattachments: i32,
    pub localattachmentindex: i32,
    pub numlocalnodes: i32,
    pub localnodeindex: i32,
    pub localnodenameindex: i32,
    pub numflexdesc: i32,
    pub flexdescindex: i32,
    pub numflexcontrollers: i32,
    pub flexcontrollerindex: i32,
    pub numflexrules: i32,
    pub flexruleindex: i32,
    pub numikchains: i32,
    pub ikchainindex: i32,
    pub nummouths: i32,
    pub mouthindex: i32,
    pub numlocalposeparameters: i32,
    pub localposeparamindex: i32,
    pub surfacepropindex: i32,
    pub keyvalueindex: i32,
    pub keyvaluesize: i32,
    pub numlocalikautoplaylocks: i32,
    pub localikautoplaylockindex: i32,
    pub mass: f32,
    pub contents: i32,
    pub numincludemodels: i32,
    pub includemodelindex: i32,
    pub virtual_model: i32,
    pub szanimblocknameindex: i32,
    pub numanimblocks: i32,
    pub animblockindex: i32,
    pub animblock_model: i32,
    pub bonetablebynameindex: i32,
    pub vertex_base: i32,
    pub index_base: i32,
    pub constdirectionallightdot: u8,
    pub root_lod: u8,
    pub num_allowed_root_lods: u8,
    pub unused: u8,
    pub unused4: i32,
    pub numflexcontrollerui: i32,
    pub flexcontrolleruiindex: i32,
    pub vert_anim_fixed_point_scale: f32,
    pub unused3: i32,
    pub studiohdr2index: i32,
    pub unused2: i32,
}

/// `studiohdr2_t`, 256 bytes (source-header.md, "Second header").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawHeader2 {
    pub numsrcbonetransform: i32,
    pub srcbonetransformindex: i32,
    pub illumpositionattachmentindex: i32,
    pub max_eye_deflection: f32,
    pub linearboneindex: i32,
    pub sznameindex: i32,
    pub bone_flex_driver_count: i32,
    pub bone_flex_driver_index: i32,
    pub reserved: [i32; 56],
}

/// `mstudiobone_t`, 216 bytes (source-bones.md, "Bones").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawBone {
    pub sznameindex: i32,
    pub parent: i32,
    pub bonecontroller: [i32; 6],
    pub pos: [f32; 3],
    pub quat: [f32; 4],
    pub rot: [f32; 3],
    pub posscale: [f32; 3],
    pub rotscale: [f32; 3],
    pub pose_to_bone: [[f32; 4]; 3],
    pub q_alignment: [f32; 4],
    pub flags: i32,
    pub proctype: i32,
    pub procindex: i32,
    pub physicsbone: i32,
    pub surfacepropidx: i32,
    pub contents: i32,
    pub unused: [i32; 8],
}

/// `mstudioaxisinterpbone_t`, 176 bytes (source-bones.md, "Procedural bones").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawAxisInterp {
    pub control: i32,
    pub axis: i32,
    pub pos: [[f32; 3]; 6],
    pub quat: [[f32; 4]; 6],
}

/// `mstudioquatinterpbone_t`, 12 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawQuatInterp {
    pub control: i32,
    pub numtriggers: i32,
    pub triggerindex: i32,
}

/// `mstudioquatinterpinfo_t`, 48 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawQuatTrigger {
    pub inv_tolerance: f32,
    pub trigger: [f32; 4],
    pub pos: [f32; 3],
    pub quat: [f32; 4],
}

/// `mstudioaimatbone_t`, 44 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawAimAt {
    pub parent: i32,
    pub aim: i32,
    pub aimvector: [f32; 3],
    pub upvector: [f32; 3],
    pub basepos: [f32; 3],
}

/// `mstudiojigglebone_t`, 140 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawJiggle {
    pub flags: i32,
    pub values: [f32; 34],
}

/// `mstudiobonecontroller_t`, 56 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawBoneController {
    pub bone: i32,
    pub kind: i32,
    pub start: f32,
    pub end: f32,
    pub rest: i32,
    pub inputfield: i32,
    pub unused: [i32; 8],
}

/// `mstudiohitboxset_t`, 12 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawHitboxSet {
    pub sznameindex: i32,
    pub numhitboxes: i32,
    pub hitboxindex: i32,
}

/// `mstudiobbox_t`, 68 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawHitbox {
    pub bone: i32,
    pub group: i32,
    pub bbmin: [f32; 3],
    pub bbmax: [f32; 3],
    pub szhitboxnameindex: i32,
    pub unused: [i32; 8],
}

/// `mstudioattachment_t`, 92 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawAttachment {
    pub sznameindex: i32,
    pub flags: u32,
    pub localbone: i32,
    pub local: [[f32; 4]; 3],
    pub unused: [i32; 8],
}

/// `mstudioposeparamdesc_t`, 20 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawPoseParameter {
    pub sznameindex: i32,
    pub flags: i32,
    pub start: f32,
    pub end: f32,
    pub loop_range: f32,
}

/// `mstudioikchain_t`, 16 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawIkChain {
    pub sznameindex: i32,
    pub linktype: i32,
    pub numlinks: i32,
    pub linkindex: i32,
}

/// `mstudioiklink_t`, 28 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawIkLink {
    pub bone: i32,
    pub knee_dir: [f32; 3],
    pub unused: [f32; 3],
}

/// `mstudioiklock_t`, 32 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawIkLock {
    pub chain: i32,
    pub pos_weight: f32,
    pub local_q_weight: f32,
    pub flags: i32,
    pub unused: [i32; 4],
}

/// `mstudiotexture_t`, 64 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawTexture {
    pub sznameindex: i32,
    pub flags: i32,
    pub used: i32,
    pub unused1: i32,
    pub material: i32,
    pub clientmaterial: i32,
    pub unused: [i32; 10],
}

/// `mstudiobodyparts_t`, 16 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawBodyPart {
    pub sznameindex: i32,
    pub nummodels: i32,
    pub base: i32,
    pub modelindex: i32,
}

/// `mstudiomodel_t`, 148 bytes (source-mesh.md, "Models and meshes in the .mdl").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawModel {
    pub name: [u8; 64],
    pub kind: i32,
    pub boundingradius: f32,
    pub nummeshes: i32,
    pub meshindex: i32,
    pub numvertices: i32,
    pub vertexindex: i32,
    pub tangentsindex: i32,
    pub numattachments: i32,
    pub attachmentindex: i32,
    pub numeyeballs: i32,
    pub eyeballindex: i32,
    pub vertexdata: [i32; 2],
    pub unused: [i32; 8],
}

/// `mstudiomesh_t`, 116 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawMesh {
    pub material: i32,
    pub modelindex: i32,
    pub numvertices: i32,
    pub vertexoffset: i32,
    pub numflexes: i32,
    pub flexindex: i32,
    pub materialtype: i32,
    pub materialparam: i32,
    pub meshid: i32,
    pub center: [f32; 3],
    pub modelvertexdata: i32,
    pub num_lod_vertexes: [i32; 8],
    pub unused: [i32; 8],
}

/// `mstudiomodelgroup_t`, 8 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawModelGroup {
    pub szlabelindex: i32,
    pub sznameindex: i32,
}

/// `mstudioanimblock_t`, 8 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawAnimBlock {
    pub datastart: i32,
    pub dataend: i32,
}

/// `mstudioanimsections_t`, 8 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawSection {
    pub animblock: i32,
    pub animindex: i32,
}

/// `mstudioanimdesc_t`, 100 bytes (source-animation.md, "Animation descriptions").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawAnimDesc {
    pub baseptr: i32,
    pub sznameindex: i32,
    pub fps: f32,
    pub flags: i32,
    pub numframes: i32,
    pub nummovements: i32,
    pub movementindex: i32,
    pub unused1: [i32; 6],
    pub animblock: i32,
    pub animindex: i32,
    pub numikrules: i32,
    pub ikruleindex: i32,
    pub animblockikruleindex: i32,
    pub numlocalhierarchy: i32,
    pub localhierarchyindex: i32,
    pub sectionindex: i32,
    pub sectionframes: i32,
    pub zeroframespan: i16,
    pub zeroframecount: i16,
    pub zeroframeindex: i32,
    pub zeroframestalltime: f32,
}

/// `mstudiomovement_t`, 44 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawMovement {
    pub endframe: i32,
    pub motionflags: i32,
    pub v0: f32,
    pub v1: f32,
    pub angle: f32,
    pub vector: [f32; 3],
    pub position: [f32; 3],
}

/// `mstudioikrule_t`, 152 bytes (source-bones.md, "IK chains, rules and locks").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawIkRule {
    pub index: i32,
    pub kind: i32,
    pub chain: i32,
    pub bone: i32,
    pub slot: i32,
    pub height: f32,
    pub radius: f32,
    pub floor: f32,
    pub pos: [f32; 3],
    pub q: [f32; 4],
    pub compressedikerrorindex: i32,
    pub unused2: i32,
    pub i_start: i32,
    pub ikerrorindex: i32,
    pub start: f32,
    pub peak: f32,
    pub tail: f32,
    pub end: f32,
    pub unused3: f32,
    pub contact: f32,
    pub drop: f32,
    pub top: f32,
    pub unused678: [i32; 3],
    pub szattachmentindex: i32,
    pub unused: [i32; 7],
}

/// `mstudiolocalhierarchy_t`, 48 bytes (source-animation.md, "Local hierarchy").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawLocalHierarchy {
    pub bone: i32,
    pub new_parent: i32,
    pub start: f32,
    pub peak: f32,
    pub tail: f32,
    pub end: f32,
    pub i_start: i32,
    pub localanimindex: i32,
    pub unused: [i32; 4],
}

/// `mstudiocompressedikerror_t`, 36 bytes (source-bones.md, "IK chains, rules and locks"):
/// a scale and a value stream offset (from the record; 0 or less for none) per degree of freedom.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawCompressedIkError {
    pub scale: [f32; 6],
    pub offset: [i16; 6],
}

/// `mstudioseqdesc_t`, 212 bytes (source-animation.md, "Sequence descriptions").
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawSeqDesc {
    pub baseptr: i32,
    pub szlabelindex: i32,
    pub szactivitynameindex: i32,
    pub flags: i32,
    pub activity: i32,
    pub actweight: i32,
    pub numevents: i32,
    pub eventindex: i32,
    pub bbmin: [f32; 3],
    pub bbmax: [f32; 3],
    pub numblends: i32,
    pub animindexindex: i32,
    pub movementindex: i32,
    pub groupsize: [i32; 2],
    pub paramindex: [i32; 2],
    pub paramstart: [f32; 2],
    pub paramend: [f32; 2],
    pub paramparent: i32,
    pub fadeintime: f32,
    pub fadeouttime: f32,
    pub localentrynode: i32,
    pub localexitnode: i32,
    pub nodeflags: i32,
    pub entryphase: f32,
    pub exitphase: f32,
    pub lastframe: f32,
    pub nextseq: i32,
    pub pose: i32,
    pub numikrules: i32,
    pub numautolayers: i32,
    pub autolayerindex: i32,
    pub weightlistindex: i32,
    pub posekeyindex: i32,
    pub numiklocks: i32,
    pub iklockindex: i32,
    pub keyvalueindex: i32,
    pub keyvaluesize: i32,
    pub cycleposeindex: i32,
    pub activitymodifierindex: i32,
    pub numactivitymodifiers: i32,
    pub unused: [i32; 5],
}

/// `mstudioevent_t`, 80 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawEvent {
    pub cycle: f32,
    pub event: i32,
    pub kind: i32,
    pub options: [u8; 64],
    pub szeventindex: i32,
}

/// `mstudioautolayer_t`, 24 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawAutoLayer {
    pub sequence: i16,
    pub pose: i16,
    pub flags: i32,
    pub start: f32,
    pub peak: f32,
    pub tail: f32,
    pub end: f32,
}

const _: () = {
    assert!(size_of::<RawHeader>() == 408);
    assert!(size_of::<RawHeader2>() == 256);
    assert!(size_of::<RawBone>() == 216);
    assert!(size_of::<RawAxisInterp>() == 176);
    assert!(size_of::<RawQuatInterp>() == 12);
    assert!(size_of::<RawQuatTrigger>() == 48);
    assert!(size_of::<RawAimAt>() == 44);
    assert!(size_of::<RawJiggle>() == 140);
    assert!(size_of::<RawBoneController>() == 56);
    assert!(size_of::<RawHitboxSet>() == 12);
    assert!(size_of::<RawHitbox>() == 68);
    assert!(size_of::<RawAttachment>() == 92);
    assert!(size_of::<RawPoseParameter>() == 20);
    assert!(size_of::<RawIkChain>() == 16);
    assert!(size_of::<RawIkLink>() == 28);
    assert!(size_of::<RawIkLock>() == 32);
    assert!(size_of::<RawTexture>() == 64);
    assert!(size_of::<RawBodyPart>() == 16);
    assert!(size_of::<RawModel>() == 148);
    assert!(size_of::<RawMesh>() == 116);
    assert!(size_of::<RawModelGroup>() == 8);
    assert!(size_of::<RawAnimBlock>() == 8);
    assert!(size_of::<RawSection>() == 8);
    assert!(size_of::<RawAnimDesc>() == 100);
    assert!(size_of::<RawMovement>() == 44);
    assert!(size_of::<RawSeqDesc>() == 212);
    assert!(size_of::<RawIkRule>() == 152);
    assert!(size_of::<RawLocalHierarchy>() == 48);
    assert!(size_of::<RawCompressedIkError>() == 36);
    assert!(size_of::<RawEvent>() == 80);
    assert!(size_of::<RawAutoLayer>() == 24);
    assert!(size_of::<RawFlexDesc>() == 4);
    assert!(size_of::<RawFlexController>() == 20);
    assert!(size_of::<RawFlexControllerUi>() == 20);
    assert!(size_of::<RawFlexRule>() == 12);
    assert!(size_of::<RawFlexOp>() == 8);
    assert!(size_of::<RawFlex>() == 60);
    assert!(size_of::<RawMouth>() == 20);
    assert!(size_of::<RawEyeball>() == 172);
};

/// `mstudioflexdesc_t`, 4 bytes (source-header.md, "Header"; docs/flex.md).
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawFlexDesc {
    pub szfacsindex: i32,
}

/// `mstudioflexcontroller_t`, 20 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawFlexController {
    pub sztypeindex: i32,
    pub sznameindex: i32,
    pub local_to_global: i32,
    pub min: f32,
    pub max: f32,
}

/// `mstudioflexcontrollerui_t`, 20 bytes: its `szindex` fields are offsets from the record to
/// flex controllers (not to names).
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawFlexControllerUi {
    pub sznameindex: i32,
    pub szindex: [i32; 3],
    pub remaptype: u8,
    pub stereo: u8,
    pub unused: [u8; 2],
}

/// `mstudioflexrule_t`, 12 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawFlexRule {
    pub flex: i32,
    pub numops: i32,
    pub opindex: i32,
}

/// `mstudioflexop_t`, 8 bytes: the operand is an index or a float, by the operation.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawFlexOp {
    pub op: i32,
    pub d: [u8; 4],
}

/// `mstudioflex_t`, 60 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawFlex {
    pub flexdesc: i32,
    pub target: [f32; 4],
    pub numverts: i32,
    pub vertindex: i32,
    pub flexpair: i32,
    pub vertanimtype: u8,
    pub unusedchar: [u8; 3],
    pub unused: [i32; 6],
}

/// `mstudiomouth_t`, 20 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawMouth {
    pub bone: i32,
    pub forward: [f32; 3],
    pub flexdesc: i32,
}

/// `mstudioeyeball_t`, 172 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct RawEyeball {
    pub sznameindex: i32,
    pub bone: i32,
    pub org: [f32; 3],
    pub zoffset: f32,
    pub radius: f32,
    pub up: [f32; 3],
    pub forward: [f32; 3],
    pub texture: i32,
    pub unused1: i32,
    pub iris_scale: f32,
    pub unused2: i32,
    pub upperflexdesc: [i32; 3],
    pub lowerflexdesc: [i32; 3],
    pub uppertarget: [f32; 3],
    pub lowertarget: [f32; 3],
    pub upperlidflexdesc: i32,
    pub lowerlidflexdesc: i32,
    pub unused: [i32; 4],
    pub non_facs: u8,
    pub unused3: [u8; 3],
    pub unused4: [i32; 7],
}
