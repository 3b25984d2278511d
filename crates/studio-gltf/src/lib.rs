//! glTF 2.0 export of studio models: an [`ExportModel`] (filled by each format's adapter from
//! its model and pose evaluator) written as `.glb` or `.gltf` + `.bin` with its skeleton,
//! skinned meshes, PNG textures, one animation per sequence (a key per frame, exact poses),
//! attachments and hit boxes.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod model;
pub mod writer;

pub use model::{
    AlphaMode, ExportAnimation, ExportAttachment, ExportBone, ExportHitbox, ExportMaterial, ExportMesh,
    ExportModel, ExportPrimitive, ExportVertex,
};
pub use writer::{Document, WriteError, document, glb, gltf_json};
