//! Lays an [`ExportModel`] out as glTF 2.0: the JSON through `gltf-json`, the binary buffer by
//! hand (every view 4-byte aligned; positions and key times with their bounds, as the format
//! requires).
//!
//! Nodes: 0 is the root, named after the model, carrying the conversion from the model's Z-up
//! space to glTF's Y-up (−90° about X) and the scale; the bones are its descendants in the
//! file's hierarchy, each at its rest pose; attachments and hit boxes (with `extras`) are
//! children of their bones; each mesh is a node of the scene beside the root, skinned by one
//! skin over all the bones, whose inverse bind matrices are the inverses of the bones' bind
//! transforms.

use std::collections::HashMap;

use gltf_json as json;
use json::validation::{Checked, USize64};

use crate::model::{AlphaMode, ExportModel, ExportVertex};

/// Why an export could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The JSON could not be made.
    #[error("the glTF JSON: {0}")]
    Json(String),
    /// A texture could not be encoded.
    #[error("texture {name}: {problem}")]
    Png {
        /// The material.
        name: String,
        /// Why.
        problem: String,
    },
    /// The model has more of something than glTF can index.
    #[error("{0}")]
    TooLarge(String),
}

/// The JSON document and its binary buffer.
pub struct Document {
    /// The JSON root.
    pub root: json::Root,
    /// The buffer's bytes.
    pub bin: Vec<u8>,
}

struct Builder {
    root: json::Root,
    bin: Vec<u8>,
}

/// −90° about X: the model's +Z (up) becomes glTF's +Y.
const Z_UP_TO_Y_UP: [f32; 4] = [-std::f32::consts::FRAC_1_SQRT_2, 0.0, 0.0, std::f32::consts::FRAC_1_SQRT_2];

fn index<T>(i: usize) -> json::Index<T> {
    json::Index::new(i as u32)
}

impl Builder {
    fn view(
        &mut self,
        bytes: &[u8],
        target: Option<json::buffer::Target>,
    ) -> json::Index<json::buffer::View> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.root.push(json::buffer::View {
            buffer: index(0),
            byte_length: USize64::from(bytes.len()),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Checked::Valid),
            extensions: None,
            extras: Default::default(),
        })
    }

    /// An accessor of `count` elements of `kind` made of `component`s, over `bytes`.
    #[allow(clippy::too_many_arguments)]
    fn accessor(
        &mut self,
        bytes: &[u8],
        count: usize,
        component: json::accessor::ComponentType,
        kind: json::accessor::Type,
        target: Option<json::buffer::Target>,
        bounds: Option<(Vec<f32>, Vec<f32>)>,
    ) -> json::Index<json::Accessor> {
        let view = self.view(bytes, target);
        let value = |v: Vec<f32>| json::Value::from(v);
        self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64::from(count),
            component_type: Checked::Valid(json::accessor::GenericComponentType(component)),
            extensions: None,
            extras: Default::default(),
            type_: Checked::Valid(kind),
            min: bounds.as_ref().map(|(min, _)| value(min.clone())),
            max: bounds.map(|(_, max)| value(max)),
            name: None,
            normalized: false,
            sparse: None,
        })
    }

    /// Floats, `width` per element, with their per-component bounds when `bounded`.
    fn floats(
        &mut self,
        data: &[f32],
        width: usize,
        kind: json::accessor::Type,
        target: Option<json::buffer::Target>,
        bounded: bool,
    ) -> json::Index<json::Accessor> {
        let bounds = bounded.then(|| {
            let mut min = vec![f32::INFINITY; width];
            let mut max = vec![f32::NEG_INFINITY; width];
            for element in data.chunks_exact(width) {
                for (i, &v) in element.iter().enumerate() {
                    min[i] = min[i].min(v);
                    max[i] = max[i].max(v);
                }
            }
            (min, max)
        });
        let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.accessor(&bytes, data.len() / width, json::accessor::ComponentType::F32, kind, target, bounds)
    }
}

fn extras(value: serde_json::Value) -> json::Extras {
    serde_json::value::RawValue::from_string(value.to_string()).ok()
}

/// A vertex's bits, for sharing equal vertices.
fn key(v: &ExportVertex) -> [u32; 16] {
    let [p, n] = [v.position, v.normal];
    [
        p.x.to_bits(),
        p.y.to_bits(),
        p.z.to_bits(),
        n.x.to_bits(),
        n.y.to_bits(),
        n.z.to_bits(),
        v.uv[0].to_bits(),
        v.uv[1].to_bits(),
        u32::from(v.joints[0]) | (u32::from(v.joints[1]) << 16),
        u32::from(v.joints[2]) | (u32::from(v.joints[3]) << 16),
        v.weights[0].to_bits(),
        v.weights[1].to_bits(),
        v.weights[2].to_bits(),
        v.weights[3].to_bits(),
        0,
        0,
    ]
}

fn encode_png(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(rgba).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

/// Builds the glTF document of `model`.
pub fn document(model: &ExportModel) -> Result<Document, WriteError> {
    use json::accessor::{ComponentType, Type};
    use json::buffer::Target;
    if model.bones.len() > usize::from(u16::MAX) {
        return Err(WriteError::TooLarge(format!(
            "{} bones is more than glTF joints index",
            model.bones.len()
        )));
    }
    let mut b = Builder { root: json::Root::default(), bin: Vec::new() };
    b.root.asset.generator = Some("studioview".to_owned());

    // Materials and their textures.
    let sampler = b.root.push(json::texture::Sampler {
        wrap_s: Checked::Valid(json::texture::WrappingMode::Repeat),
        wrap_t: Checked::Valid(json::texture::WrappingMode::Repeat),
        ..Default::default()
    });
    for material in &model.materials {
        let texture = match &material.image {
            Some((w, h, rgba)) if *w > 0 && *h > 0 => {
                let png = encode_png(*w, *h, rgba)
                    .map_err(|problem| WriteError::Png { name: material.name.clone(), problem })?;
                let view = b.view(&png, None);
                let image = b.root.push(json::Image {
                    buffer_view: Some(view),
                    mime_type: Some(json::image::MimeType("image/png".to_owned())),
                    name: Some(material.name.clone()),
                    uri: None,
                    extensions: None,
                    extras: Default::default(),
                });
                Some(b.root.push(json::Texture {
                    name: Some(material.name.clone()),
                    sampler: Some(sampler),
                    source: image,
                    extensions: None,
                    extras: Default::default(),
                }))
            }
            _ => None,
        };
        let (alpha_mode, alpha_cutoff) = match material.alpha {
            AlphaMode::Opaque => (json::material::AlphaMode::Opaque, None),
            AlphaMode::Mask(cutoff) => {
                (json::material::AlphaMode::Mask, Some(json::material::AlphaCutoff(cutoff)))
            }
            AlphaMode::Blend => (json::material::AlphaMode::Blend, None),
        };
        b.root.push(json::Material {
            name: Some(material.name.clone()),
            alpha_mode: Checked::Valid(alpha_mode),
            alpha_cutoff,
            double_sided: material.double_sided,
            pbr_metallic_roughness: json::material::PbrMetallicRoughness {
                base_color_texture: texture.map(|index| json::texture::Info {
                    index,
                    tex_coord: 0,
                    extensions: None,
                    extras: Default::default(),
                }),
                metallic_factor: json::material::StrengthFactor(0.0),
                roughness_factor: json::material::StrengthFactor(1.0),
                ..Default::default()
            },
            ..Default::default()
        });
    }

    // Nodes: the root, then the bones.
    let root = b.root.push(json::Node {
        name: Some(if model.name.is_empty() { "model".to_owned() } else { model.name.clone() }),
        rotation: Some(json::scene::UnitQuaternion(Z_UP_TO_Y_UP)),
        scale: (model.scale != 1.0 && model.scale.is_finite() && model.scale > 0.0)
            .then(|| [1.0 / model.scale; 3]),
        ..Default::default()
    });
    let bone_node = |i: usize| 1 + i;
    for bone in &model.bones {
        let q = bone.rotation.normalize();
        b.root.push(json::Node {
            name: Some(bone.name.clone()),
            translation: Some(bone.translation.to_array()),
            rotation: Some(json::scene::UnitQuaternion(q.to_array())),
            ..Default::default()
        });
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); 1 + model.bones.len()];
    for (i, bone) in model.bones.iter().enumerate() {
        let parent = bone.parent.filter(|&p| p < i).map_or(0, bone_node);
        children[parent].push(bone_node(i));
    }
    for attachment in &model.attachments {
        let (scale, rotation, translation) = attachment.local.to_scale_rotation_translation();
        let node = b.root.push(json::Node {
            name: Some(attachment.name.clone()),
            translation: Some(translation.to_array()),
            rotation: Some(json::scene::UnitQuaternion(rotation.normalize().to_array())),
            scale: (!scale.abs_diff_eq(glam::Vec3::ONE, 1e-5)).then(|| scale.to_array()),
            ..Default::default()
        });
        let parent = attachment.bone.filter(|&p| p < model.bones.len()).map_or(0, bone_node);
        children[parent].push(node.value());
    }
    for (i, hitbox) in model.hitboxes.iter().enumerate() {
        let name = if hitbox.name.is_empty() { format!("hitbox {i}") } else { hitbox.name.clone() };
        let node = b.root.push(json::Node {
            name: Some(name),
            extras: extras(serde_json::json!({
                "group": hitbox.group,
                "bbmin": hitbox.bbmin.to_array(),
                "bbmax": hitbox.bbmax.to_array(),
                "set": hitbox.set,
            })),
            ..Default::default()
        });
        let parent = if hitbox.bone < model.bones.len() { bone_node(hitbox.bone) } else { 0 };
        children[parent].push(node.value());
    }
    for (node, kids) in children.into_iter().enumerate() {
        if !kids.is_empty() {
            b.root.nodes[node].children = Some(kids.into_iter().map(index).collect());
        }
    }

    // The skin.
    let mut scene_nodes = vec![root];
    if !model.bones.is_empty() {
        let matrices: Vec<f32> = model
            .bones
            .iter()
            .flat_map(|bone| glam::Mat4::from(bone.bind.inverse()).to_cols_array())
            .collect();
        let ibm = b.floats(&matrices, 16, Type::Mat4, None, false);
        b.root.push(json::Skin {
            extensions: None,
            extras: Default::default(),
            inverse_bind_matrices: Some(ibm),
            joints: (0..model.bones.len()).map(|i| index(bone_node(i))).collect(),
            name: Some("skeleton".to_owned()),
            skeleton: Some(root),
        });
    }

    // Meshes.
    for mesh in &model.meshes {
        let mut primitives = Vec::new();
        for primitive in &mesh.primitives {
            let mut shared: HashMap<[u32; 16], u32> = HashMap::new();
            let mut vertices: Vec<ExportVertex> = Vec::new();
            let mut indices: Vec<u32> = Vec::new();
            for triangle in &primitive.triangles {
                for v in triangle {
                    let mut v = *v;
                    v.normal = v.normal.try_normalize().unwrap_or(glam::Vec3::Z);
                    for j in 0..4 {
                        if v.weights[j] == 0.0 {
                            v.joints[j] = 0;
                        }
                    }
                    let next = vertices.len() as u32;
                    let at = *shared.entry(key(&v)).or_insert_with(|| {
                        vertices.push(v);
                        next
                    });
                    indices.push(at);
                }
            }
            if indices.is_empty() {
                continue;
            }
            let positions: Vec<f32> = vertices.iter().flat_map(|v| v.position.to_array()).collect();
            let normals: Vec<f32> = vertices.iter().flat_map(|v| v.normal.to_array()).collect();
            let uvs: Vec<f32> = vertices.iter().flat_map(|v| v.uv).collect();
            let weights: Vec<f32> = vertices.iter().flat_map(|v| v.weights).collect();
            let joints: Vec<u8> = vertices.iter().flat_map(|v| v.joints).flat_map(u16::to_le_bytes).collect();
            let index_bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
            let mut attributes = std::collections::BTreeMap::new();
            let semantic = |s| Checked::Valid(s);
            use json::mesh::Semantic;
            attributes.insert(
                semantic(Semantic::Positions),
                b.floats(&positions, 3, Type::Vec3, Some(Target::ArrayBuffer), true),
            );
            attributes.insert(
                semantic(Semantic::Normals),
                b.floats(&normals, 3, Type::Vec3, Some(Target::ArrayBuffer), false),
            );
            attributes.insert(
                semantic(Semantic::TexCoords(0)),
                b.floats(&uvs, 2, Type::Vec2, Some(Target::ArrayBuffer), false),
            );
            if !model.bones.is_empty() {
                let count = vertices.len();
                attributes.insert(
                    semantic(Semantic::Joints(0)),
                    b.accessor(
                        &joints,
                        count,
                        ComponentType::U16,
                        Type::Vec4,
                        Some(Target::ArrayBuffer),
                        None,
                    ),
                );
                attributes.insert(
                    semantic(Semantic::Weights(0)),
                    b.floats(&weights, 4, Type::Vec4, Some(Target::ArrayBuffer), false),
                );
            }
            let indices = b.accessor(
                &index_bytes,
                indices.len(),
                ComponentType::U32,
                Type::Scalar,
                Some(Target::ElementArrayBuffer),
                None,
            );
            primitives.push(json::mesh::Primitive {
                attributes,
                extensions: None,
                extras: Default::default(),
                indices: Some(indices),
                material: primitive.material.filter(|&m| m < model.materials.len()).map(index),
                mode: Checked::Valid(json::mesh::Mode::Triangles),
                targets: None,
            });
        }
        if primitives.is_empty() {
            continue;
        }
        let mesh_index = b.root.push(json::Mesh {
            extensions: None,
            extras: Default::default(),
            name: Some(mesh.name.clone()),
            primitives,
            weights: None,
        });
        let node = b.root.push(json::Node {
            name: Some(mesh.name.clone()),
            mesh: Some(mesh_index),
            skin: (!model.bones.is_empty()).then(|| index(0)),
            ..Default::default()
        });
        scene_nodes.push(node);
    }

    // Animations: one channel per bone and property, all sharing the key times.
    for animation in &model.animations {
        if animation.times.is_empty() {
            continue;
        }
        let times = b.floats(&animation.times, 1, Type::Scalar, None, true);
        let mut channels = Vec::new();
        let mut samplers = Vec::new();
        for bone in 0..model.bones.len() {
            let (Some(t), Some(r)) = (animation.translations.get(bone), animation.rotations.get(bone)) else {
                continue;
            };
            let t: Vec<f32> = t.iter().flat_map(|v| v.to_array()).collect();
            let r: Vec<f32> = r.iter().flat_map(|q| q.normalize().to_array()).collect();
            for (values, width, kind, property) in [
                (t, 3, Type::Vec3, json::animation::Property::Translation),
                (r, 4, Type::Vec4, json::animation::Property::Rotation),
            ] {
                if values.len() != animation.times.len() * width {
                    continue;
                }
                let output = b.floats(&values, width, kind, None, false);
                let sampler = json::Index::new(samplers.len() as u32);
                samplers.push(json::animation::Sampler {
                    extensions: None,
                    extras: Default::default(),
                    input: times,
                    interpolation: Checked::Valid(json::animation::Interpolation::Linear),
                    output,
                });
                channels.push(json::animation::Channel {
                    sampler,
                    target: json::animation::Target {
                        extensions: None,
                        extras: Default::default(),
                        node: index(bone_node(bone)),
                        path: Checked::Valid(property),
                    },
                    extensions: None,
                    extras: Default::default(),
                });
            }
        }
        if !channels.is_empty() {
            b.root.push(json::Animation {
                extensions: None,
                extras: Default::default(),
                channels,
                name: Some(animation.name.clone()),
                samplers,
            });
        }
    }

    let scene = b.root.push(json::Scene {
        extensions: None,
        extras: Default::default(),
        name: Some("scene".to_owned()),
        nodes: scene_nodes,
    });
    b.root.scene = Some(scene);
    while !b.bin.len().is_multiple_of(4) {
        b.bin.push(0);
    }
    b.root.push(json::Buffer {
        byte_length: USize64::from(b.bin.len()),
        name: None,
        uri: None,
        extensions: None,
        extras: Default::default(),
    });
    Ok(Document { root: b.root, bin: b.bin })
}

/// The document as one binary `.glb`: the 12-byte header, the JSON chunk padded with spaces,
/// the binary chunk padded with zeros.
pub fn glb(document: &Document) -> Result<Vec<u8>, WriteError> {
    let mut json = document.root.to_vec().map_err(|e| WriteError::Json(e.to_string()))?;
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let total = 12 + 8 + json.len() + 8 + document.bin.len();
    let total = u32::try_from(total)
        .map_err(|_| WriteError::TooLarge(format!("{total} bytes is more than a .glb holds")))?;
    let mut out = Vec::with_capacity(total as usize);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&total.to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(&(document.bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&document.bin);
    Ok(out)
}

/// The document as `.gltf` JSON whose buffer is the file `bin_name` beside it.
pub fn gltf_json(document: &Document, bin_name: &str) -> Result<Vec<u8>, WriteError> {
    let mut root = document.root.clone();
    if let Some(buffer) = root.buffers.first_mut() {
        buffer.uri = Some(bin_name.to_owned());
    }
    root.to_vec_pretty().map_err(|e| WriteError::Json(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ExportAnimation, ExportBone, ExportMaterial, ExportMesh, ExportPrimitive};
    use glam::{Affine3A, Quat, Vec3};

    fn tiny() -> ExportModel {
        let bind = |t: Vec3| Affine3A::from_translation(t);
        let vertex = |x: f32, y: f32, joint: u16| ExportVertex {
            position: Vec3::new(x, y, 0.0),
            normal: Vec3::Z * 2.0,
            uv: [x, y],
            joints: [joint, 1, 0, 0],
            weights: [1.0, 0.0, 0.0, 0.0],
        };
        ExportModel {
            name: "tiny".into(),
            bones: vec![
                ExportBone {
                    name: "a".into(),
                    parent: None,
                    translation: Vec3::ZERO,
                    rotation: Quat::IDENTITY,
                    bind: bind(Vec3::ZERO),
                },
                ExportBone {
                    name: "b".into(),
                    parent: Some(0),
                    translation: Vec3::X,
                    rotation: Quat::IDENTITY,
                    bind: bind(Vec3::X),
                },
            ],
            meshes: vec![ExportMesh {
                name: "body".into(),
                primitives: vec![ExportPrimitive {
                    material: Some(0),
                    // Two triangles sharing two vertices.
                    triangles: vec![
                        [vertex(0.0, 0.0, 0), vertex(1.0, 0.0, 1), vertex(0.0, 1.0, 0)],
                        [vertex(1.0, 0.0, 1), vertex(1.0, 1.0, 1), vertex(0.0, 1.0, 0)],
                    ],
                }],
            }],
            materials: vec![ExportMaterial {
                name: "skin".into(),
                image: Some((2, 1, vec![255, 0, 0, 255, 0, 255, 0, 128])),
                alpha: AlphaMode::Mask(0.25),
                double_sided: true,
            }],
            animations: vec![ExportAnimation {
                name: "wave".into(),
                times: vec![0.0, 0.5],
                translations: vec![vec![Vec3::ZERO; 2], vec![Vec3::X, Vec3::Y]],
                rotations: vec![vec![Quat::IDENTITY; 2], vec![Quat::IDENTITY, Quat::from_rotation_z(1.0)]],
            }],
            scale: 1.0,
            ..ExportModel::default()
        }
    }

    #[test]
    fn a_glb_is_laid_out_as_the_format_says() {
        let document = document(&tiny()).unwrap();
        let bytes = glb(&document).unwrap();
        assert_eq!(&bytes[0..4], b"glTF");
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize, bytes.len());
        let json_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        assert_eq!(json_len % 4, 0);
        assert_eq!(&bytes[16..20], b"JSON");
        assert_eq!(&bytes[20 + json_len + 4..20 + json_len + 8], b"BIN\0");
        let gltf = gltf::Gltf::from_slice(&bytes).unwrap();
        let names: Vec<_> = gltf.nodes().map(|n| n.name().unwrap_or("").to_owned()).collect();
        assert_eq!(names[..3], ["tiny", "a", "b"]);
        let primitive = gltf.meshes().next().unwrap().primitives().next().unwrap();
        let blob = gltf.blob.as_deref().unwrap();
        let reader = primitive.reader(|_| Some(blob));
        assert_eq!(reader.read_positions().unwrap().count(), 4, "equal vertices are shared");
        assert_eq!(reader.read_indices().unwrap().into_u32().count(), 6);
        assert!(reader.read_normals().unwrap().all(|n| (Vec3::from(n).length() - 1.0).abs() < 1e-6));
        // A weight of 0 names joint 0.
        assert!(reader.read_joints(0).unwrap().into_u16().all(|j| j[1] == 0));
        let material = gltf.materials().next().unwrap();
        assert_eq!(material.alpha_mode(), gltf::material::AlphaMode::Mask);
        assert_eq!(material.alpha_cutoff(), Some(0.25));
        assert_eq!(gltf.animations().next().unwrap().name(), Some("wave"));
        assert_eq!(gltf.skins().next().unwrap().joints().count(), 2);
    }

    #[test]
    fn a_gltf_names_its_bin_file() {
        let document = document(&tiny()).unwrap();
        let json = gltf_json(&document, "tiny.bin").unwrap();
        let text = String::from_utf8(json).unwrap();
        assert!(text.contains("\"uri\": \"tiny.bin\""), "{text}");
    }
}
