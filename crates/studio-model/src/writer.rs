//! Writing a model back to version 10 files: the main file and, where the model keeps them
//! apart, its texture file and sequence group files — the inverse of [`crate::parse`].
//!
//! Tables are laid out one after another, each aligned to 4 bytes, in the order studiomdl uses.
//! Animation channels are written as the runs they already have (a parsed model keeps its
//! files' runs, so poses stay exactly as they were); [`crate::encode_channel`] makes runs from
//! per-frame values the way studiomdl does, for models built in code.

use bytemuck::Pod;

use crate::animation::Animation;
use crate::header::STUDIO_VERSION;
use crate::model::{Model, TextureSource};
use crate::raw::*;
use crate::sequence::Sequence;

/// Why a model cannot be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// A sequence's animation is not loaded (its group file was missing or unusable).
    #[error("sequence {0}'s animation is not loaded, so its group file cannot be written")]
    Unavailable(usize),
    /// A file would exceed what its int32 offsets can address.
    #[error("the {0} would be larger than 2 GiB")]
    TooLarge(&'static str),
    /// A channel's data lies too far from its record for the 16-bit offset.
    #[error("sequence {sequence}: an animation channel lies more than 65535 bytes from its record")]
    ChannelTooFar {
        /// The sequence.
        sequence: usize,
    },
    /// A count does not fit its field.
    #[error("{0} does not fit its field")]
    Count(&'static str),
}

/// The files of a written model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenFiles {
    /// `name.mdl`.
    pub main: Vec<u8>,
    /// `nameT.mdl`, when the textures are kept apart.
    pub textures: Option<Vec<u8>>,
    /// `name01.mdl`, `name02.mdl`…: one per sequence group after group 0.
    pub groups: Vec<Vec<u8>>,
}

/// A growing file.
struct Out {
    bytes: Vec<u8>,
    what: &'static str,
}

impl Out {
    fn new(what: &'static str) -> Self {
        Self { bytes: Vec::new(), what }
    }

    fn align(&mut self) {
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
    }

    /// The current end, as an int32 offset.
    fn pos(&self) -> Result<i32, WriteError> {
        i32::try_from(self.bytes.len()).map_err(|_| WriteError::TooLarge(self.what))
    }

    fn put<T: Pod>(&mut self, record: &T) {
        self.bytes.extend_from_slice(bytemuck::bytes_of(record));
    }

    fn patch<T: Pod>(&mut self, at: i32, record: &T) {
        let at = at as usize;
        self.bytes[at..at + size_of::<T>()].copy_from_slice(bytemuck::bytes_of(record));
    }

    /// Appends records (aligned) and returns the table's offset (0 for none).
    fn table<T: Pod>(&mut self, records: &[T]) -> Result<i32, WriteError> {
        if records.is_empty() {
            return Ok(0);
        }
        self.align();
        let at = self.pos()?;
        for record in records {
            self.put(record);
        }
        Ok(at)
    }
}

fn count(n: usize, what: &'static str) -> Result<i32, WriteError> {
    i32::try_from(n).map_err(|_| WriteError::Count(what))
}

/// A name into a fixed field, NUL-terminated and cut to fit. Names whose characters are all in
/// Latin-1 are written a byte a character (as the parser reads non-UTF-8 names); others as UTF-8.
fn name<const N: usize>(text: &str) -> [u8; N] {
    let bytes: Vec<u8> = if text.chars().all(|c| u32::from(c) <= 0xFF) {
        text.chars().map(|c| c as u32 as u8).collect()
    } else {
        text.as_bytes().to_vec()
    };
    let mut field = [0u8; N];
    for (slot, byte) in field.iter_mut().zip(bytes.iter().take(N - 1)) {
        *slot = *byte;
    }
    field
}

/// The bytes of a channel's runs, up to the run that covers its last frame.
fn channel_runs(model: &Model, sequence: &Sequence, channel: crate::Channel) -> Vec<u8> {
    let frames = u64::from(sequence.frames());
    let mut covered = 0u64;
    let mut bytes = Vec::new();
    for run in model.runs(sequence, channel) {
        bytes.push(run.valid);
        bytes.push(run.total);
        for value in run.values() {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        covered += u64::from(run.total);
        if covered >= frames {
            break;
        }
    }
    bytes
}

/// Writes a sequence's animation records and channel data; returns its `animindex`.
fn write_animation(
    out: &mut Out,
    model: &Model,
    index: usize,
    sequence: &Sequence,
) -> Result<i32, WriteError> {
    let animation: &Animation = sequence.animation.as_ref().ok_or(WriteError::Unavailable(index))?;
    out.align();
    let start = out.pos()?;
    // All blends' records first (the game steps from blend to blend by numbones records),
    // then each channel's runs.
    let bones = animation.num_bones();
    let records = animation.num_blends() * bones;
    let records_at = out.bytes.len();
    out.bytes.resize(records_at + records * size_of::<RawAnim>(), 0);
    for blend in 0..animation.num_blends() {
        let anims = animation.blend(blend).unwrap_or_default();
        for (bone, anim) in anims.iter().enumerate().take(bones) {
            let record_at = records_at + (blend * bones + bone) * size_of::<RawAnim>();
            let mut raw = RawAnim { offset: [0; 6] };
            for (slot, channel) in raw.offset.iter_mut().zip(&anim.channels) {
                if let Some(channel) = channel {
                    let relative = out.bytes.len() - record_at;
                    *slot =
                        u16::try_from(relative).map_err(|_| WriteError::ChannelTooFar { sequence: index })?;
                    let runs = channel_runs(model, sequence, *channel);
                    out.bytes.extend_from_slice(&runs);
                }
            }
            out.patch(record_at as i32, &raw);
        }
    }
    out.pos()?;
    Ok(start)
}

/// Writes `model` as version 10 files.
pub fn write(model: &Model) -> Result<WrittenFiles, WriteError> {
    let external_textures = model.texture_source == TextureSource::TextureFile;
    let mut main = Out::new("main file");
    main.bytes.resize(size_of::<RawHeader>(), 0);
    let mut header: RawHeader = bytemuck::Zeroable::zeroed();
    header.id = *b"IDST";
    header.version = STUDIO_VERSION;
    header.name = name(&model.header.name);
    let h = &model.header;
    (header.eyeposition, header.min, header.max) =
        (h.eye_position.to_array(), h.min.to_array(), h.max.to_array());
    (header.bbmin, header.bbmax, header.flags) = (h.bbmin.to_array(), h.bbmax.to_array(), h.flags);

    let index = |value: Option<usize>| value.map_or(-1, |v| v as i32);
    let bones: Vec<RawBone> = model
        .bones
        .iter()
        .map(|b| RawBone {
            name: name(&b.name),
            parent: index(b.parent),
            flags: b.flags,
            bonecontroller: b.controllers.map(index),
            value: b.value,
            scale: b.scale,
        })
        .collect();
    header.numbones = count(bones.len(), "numbones")?;
    header.boneindex = main.table(&bones)?;

    let controllers: Vec<RawBoneController> = model
        .bone_controllers
        .iter()
        .map(|c| RawBoneController {
            bone: c.bone as i32,
            kind: c.kind,
            start: c.start,
            end: c.end,
            rest: c.rest,
            index: c.index,
        })
        .collect();
    header.numbonecontrollers = count(controllers.len(), "numbonecontrollers")?;
    header.bonecontrollerindex = main.table(&controllers)?;

    let attachments: Vec<RawAttachment> = model
        .attachments
        .iter()
        .map(|a| RawAttachment {
            name: name(&a.name),
            kind: a.kind,
            bone: a.bone as i32,
            org: a.org.to_array(),
            vectors: a.vectors.map(|v| v.to_array()),
        })
        .collect();
    header.numattachments = count(attachments.len(), "numattachments")?;
    header.attachmentindex = main.table(&attachments)?;

    let hitboxes: Vec<RawHitbox> = model
        .hitboxes
        .iter()
        .map(|b| RawHitbox {
            bone: b.bone as i32,
            group: b.group,
            bbmin: b.bbmin.to_array(),
            bbmax: b.bbmax.to_array(),
        })
        .collect();
    header.numhitboxes = count(hitboxes.len(), "numhitboxes")?;
    header.hitboxindex = main.table(&hitboxes)?;

    // Sequences: records first, patched once their events, pivots and animation are placed.
    header.numseq = count(model.sequences.len(), "numseq")?;
    main.align();
    header.seqindex = if model.sequences.is_empty() { 0 } else { main.pos()? };
    let mut records: Vec<RawSequence> =
        model.sequences.iter().map(sequence_record).collect::<Result<_, _>>()?;
    main.table(&records)?;
    for (record, sequence) in records.iter_mut().zip(&model.sequences) {
        let events: Vec<RawEvent> = sequence
            .events
            .iter()
            .map(|e| RawEvent { frame: e.frame, event: e.event, kind: e.kind, options: name(&e.options) })
            .collect();
        record.eventindex = main.table(&events)?;
        let pivots: Vec<RawPivot> = sequence
            .pivots
            .iter()
            .map(|p| RawPivot { org: p.org.to_array(), start: p.start, end: p.end })
            .collect();
        record.pivotindex = main.table(&pivots)?;
    }

    let groups: Vec<RawSequenceGroup> = model
        .sequence_groups
        .iter()
        .map(|g| RawSequenceGroup { label: name(&g.label), name: name(&g.name), unused1: 0, unused2: 0 })
        .collect();
    header.numseqgroups = count(groups.len(), "numseqgroups")?;
    header.seqgroupindex = main.table(&groups)?;

    // Group 0's animation in the main file, other groups' in their own files.
    let mut group_files: Vec<Out> =
        (1..model.sequence_groups.len()).map(|_| Out::new("sequence group file")).collect();
    for file in &mut group_files {
        file.bytes.resize(size_of::<RawSequenceGroupHeader>(), 0);
    }
    for (i, (record, sequence)) in records.iter_mut().zip(&model.sequences).enumerate() {
        let out = match sequence.group.checked_sub(1).and_then(|g| group_files.get_mut(g)) {
            Some(file) => file,
            None => &mut main,
        };
        record.animindex = write_animation(out, model, i, sequence)?;
    }
    for (i, record) in records.iter().enumerate() {
        main.patch(header.seqindex + (i * size_of::<RawSequence>()) as i32, record);
    }

    let table = model.transitions.table();
    header.numtransitions = count(model.transitions.count(), "numtransitions")?;
    main.align();
    header.transitionindex = main.pos()?;
    main.bytes.extend_from_slice(table);

    write_body_parts(&mut main, model, &mut header)?;

    let mut texture_file = None;
    if external_textures {
        let mut file = Out::new("texture file");
        file.bytes.resize(size_of::<RawHeader>(), 0);
        let mut textures_header: RawHeader = bytemuck::Zeroable::zeroed();
        textures_header.id = *b"IDST";
        textures_header.version = STUDIO_VERSION;
        textures_header.name = name(&model.header.name);
        write_textures(&mut file, model, &mut textures_header)?;
        textures_header.length = file.pos()?;
        file.patch(0, &textures_header);
        texture_file = Some(file.bytes);
    } else {
        write_textures(&mut main, model, &mut header)?;
    }

    main.align();
    header.length = main.pos()?;
    main.patch(0, &header);
    let groups = group_files
        .into_iter()
        .zip(model.sequence_groups.iter().skip(1))
        .map(|(mut file, group)| {
            file.align();
            let length = file.pos()?;
            let header = RawSequenceGroupHeader {
                id: *b"IDSQ",
                version: STUDIO_VERSION,
                name: name(&group.name),
                length,
            };
            file.patch(0, &header);
            Ok(file.bytes)
        })
        .collect::<Result<_, WriteError>>()?;
    Ok(WrittenFiles { main: main.bytes, textures: texture_file, groups })
}

fn sequence_record(s: &Sequence) -> Result<RawSequence, WriteError> {
    Ok(RawSequence {
        label: name(&s.label),
        fps: s.fps,
        flags: s.flags,
        activity: s.activity,
        actweight: s.activity_weight,
        numevents: count(s.events.len(), "numevents")?,
        eventindex: 0,
        numframes: count(s.num_frames as usize, "numframes")?,
        numpivots: count(s.pivots.len(), "numpivots")?,
        pivotindex: 0,
        motiontype: s.motion_type,
        motionbone: s.motion_bone.map_or(0, |b| b as i32),
        linearmovement: s.linear_movement.to_array(),
        automoveposindex: 0,
        automoveangleindex: 0,
        bbmin: s.bbmin.to_array(),
        bbmax: s.bbmax.to_array(),
        numblends: count(s.num_blends, "numblends")?,
        animindex: 0,
        blendtype: s.blend_type,
        blendstart: s.blend_start,
        blendend: s.blend_end,
        blendparent: 0,
        seqgroup: count(s.group, "seqgroup")?,
        entrynode: s.entry_node,
        exitnode: s.exit_node,
        nodeflags: s.node_flags,
        nextseq: 0,
    })
}

fn write_body_parts(out: &mut Out, model: &Model, header: &mut RawHeader) -> Result<(), WriteError> {
    let mut parts: Vec<RawBodyPart> = model
        .body_parts
        .iter()
        .map(|p| {
            Ok(RawBodyPart {
                name: name(&p.name),
                nummodels: count(p.submodels.len(), "nummodels")?,
                base: p.base,
                modelindex: 0,
            })
        })
        .collect::<Result<_, WriteError>>()?;
    header.numbodyparts = count(parts.len(), "numbodyparts")?;
    header.bodypartindex = out.table(&parts)?;
    for (part_index, part) in model.body_parts.iter().enumerate() {
        let mut submodels: Vec<RawSubmodel> = part
            .submodels
            .iter()
            .map(|m| {
                Ok(RawSubmodel {
                    name: name(&m.name),
                    kind: m.kind,
                    boundingradius: m.bounding_radius,
                    nummesh: count(m.meshes.len(), "nummesh")?,
                    meshindex: 0,
                    numverts: count(m.vertices.len(), "numverts")?,
                    vertinfoindex: 0,
                    vertindex: 0,
                    numnorms: count(m.normals.len(), "numnorms")?,
                    norminfoindex: 0,
                    normindex: 0,
                    numgroups: 0,
                    groupindex: 0,
                })
            })
            .collect::<Result<_, WriteError>>()?;
        let submodels_at = out.table(&submodels)?;
        parts[part_index].modelindex = submodels_at;
        for (record, submodel) in submodels.iter_mut().zip(&part.submodels) {
            let mut meshes: Vec<RawMesh> = submodel
                .meshes
                .iter()
                .map(|m| RawMesh {
                    numtris: m.num_tris,
                    triindex: 0,
                    skinref: m.skin_ref,
                    numnorms: m.num_norms,
                    normindex: 0,
                })
                .collect();
            let meshes_at = out.table(&meshes)?;
            record.meshindex = meshes_at;
            for (mesh_record, mesh) in meshes.iter_mut().zip(&submodel.meshes) {
                out.align();
                mesh_record.triindex = out.pos()?;
                for command in &mesh.commands {
                    let n = i16::try_from(command.count).ok().map(|n| if command.strip { n } else { -n });
                    let n = n.or((!command.strip && command.count == 32768).then_some(i16::MIN));
                    let n = n.ok_or(WriteError::Count("triangle command"))?;
                    out.put(&n.to_le_bytes());
                    let vertices = mesh.vertices.get(command.first as usize..).unwrap_or_default();
                    for v in vertices.iter().take(command.count as usize) {
                        out.put(&RawTriVertex {
                            vertex: v.vertex as i16,
                            normal: v.normal as i16,
                            s: v.s,
                            t: v.t,
                        });
                    }
                }
                out.put(&0i16.to_le_bytes());
            }
            for (i, mesh_record) in meshes.iter().enumerate() {
                out.patch(meshes_at + (i * size_of::<RawMesh>()) as i32, mesh_record);
            }
            out.align();
            record.vertinfoindex = out.pos()?;
            out.bytes.extend_from_slice(&submodel.vertex_bones);
            out.align();
            record.norminfoindex = out.pos()?;
            out.bytes.extend_from_slice(&submodel.normal_bones);
            let vertices: Vec<[f32; 3]> = submodel.vertices.iter().map(|v| v.to_array()).collect();
            record.vertindex = out.table(&vertices)?;
            let normals: Vec<[f32; 3]> = submodel.normals.iter().map(|v| v.to_array()).collect();
            record.normindex = out.table(&normals)?;
        }
        for (i, record) in submodels.iter().enumerate() {
            out.patch(submodels_at + (i * size_of::<RawSubmodel>()) as i32, record);
        }
    }
    for (i, part) in parts.iter().enumerate() {
        out.patch(header.bodypartindex + (i * size_of::<RawBodyPart>()) as i32, part);
    }
    Ok(())
}

fn write_textures(out: &mut Out, model: &Model, header: &mut RawHeader) -> Result<(), WriteError> {
    let mut records: Vec<RawTexture> = model
        .textures
        .iter()
        .map(|t| {
            Ok(RawTexture {
                name: name(&t.name),
                flags: t.flags,
                width: count(t.width as usize, "texture width")?,
                height: count(t.height as usize, "texture height")?,
                index: 0,
            })
        })
        .collect::<Result<_, WriteError>>()?;
    header.numtextures = count(records.len(), "numtextures")?;
    header.textureindex = out.table(&records)?;
    header.numskinref = count(model.skins.num_refs(), "numskinref")?;
    header.numskinfamilies = count(model.skins.num_families(), "numskinfamilies")?;
    header.skinindex = out.table(model.skins.table())?;
    out.align();
    header.texturedataindex = out.pos()?;
    for (record, texture) in records.iter_mut().zip(&model.textures) {
        record.index = out.pos()?;
        out.bytes.extend_from_slice(&texture.pixels);
        for entry in texture.palette.iter().chain(std::iter::repeat(&[0u8; 3])).take(256) {
            out.bytes.extend_from_slice(entry);
        }
    }
    for (i, record) in records.iter().enumerate() {
        out.patch(header.textureindex + (i * size_of::<RawTexture>()) as i32, record);
    }
    Ok(())
}
