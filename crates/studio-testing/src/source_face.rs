//! A face for a Source fixture: flex controllers, descriptions, rules, mesh flexes, a mouth, an
//! eyeball and UI controls, appended to a shared `.mdl` (anim48's skeleton and body) and pointed
//! at from its header, body part 0's model 0 and that model's mesh 0. The face is described by
//! the constants here, so a test can compute what the engine's formulas give from them alone
//! (docs/flex.md), without the reader.

use crate::source_mdl::{i32_at, set_i32};

/// `studiohdr_t.flags`.
const FLAGS: usize = 152;
/// `studiohdr_t.length`.
const LENGTH: usize = 76;
/// `studiohdr_t.bodypartindex`.
const BODYPART_INDEX: usize = 236;

/// The controllers: name, type, min, max.
pub const CONTROLLERS: [(&str, &str, f32, f32); 6] = [
    ("jaw_drop", "mouth", 0.0, 1.0),
    ("left_smile", "mouth", 0.0, 1.0),
    ("right_smile", "mouth", 0.0, 1.0),
    ("eyes_updown", "eyes", -45.0, 45.0),
    ("close_lid", "eyes", 0.0, 1.0),
    ("nway_value", "mouth", -1.0, 1.0),
];

/// The flex descriptions.
pub const DESCS: [&str; 6] = ["jaw", "smile_l", "smile_r", "dominated", "nway", "upper_lid"];

/// Op codes (`STUDIO_*`).
pub mod op {
    #![allow(missing_docs)]
    pub const CONST: i32 = 1;
    pub const FETCH1: i32 = 2;
    pub const FETCH2: i32 = 3;
    pub const ADD: i32 = 4;
    pub const SUB: i32 = 5;
    pub const MUL: i32 = 6;
    pub const DIV: i32 = 7;
    pub const EXP: i32 = 9;
    pub const MAX: i32 = 13;
    pub const TWO_WAY_1: i32 = 16;
    pub const NWAY: i32 = 17;
    pub const COMBO: i32 = 18;
    pub const DOMINATE: i32 = 19;
    pub const UPPER_EYELID: i32 = 21;
}

/// One operation's operand: an index or a constant.
#[derive(Clone, Copy, Debug)]
pub enum Operand {
    /// An index (controller, description or count).
    Index(i32),
    /// A float constant.
    Value(f32),
}

use Operand::{Index, Value};

/// The rules: the description each sets and its operations.
pub const RULES: [(i32, &[(i32, Operand)]); 6] = [
    // jaw = jaw_drop * 2 - 0.5
    (
        0,
        &[
            (op::FETCH1, Index(0)),
            (op::CONST, Value(2.0)),
            (op::MUL, Index(0)),
            (op::CONST, Value(0.5)),
            (op::SUB, Index(0)),
        ],
    ),
    // smile_l = left_smile (with an EXP the interpreter passes over)
    (1, &[(op::FETCH1, Index(1)), (op::EXP, Index(0))]),
    // smile_r = max(right_smile, clamp(eyes_updown, 0, 1))
    (2, &[(op::FETCH1, Index(2)), (op::TWO_WAY_1, Index(3)), (op::MAX, Index(0))]),
    // dominated = jaw * (1 - left_smile * right_smile); then divided by 0.00001, which is 0
    // (the divisor is not above 0.0001), plus itself again: dominated + 0
    (
        3,
        &[
            (op::FETCH2, Index(0)),
            (op::FETCH1, Index(1)),
            (op::FETCH1, Index(2)),
            (op::DOMINATE, Index(2)),
            (op::FETCH2, Index(0)),
            (op::CONST, Value(0.00001)),
            (op::DIV, Index(0)),
            (op::ADD, Index(0)),
        ],
    ),
    // nway = filter(nway_value; -1, -0.5, 0.5, 1) * jaw_drop
    (
        4,
        &[
            (op::CONST, Value(-1.0)),
            (op::CONST, Value(-0.5)),
            (op::CONST, Value(0.5)),
            (op::CONST, Value(1.0)),
            (op::CONST, Value(5.0)),
            (op::NWAY, Index(0)),
        ],
    ),
    // upper_lid = upper eyelid (eye up-down 3, no blink, close-lid 4, close-lid-V 1) * 0.5 *
    // jaw_drop, the product by COMBO
    (
        5,
        &[
            (op::CONST, Value(3.0)),
            (op::CONST, Value(-1.0)),
            (op::CONST, Value(4.0)),
            (op::UPPER_EYELID, Index(1)),
            (op::CONST, Value(0.5)),
            (op::FETCH1, Index(0)),
            (op::COMBO, Index(3)),
        ],
    ),
];

/// One moved vertex: index, speed, side, position delta, normal delta, wrinkle delta. Every
/// delta is a multiple of 1/4096 that a half float holds exactly.
pub type FaceVertex = (u16, u8, u8, [f32; 3], [f32; 3], f32);

/// One flex: description, partner (0 = none), targets, wrinkle, vertices.
pub type FaceFlex = (i32, i32, [f32; 4], bool, &'static [FaceVertex]);

/// Mesh 0's flexes.
pub const FLEXES: [FaceFlex; 5] = [
    (
        0,
        0,
        [0.0, 1.0, 2.0, 3.0],
        false,
        &[(0, 255, 0, [0.5, 0.0, 0.25], [0.0, 0.5, 0.0], 0.0), (1, 255, 0, [0.0, -1.0, 0.0], [0.0; 3], 0.0)],
    ),
    (
        1,
        2,
        [0.0, 1.0, 1.0, 2.0],
        false,
        &[
            (0, 255, 0, [0.0, 0.0, 1.0], [0.0; 3], 0.0),
            (2, 255, 255, [0.0, 0.0, 1.0], [0.0; 3], 0.0),
            (3, 128, 128, [1.0, 1.0, 1.0], [0.25, 0.0, 0.0], 0.0),
        ],
    ),
    (3, 0, [0.0, 1.0, 1.0, 2.0], true, &[(1, 255, 0, [0.25, 0.25, 0.25], [0.0; 3], 0.5)]),
    (4, 0, [0.0, 1.0, 1.0, 2.0], false, &[(4, 255, 0, [0.0, 0.0, -2.0], [0.0; 3], 0.0)]),
    (5, 0, [0.0, 1.0, 1.0, 2.0], false, &[(5, 255, 0, [0.0, 3.0, 0.0], [0.0; 3], 0.0)]),
];

/// The eyeball on model 0: bone, origin, z offset, radius, up, forward, iris scale.
pub const EYEBALL: (i32, [f32; 3], f32, f32, [f32; 3], [f32; 3], f32) =
    (3, [1.0, 2.0, 3.0], 0.1, 0.5, [0.0, 0.0, 1.0], [1.0, 0.0, 0.0], 2.0);
/// The eyeball's name.
pub const EYEBALL_NAME: &str = "eye_right";

/// The UI controls: name, controllers (−1 none), remap type, stereo.
pub const UI: [(&str, [i32; 3], u8, bool); 2] =
    [("jaw_drop", [0, -1, -1], 0, false), ("smile", [1, 2, -1], 0, true)];

/// `f32` → half float, for values a half holds exactly (normal ones and zero).
pub fn half_bits(value: f32) -> u16 {
    if value == 0.0 {
        return 0;
    }
    let bits = value.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xFF) as i32 - 127 + 15;
    let mantissa = ((bits >> 13) & 0x3FF) as u16;
    assert!((1..31).contains(&exponent), "{value} is not a normal half float");
    sign | ((exponent as u16) << 10) | mantissa
}

/// Appends to a byte image, remembering absolute offsets.
struct Tail {
    bytes: Vec<u8>,
}

impl Tail {
    fn at(&self) -> usize {
        self.bytes.len()
    }
    fn align(&mut self) {
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
    }
    fn i32(&mut self, v: i32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn f32(&mut self, v: f32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn u16(&mut self, v: u16) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn name(&mut self, s: &str) -> usize {
        let at = self.at();
        self.bytes.extend_from_slice(s.as_bytes());
        self.bytes.push(0);
        at
    }
    fn rel(from: usize, to: usize) -> i32 {
        i32::try_from(to as i64 - from as i64).unwrap()
    }
    fn set(&mut self, at: usize, v: i32) {
        set_i32(&mut self.bytes, at, v);
    }
}

/// `mdl` (anim48.mdl or a model of the same body) with the face appended.
pub fn with_face(mdl: &[u8]) -> Vec<u8> {
    let mut t = Tail { bytes: mdl.to_vec() };
    t.align();
    let controller_names: Vec<(usize, usize)> =
        CONTROLLERS.iter().map(|(name, kind, _, _)| (t.name(name), t.name(kind))).collect();
    let desc_names: Vec<usize> = DESCS.iter().map(|d| t.name(d)).collect();
    let ui_names: Vec<usize> = UI.iter().map(|u| t.name(u.0)).collect();
    let eye_name = t.name(EYEBALL_NAME);
    t.align();

    let descs_at = t.at();
    for (i, &name) in desc_names.iter().enumerate() {
        let record = descs_at + i * 4;
        t.i32(Tail::rel(record, name));
    }
    let controllers_at = t.at();
    for (i, ((_, _, min, max), (name, kind))) in CONTROLLERS.iter().zip(&controller_names).enumerate() {
        let record = controllers_at + i * 20;
        t.i32(Tail::rel(record, *kind));
        t.i32(Tail::rel(record, *name));
        t.i32(i as i32);
        t.f32(*min);
        t.f32(*max);
    }
    let ui_at = t.at();
    for (i, ((_, controllers, remap, stereo), name)) in UI.iter().zip(&ui_names).enumerate() {
        let record = ui_at + i * 20;
        t.i32(Tail::rel(record, *name));
        for &c in controllers {
            t.i32(if c < 0 { 0 } else { Tail::rel(record, controllers_at + c as usize * 20) });
        }
        t.bytes.extend_from_slice(&[*remap, u8::from(*stereo), 0, 0]);
    }
    let rules_at = t.at();
    t.bytes.resize(rules_at + RULES.len() * 12, 0);
    for (r, (flex, ops)) in RULES.iter().enumerate() {
        let ops_at = t.at();
        for (code, operand) in ops.iter() {
            t.i32(*code);
            match operand {
                Index(i) => t.i32(*i),
                Value(v) => t.f32(*v),
            }
        }
        let record = rules_at + r * 12;
        t.set(record, *flex);
        t.set(record + 4, ops.len() as i32);
        t.set(record + 8, Tail::rel(record, ops_at));
    }
    let mouth_at = t.at();
    t.i32(3);
    for v in [1.0, 0.0, 0.0] {
        t.f32(v);
    }
    t.i32(0);

    // Body part 0, model 0, mesh 0.
    let part = usize::try_from(i32_at(mdl, BODYPART_INDEX)).unwrap();
    let model = usize::try_from(part as i64 + i64::from(i32_at(mdl, part + 12))).unwrap();
    let mesh = usize::try_from(model as i64 + i64::from(i32_at(mdl, model + 76))).unwrap();

    let flexes_at = t.at();
    t.bytes.resize(flexes_at + FLEXES.len() * 60, 0);
    for (f, (desc, pair, targets, wrinkle, vertices)) in FLEXES.iter().enumerate() {
        let verts_at = t.at();
        for &(index, speed, side, delta, normal, wrinkle_delta) in vertices.iter() {
            t.u16(index);
            t.bytes.extend_from_slice(&[speed, side]);
            for c in delta.iter().chain(&normal) {
                t.u16(half_bits(*c));
            }
            if *wrinkle {
                t.u16(half_bits(wrinkle_delta));
            }
        }
        t.align();
        let record = flexes_at + f * 60;
        t.set(record, *desc);
        for (k, v) in targets.iter().enumerate() {
            t.set(record + 4 + k * 4, v.to_bits() as i32);
        }
        t.set(record + 20, vertices.len() as i32);
        t.set(record + 24, Tail::rel(record, verts_at));
        t.set(record + 28, *pair);
        t.bytes[record + 32] = u8::from(*wrinkle);
    }
    let eye_at = t.at();
    let (bone, org, zoffset, radius, up, forward, iris_scale) = EYEBALL;
    t.i32(Tail::rel(eye_at, eye_name));
    t.i32(bone);
    org.iter().for_each(|v| t.f32(*v));
    t.f32(zoffset);
    t.f32(radius);
    up.iter().for_each(|v| t.f32(*v));
    forward.iter().for_each(|v| t.f32(*v));
    t.i32(0); // texture
    t.i32(0);
    t.f32(iris_scale);
    t.i32(0);
    for _ in 0..6 {
        t.i32(-1); // upper and lower flex descriptions
    }
    for _ in 0..6 {
        t.f32(0.0);
    }
    t.i32(5); // upper lid description
    t.i32(-1);
    t.bytes.resize(eye_at + 172, 0);

    let len = t.at();
    t.set(LENGTH, len as i32);
    t.set(260, DESCS.len() as i32);
    t.set(264, descs_at as i32);
    t.set(268, CONTROLLERS.len() as i32);
    t.set(272, controllers_at as i32);
    t.set(276, RULES.len() as i32);
    t.set(280, rules_at as i32);
    t.set(292, 1);
    t.set(296, mouth_at as i32);
    t.set(384, UI.len() as i32);
    t.set(388, ui_at as i32);
    t.set(mesh + 16, FLEXES.len() as i32);
    t.set(mesh + 20, Tail::rel(mesh, flexes_at));
    t.set(model + 100, 1);
    t.set(model + 104, Tail::rel(model, eye_at));
    // The deltas are half floats for the engine to convert.
    let flags = i32_at(&t.bytes, FLAGS) & !0x4000 & !0x0020_0000;
    t.set(FLAGS, flags);
    t.bytes
}

/// `mdl` with the face (from [`with_face`]) whose body part 0, model 0, mesh `mesh` is made the
/// eyeball's mesh: `materialtype` 1, `materialparam` 0 (the [`EYEBALL`]). `None` when the
/// model has no such mesh.
pub fn with_eyeball_mesh(face: &[u8], mesh: usize) -> Option<Vec<u8>> {
    let mut bytes = face.to_vec();
    let part = usize::try_from(i32_at(&bytes, BODYPART_INDEX)).ok()?;
    let model = usize::try_from(part as i64 + i64::from(i32_at(&bytes, part + 12))).ok()?;
    if mesh >= usize::try_from(i32_at(&bytes, model + 72)).ok()? {
        return None;
    }
    let first = usize::try_from(model as i64 + i64::from(i32_at(&bytes, model + 76))).ok()?;
    // mstudiomesh_t is 116 bytes; materialtype at 24, materialparam at 28.
    let at = first + mesh * 116;
    set_i32(&mut bytes, at + 24, 1);
    set_i32(&mut bytes, at + 28, 0);
    Some(bytes)
}

/// The face fixture's files: anim48.mdl with the face (and, with `eye_mesh`, that mesh of body
/// part 0's model 0 made the eyeball's), and anim48's `.vvd` and `.dx90.vtx`, from `shared`.
pub fn face_files(shared: &std::path::Path, eye_mesh: Option<usize>) -> [Vec<u8>; 3] {
    let dir = shared.join("fixtures/source/models/fixture");
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut mdl = with_face(&read("anim48.mdl"));
    if let Some(mesh) = eye_mesh {
        mdl = with_eyeball_mesh(&mdl, mesh).expect("anim48's model 0 has the mesh");
    }
    [mdl, read("anim48.vvd"), read("anim48.dx90.vtx")]
}

/// Writes the face fixture with its eyeball mesh (mesh 1) into `dir` as `face.mdl`, `face.vvd`
/// and `face.dx90.vtx`, and returns the `.mdl`'s path.
pub fn write_face(shared: &std::path::Path, dir: &std::path::Path) -> std::path::PathBuf {
    let [mdl, vvd, vtx] = face_files(shared, Some(1));
    for (name, bytes) in [("face.mdl", mdl), ("face.vvd", vvd), ("face.dx90.vtx", vtx)] {
        std::fs::write(dir.join(name), bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    dir.join("face.mdl")
}
