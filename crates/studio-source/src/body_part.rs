//! Body parts, their models and the models' meshes as the `.mdl` describes them
//! (source-header.md, "Body parts and the body value"; source-mesh.md, "Models and meshes in
//! the .mdl"). The vertices themselves are in the `.vvd`, the triangles in the `.vtx`.

use glam::Vec3;

use crate::error::{Record, Result, Warning};
use crate::eyeball;
use crate::raw::{RawBodyPart, RawHeader, RawMesh, RawModel};
use crate::reader::FileData;
use crate::vert_anim::{self, DeltaFormat};

/// One body part: a choice of models.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyPart {
    /// Its name.
    pub name: String,
    /// The body value's divisor for this part: it draws model `(body / base) % models.len()`.
    pub base: i32,
    /// The choices.
    pub models: Vec<BodyModel>,
}

/// One model of a body part (`mstudiomodel_t`).
#[derive(Clone, Debug, PartialEq)]
pub struct BodyModel {
    /// Its name (the source file it was compiled from).
    pub name: String,
    /// Bounding radius.
    pub bounding_radius: f32,
    /// Vertices at LOD 0.
    pub num_vertices: i32,
    /// Byte offset of its first vertex in the `.vvd`'s LOD 0 list (48 bytes per vertex).
    pub vertex_index: i32,
    /// Byte offset of its first tangent (16 bytes each).
    pub tangent_index: i32,
    /// Eyeballs, counted.
    pub num_eyeballs: i32,
    /// The eyeballs.
    pub eyeballs: Vec<crate::eyeball::Eyeball>,
    /// Its meshes; none for a blank choice.
    pub meshes: Vec<Mesh>,
}

/// One mesh of a model (`mstudiomesh_t`).
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    /// Its material slot: the texture is `skins[skin][material]`.
    pub material: i32,
    /// Vertices at LOD 0.
    pub num_vertices: i32,
    /// First vertex, counted from the model's first.
    pub vertex_offset: i32,
    /// Flexes (morph targets), counted.
    pub num_flexes: i32,
    /// The flexes.
    pub flexes: Vec<crate::vert_anim::MeshFlex>,
    /// 1 for an eyeball mesh.
    pub material_type: i32,
    /// Eyeball index for an eyeball mesh.
    pub material_param: i32,
    /// Unique ordinal.
    pub id: i32,
    /// Centre.
    pub center: Vec3,
    /// Vertices at each LOD.
    pub lod_vertices: [i32; 8],
}

/// The body parts; a part's name that cannot be read is a warning and reads as empty.
pub(crate) fn parse(
    file: &FileData<'_>,
    raw: &RawHeader,
    (bones, descs): (usize, usize),
    warnings: &mut Vec<Warning>,
) -> Result<Vec<BodyPart>> {
    let format = DeltaFormat::new(raw.flags, raw.vert_anim_fixed_point_scale);
    let parts = file.table::<RawBodyPart>(
        Record::BodyPart,
        None,
        0,
        "numbodyparts",
        raw.numbodyparts,
        "bodypartindex",
        raw.bodypartindex,
    )?;
    let mut out = Vec::with_capacity(parts.len());
    for (p, part_at, part) in parts.iter() {
        let models = file.table::<RawModel>(
            Record::BodyPart,
            Some(p),
            part_at,
            "nummodels",
            part.nummodels,
            "modelindex",
            part.modelindex,
        )?;
        let mut body_models = Vec::with_capacity(models.len());
        for (m, model_at, model) in models.iter() {
            let meshes = file.table::<RawMesh>(
                Record::Model,
                Some(m),
                model_at,
                "nummeshes",
                model.nummeshes,
                "meshindex",
                model.meshindex,
            )?;
            let mut mesh_list = Vec::with_capacity(meshes.len());
            for (k, mesh_at, mesh) in meshes.iter() {
                mesh_list.push(Mesh {
                    material: mesh.material,
                    num_vertices: mesh.numvertices,
                    vertex_offset: mesh.vertexoffset,
                    num_flexes: mesh.numflexes,
                    flexes: vert_anim::parse(file, (k, mesh_at, &mesh), descs, format)?,
                    material_type: mesh.materialtype,
                    material_param: mesh.materialparam,
                    id: mesh.meshid,
                    center: Vec3::from_array(mesh.center),
                    lod_vertices: mesh.num_lod_vertexes,
                });
            }
            body_models.push(BodyModel {
                name: studio_bytes::name(&model.name),
                bounding_radius: model.boundingradius,
                num_vertices: model.numvertices,
                vertex_index: model.vertexindex,
                tangent_index: model.tangentsindex,
                num_eyeballs: model.numeyeballs,
                eyeballs: eyeball::parse(file, (m, model_at, &model), bones, descs, warnings)?,
                meshes: mesh_list,
            });
        }
        out.push(BodyPart {
            name: file.optional_name(
                Record::BodyPart,
                Some(p),
                part_at,
                "sznameindex",
                part.sznameindex,
                warnings,
            ),
            base: part.base,
            models: body_models,
        });
    }
    Ok(out)
}
