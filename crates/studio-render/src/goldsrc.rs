//! The Half-Life (version 10) adapter: a [`studio_model::Model`] and its [`studio_pose::Pose`] as
//! the renderer takes them. Vertices are stored in their bone's space and follow it rigidly,
//! normals follow their own bone (goldsrc-geometry.md, "Submodels"), so the skinning matrices
//! are the bones themselves; textures are palette images in texel units.

use studio_model::{
    Mesh, Model, STUDIO_NF_FLATSHADE, STUDIO_NF_FULLBRIGHT, STUDIO_NF_NOMIPS, Submodel, Texture,
};
use studio_pose::Pose;

use crate::gpu_types::MeshVertex;
use crate::scene::{
    Blend, FramePose, Image, RenderBodyPart, RenderMaterial, RenderMesh, RenderModel, RenderSubmodel,
};

/// The vertices of a mesh as the mesh shader takes them.
pub fn mesh_vertices(submodel: &Submodel, mesh: &Mesh) -> Vec<MeshVertex> {
    mesh.vertices
        .iter()
        .map(|v| {
            let (vertex, normal) = (usize::from(v.vertex), usize::from(v.normal));
            MeshVertex::rigid(
                submodel.vertices.get(vertex).map_or([0.0; 3], |p| p.to_array()),
                submodel.normals.get(normal).map_or([0.0, 0.0, 1.0], |n| n.to_array()),
                [f32::from(v.s), f32::from(v.t)],
                submodel.vertex_bones.get(vertex).copied().unwrap_or(0),
                submodel.normal_bones.get(normal).copied().unwrap_or(0),
            )
        })
        .collect()
}

/// A player's top and bottom colours (`topcolor`, `bottomcolor`), which recolour a player model's
/// `DM_Base` and `Remap` textures ([`studio_model::remap`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerColours {
    /// The top colour, 0–255 (a hue).
    pub top: u8,
    /// The bottom colour.
    pub bottom: u8,
}

/// A texture as a material: chrome, masked (palette index 255 transparent, dropped below half
/// alpha) and additive from its flags; texel coordinates divided by its size.
pub fn material(texture: &Texture) -> RenderMaterial {
    coloured_material(texture, None)
}

/// [`material`], a `DM_Base` or `Remap` texture recoloured with `colours` as the game shows it
/// on a player.
pub fn coloured_material(texture: &Texture, colours: Option<PlayerColours>) -> RenderMaterial {
    let size = |n: u32| if n > 0 { 1.0 / n as f32 } else { 1.0 };
    let remapped = colours.and_then(|c| {
        let palette =
            studio_model::remap::remapped_palette(&texture.name, &texture.palette, c.top, c.bottom)?;
        Some(Texture { palette, ..texture.clone() }.rgba())
    });
    RenderMaterial {
        name: texture.name.clone(),
        image: Some(Image {
            width: texture.width,
            height: texture.height,
            rgba: remapped.unwrap_or_else(|| texture.rgba()),
        }),
        mipmaps: texture.flags & STUDIO_NF_NOMIPS == 0,
        texel_scale: [size(texture.width), size(texture.height)],
        chrome: texture.is_chrome(),
        alpha_test: if texture.is_masked() { 0.5 } else { 0.0 },
        blend: if texture.is_additive() { Blend::Additive } else { Blend::Opaque },
        fullbright: texture.flags & STUDIO_NF_FULLBRIGHT != 0,
        flat_shade: texture.flags & STUDIO_NF_FLATSHADE != 0,
        ..RenderMaterial::default()
    }
}

/// `model` as the renderer draws it.
pub fn render_model(model: &Model) -> RenderModel {
    coloured_render_model(model, None)
}

/// [`render_model`] with a player's colours on its remappable textures.
pub fn coloured_render_model(model: &Model, colours: Option<PlayerColours>) -> RenderModel {
    let body_parts = model
        .body_parts
        .iter()
        .map(|part| RenderBodyPart {
            base: part.base,
            submodels: part
                .submodels
                .iter()
                .map(|submodel| RenderSubmodel {
                    lods: vec![
                        submodel
                            .meshes
                            .iter()
                            .map(|mesh| RenderMesh {
                                vertices: mesh_vertices(submodel, mesh),
                                triangles: mesh.triangles.clone(),
                                slot: usize::try_from(mesh.skin_ref).unwrap_or(usize::MAX),
                                moving: None,
                            })
                            .collect(),
                    ],
                })
                .collect(),
        })
        .collect();
    let skins = (0..model.skins.num_families())
        .map(|family| {
            (0..model.skins.num_refs())
                .map(|slot| model.skins.texture(family, slot as i32).filter(|&t| t < model.textures.len()))
                .collect()
        })
        .collect();
    RenderModel {
        parents: model.bones.iter().map(|b| b.parent).collect(),
        bounds: (model.header.bbmin, model.header.bbmax),
        body_parts,
        materials: model.textures.iter().map(|t| coloured_material(t, colours)).collect(),
        skins,
        hitbox_sets: vec![model.hitboxes.iter().map(|h| h.group).collect()],
        attachments: model.attachments.len(),
        engine: crate::light::Engine::GoldSrc,
    }
}

/// `pose` of `model` (hit boxes and attachments placed), playing `sequence`, as one frame.
pub fn frame_pose<'a>(model: &Model, pose: &'a Pose, sequence: Option<usize>) -> FramePose<'a> {
    FramePose {
        skinning: &pose.bones,
        bones: &pose.bones,
        hitboxes: &pose.hitboxes,
        hitbox_set: 0,
        attachments: &pose.attachments,
        sequence_box: sequence.and_then(|s| model.sequences.get(s)).map(|s| (s.bbmin, s.bbmax)),
        moving: &[],
        moving_revision: 0,
    }
}
