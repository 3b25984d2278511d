//! A Source model with its companion files (source-mesh.md, "Files"; source-header.md, ".ani
//! files"): the `.vvd`, `.vtx` and `.ani` beside or named by the `.mdl`, and its include models.
//! A companion that is missing or unusable is a warning; only what is in it is unavailable.

use crate::ani;
use crate::error::{Error, FileRole, Place, Problem, Record, Result, Warning, WarningKind};
use crate::model::{SourceModel, parse_file};
use crate::vtx::{Vtx, parse_vtx};
use crate::vvd::{VertexData, parse_vvd};

/// The files of a model set, as bytes (from disk by [`crate::load`], or from tests and fuzzing).
#[derive(Clone, Debug, Default)]
pub struct SourceFiles<'a> {
    /// The `.mdl`.
    pub mdl: &'a [u8],
    /// The `.vvd`, if there is one.
    pub vvd: Option<&'a [u8]>,
    /// The `.vtx` (`.dx90.vtx` preferred), if there is one.
    pub vtx: Option<&'a [u8]>,
    /// The `.ani` the header names, if found.
    pub ani: Option<&'a [u8]>,
    /// Each include model's `.mdl`, in the header's order, where found.
    pub includes: Vec<Option<&'a [u8]>>,
}

/// Reads a model set: the `.mdl` must be usable; its companions add what they can.
pub fn parse_set(files: &SourceFiles<'_>) -> Result<SourceModel> {
    Ok(complete(parse_file(files.mdl, FileRole::Mdl)?, files))
}

/// Adds the companions of `files` (its `mdl` already read into `model`).
pub(crate) fn complete(mut model: SourceModel, files: &SourceFiles<'_>) -> SourceModel {
    let mut warnings = std::mem::take(&mut model.warnings);
    if let Some(bytes) = files.ani {
        let counts = crate::ik_rule::Counts { bones: model.bones.len(), chains: model.ik_chains.len() };
        match ani::apply(bytes, &model.anim_blocks, &mut model.animations, &counts, &mut warnings) {
            Ok(()) => model.data.ani = Some(bytes.into()),
            Err(error) => warnings.push(unusable(error)),
        }
    }
    model.vertices =
        files.vvd.and_then(|bytes| companion(parse_vvd(bytes, model.bones.len()), &mut warnings));
    if let Some(v) = &model.vertices
        && v.checksum != model.header.checksum
    {
        warnings.push(mismatch(FileRole::Vvd, model.header.checksum, v.checksum));
        model.vertices = None;
    }
    model.vtx = files.vtx.and_then(|bytes| companion(parse_vtx(bytes), &mut warnings));
    if let Some(vtx) = &model.vtx {
        if vtx.checksum != model.header.checksum {
            warnings.push(mismatch(FileRole::Vtx, model.header.checksum, vtx.checksum));
            model.vtx = None;
        } else if let Err(error) = matches_model(vtx, &model, model.vertices.as_ref()) {
            warnings.push(unusable(error));
            model.vtx = None;
        }
    }
    model.includes = files
        .includes
        .iter()
        .enumerate()
        .map(|(i, bytes)| {
            let include = parse_file((*bytes)?, FileRole::Include(i));
            let mut include = companion(include, &mut warnings)?;
            warnings.append(&mut include.warnings);
            Some(include)
        })
        .collect();
    model.warnings = warnings;
    model
}

/// A companion's contents, or a warning that it is not used.
fn companion<T>(result: Result<T>, warnings: &mut Vec<Warning>) -> Option<T> {
    result.map_err(|error| warnings.push(unusable(error))).ok()
}

fn unusable(error: Error) -> Warning {
    Warning { place: error.place, kind: WarningKind::BadFile { problem: error.problem } }
}

fn mismatch(file: FileRole, expected: i32, found: i32) -> Warning {
    Warning {
        place: Place { file, record: Record::Header, index: None, offset: 8 },
        kind: WarningKind::ChecksumMismatch { expected, found },
    }
}

/// Checks that the `.vtx` has the `.mdl`'s body parts, models and LOD 0 meshes, that each
/// strip group vertex names a vertex of its mesh, and that each model's vertices lie in the
/// `.vvd`'s LOD 0 list (source-mesh.md, "Drawing LOD 0").
fn matches_model(vtx: &Vtx, model: &SourceModel, vertices: Option<&VertexData>) -> Result<()> {
    let error = |record, index, problem| Error {
        place: Place { file: FileRole::Vtx, record, index, offset: 0 },
        problem,
    };
    let count = |field, value: usize, target, count| Problem::BadReference {
        field,
        value: value as i64,
        target,
        count,
    };
    if vtx.body_parts.len() != model.body_parts.len() {
        return Err(error(
            Record::VtxBodyPart,
            None,
            count("numBodyParts", vtx.body_parts.len(), "body part of the .mdl", model.body_parts.len()),
        ));
    }
    for (p, (vtx_models, part)) in vtx.body_parts.iter().zip(&model.body_parts).enumerate() {
        if vtx_models.len() != part.models.len() {
            return Err(error(
                Record::VtxBodyPart,
                Some(p),
                count("numModels", vtx_models.len(), "model of the .mdl", part.models.len()),
            ));
        }
        for (m, (vtx_model, mdl_model)) in vtx_models.iter().zip(&part.models).enumerate() {
            let Some(lod) = vtx_model.lods.first() else { continue };
            if lod.meshes.len() != mdl_model.meshes.len() {
                return Err(error(
                    Record::VtxModel,
                    Some(m),
                    count("numMeshes", lod.meshes.len(), "mesh of the .mdl", mdl_model.meshes.len()),
                ));
            }
            let base = usize::try_from(mdl_model.vertex_index).unwrap_or(usize::MAX) / 48;
            for (k, (vtx_mesh, mesh)) in lod.meshes.iter().zip(&mdl_model.meshes).enumerate() {
                let mesh_vertices = usize::try_from(mesh.num_vertices).unwrap_or(0);
                for group in &vtx_mesh.strip_groups {
                    if let Some(&bad) = group.mesh_vertices.iter().find(|&&v| usize::from(v) >= mesh_vertices)
                    {
                        return Err(error(
                            Record::VtxMesh,
                            Some(k),
                            count("origMeshVertID", usize::from(bad), "vertex of the mesh", mesh_vertices),
                        ));
                    }
                }
                if let Some(vertices) = vertices {
                    let end = usize::try_from(mesh.vertex_offset)
                        .ok()
                        .and_then(|offset| base.checked_add(offset)?.checked_add(mesh_vertices));
                    if end.is_none_or(|end| end > vertices.vertices.len()) {
                        return Err(Error {
                            place: Place {
                                file: FileRole::Mdl,
                                record: Record::Mesh,
                                index: Some(k),
                                offset: 0,
                            },
                            problem: count(
                                "vertexoffset + numvertices",
                                end.unwrap_or(usize::MAX),
                                "vertex of the .vvd",
                                vertices.vertices.len(),
                            ),
                        });
                    }
                }
            }
        }
    }
    Ok(())
}

/// Whether the animations use `.ani` blocks (so a missing `.ani` matters).
pub fn uses_ani(model: &SourceModel) -> bool {
    model
        .animations
        .iter()
        .any(|a| a.places().iter().any(|(place, frames)| frames.is_some() && place.block >= 1))
}

/// A warning that a companion file named by the model (or beside it) was not found.
pub fn missing(file: FileRole, name: &str, tried: &str) -> Warning {
    Warning {
        place: Place { file, record: Record::Header, index: None, offset: 0 },
        kind: WarningKind::MissingFile { name: name.to_owned(), tried: tried.to_owned() },
    }
}
