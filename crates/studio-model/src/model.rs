//! The whole model set: main file plus companions, parsed into one owned [`Model`].

use crate::animation::{Channel, Runs, read_animation};
use crate::attachment::{Attachment, read_attachments};
use crate::body_part::{BodyPart, read_body_parts};
use crate::bone::{Bone, read_bones};
use crate::bone_controller::{BoneController, read_bone_controllers};
use crate::error::{FileRole, Record, Result, Warning, WarningKind};
use crate::header::{Header, MODEL_FLAG_NAMES, read_group_header, read_studio_header};
use crate::hitbox::{Hitbox, read_hitboxes};
use crate::raw::RawHeader;
use crate::reader::FileData;
use crate::sequence::{Sequence, read_sequences};
use crate::sequence_group::{GroupStatus, SequenceGroup, read_sequence_groups};
use crate::skin::{Skins, read_skins};
use crate::texture::{Texture, read_textures};
use crate::transition::{Transitions, read_transitions};
use crate::warnings::Warnings;

/// The bytes of a model set, for parsing without a file system.
#[derive(Clone, Debug, Default)]
pub struct ModelFiles<'a> {
    /// The main file's name without extension (`hive` for `hive.mdl`), used to name the
    /// companion files in messages.
    pub stem: &'a str,
    /// The main file.
    pub main: &'a [u8],
    /// The texture file `nameT.mdl`, if there is one.
    pub textures: Option<&'a [u8]>,
    /// The sequence group files: element 0 is group 1 (`name01.mdl`), and so on.
    pub groups: Vec<Option<&'a [u8]>>,
}

/// Where a model's textures came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextureSource {
    /// The main file.
    Main,
    /// The texture file `nameT.mdl`.
    TextureFile,
    /// Nowhere: the main file has none and the texture file is missing or unusable.
    None,
}

/// Which companion files a main file needs (goldsrc-header.md, "Companion files").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompanionsNeeded {
    /// Whether the textures are in `nameT.mdl`.
    pub texture_file: bool,
    /// How many sequence group files, `name01.mdl` onwards.
    pub group_files: usize,
}

/// Reads just enough of a main file to say which companion files it needs.
pub fn companions_needed(main: &[u8]) -> Result<CompanionsNeeded> {
    let header = read_studio_header(&FileData::new(main, FileRole::Main))?;
    Ok(CompanionsNeeded {
        texture_file: header.numtextures == 0,
        group_files: usize::try_from(header.numseqgroups).unwrap_or(0).saturating_sub(1),
    })
}

/// Limits from studio.h, above which the game may refuse a model (goldsrc-header.md, "Limits").
const LIMITS: [(&str, usize); 9] = [
    ("bones", 128),
    ("bone controllers", 8),
    ("sequences", 2048),
    ("sequence groups", 16),
    ("textures", 100),
    ("body parts", 32),
    ("skin families", 100),
    ("vertices in a submodel", 2048),
    ("submodels in a body part", 32),
];

/// A parsed, validated studio model: every index in it is in range, every animation channel's
/// runs lie inside its file, textures are decoded. Later stages index it without further checks.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Header facts: name, eye position, boxes, flags.
    pub header: Header,
    /// Bones, parents before children.
    pub bones: Vec<Bone>,
    /// Bone controllers.
    pub bone_controllers: Vec<BoneController>,
    /// Hit boxes.
    pub hitboxes: Vec<Hitbox>,
    /// Sequence groups; group 0 is the main file.
    pub sequence_groups: Vec<SequenceGroup>,
    /// Sequences.
    pub sequences: Vec<Sequence>,
    /// Attachments.
    pub attachments: Vec<Attachment>,
    /// The transition graph.
    pub transitions: Transitions,
    /// Body parts.
    pub body_parts: Vec<BodyPart>,
    /// Textures.
    pub textures: Vec<Texture>,
    /// Skin families.
    pub skins: Skins,
    /// Where the textures came from.
    pub texture_source: TextureSource,
    /// Problems the game tolerates.
    pub warnings: Vec<Warning>,
    /// Group 0's animation bytes (the main file) when group 0 has no record of its own.
    main_data: Vec<u8>,
}

impl Model {
    /// An empty model with `header`, for models built in code: fill in the public fields.
    pub fn new(header: Header) -> Self {
        Self {
            header,
            bones: Vec::new(),
            bone_controllers: Vec::new(),
            hitboxes: Vec::new(),
            sequence_groups: Vec::new(),
            sequences: Vec::new(),
            attachments: Vec::new(),
            transitions: Transitions::default(),
            body_parts: Vec::new(),
            textures: Vec::new(),
            skins: Skins::default(),
            texture_source: TextureSource::Main,
            warnings: Vec::new(),
            main_data: Vec::new(),
        }
    }

    /// Parses a main file alone: companions are treated as missing.
    pub fn parse(main: &[u8]) -> Result<Model> {
        parse(&ModelFiles { stem: "model", main, ..ModelFiles::default() })
    }

    /// The sequence group a sequence's animation is in, or `None` if it has none.
    pub fn group_of(&self, sequence: &Sequence) -> Option<&SequenceGroup> {
        self.sequence_groups.get(sequence.group)
    }

    /// The bytes a sequence's channels are read from: its group's file (see [`Channel`]).
    pub fn animation_data(&self, sequence: &Sequence) -> &[u8] {
        match self.sequence_groups.get(sequence.group) {
            Some(group) => &group.data,
            None => &self.main_data,
        }
    }

    /// Adds the runs `bytes` (as [`crate::encode_channel`] makes them) to the data sequence
    /// `sequence`'s channels are read from, and returns the channel that reads them: for edits
    /// that change a channel's values. `None` when the sequence does not exist, its group is not
    /// loaded, or the data would pass what a channel's offset can address.
    pub fn append_channel(&mut self, sequence: usize, bytes: &[u8]) -> Option<Channel> {
        let group = self.sequences.get(sequence)?.group;
        let data = match self.sequence_groups.get_mut(group) {
            Some(group) if group.is_available() => &mut group.data,
            Some(_) => return None,
            None => &mut self.main_data,
        };
        let offset = u32::try_from(data.len()).ok()?;
        u32::try_from(data.len().checked_add(bytes.len())?).ok()?;
        data.extend_from_slice(bytes);
        Some(Channel { offset })
    }

    /// The runs of one of a sequence's channels.
    pub fn runs(&self, sequence: &Sequence, channel: Channel) -> Runs<'_> {
        Runs::new(self.animation_data(sequence), channel)
    }

    /// The texture a mesh of skin slot `skin_ref` shows in skin family `family`.
    pub fn texture(&self, family: usize, skin_ref: i32) -> Option<&Texture> {
        self.textures.get(self.skins.texture(family, skin_ref)?)
    }
}

/// Parses a model set from its files' bytes.
pub fn parse(files: &ModelFiles<'_>) -> Result<Model> {
    let main = FileData::new(files.main, FileRole::Main);
    let raw = read_studio_header(&main)?;
    let mut warnings = Warnings::default();
    check_header(&main, &raw, &mut warnings);

    let bones = read_bones(&main, &raw)?;
    let bone_controllers = read_bone_controllers(&main, &raw, bones.len(), &mut warnings)?;
    let hitboxes = read_hitboxes(&main, &raw, bones.len())?;
    let mut sequence_groups = read_sequence_groups(&main, &raw)?;
    let sequences = read_sequences(&main, &raw, bones.len(), sequence_groups.len(), &mut warnings)?;
    let attachments = read_attachments(&main, &raw, bones.len())?;
    let transitions = read_transitions(&main, &raw, &mut warnings)?;
    let body_parts = read_body_parts(&main, &raw, bones.len(), &mut warnings)?;
    let sequences =
        read_animations(files, &main, sequences, &mut sequence_groups, bones.len(), &mut warnings)?;
    let (textures, skins, texture_source) = read_texture_set(files, &main, &raw, &mut warnings)?;

    let counts = [
        bones.len(),
        bone_controllers.len(),
        sequences.len(),
        sequence_groups.len(),
        textures.len(),
        body_parts.len(),
        skins.num_families(),
        body_parts.iter().flat_map(|p| &p.submodels).map(|m| m.vertices.len()).max().unwrap_or(0),
        body_parts.iter().map(|p| p.submodels.len()).max().unwrap_or(0),
    ];
    for ((what, limit), count) in LIMITS.into_iter().zip(counts) {
        if count > limit {
            warnings.push_general(WarningKind::AboveLimit { what, count, limit });
        }
    }
    let main_data = if sequence_groups.is_empty() { files.main.to_vec() } else { Vec::new() };
    Ok(Model {
        header: Header::from_raw(&raw),
        bones,
        bone_controllers,
        hitboxes,
        sequence_groups,
        sequences,
        attachments,
        transitions,
        body_parts,
        textures,
        skins,
        texture_source,
        warnings: warnings.0,
        main_data,
    })
}

fn check_header(main: &FileData<'_>, raw: &RawHeader, warnings: &mut Warnings) {
    if i64::from(raw.length) != main.len() as i64 {
        warnings.push(
            main.place(Record::Header, None, 72),
            WarningKind::LengthMismatch { stored: i64::from(raw.length), actual: main.len() },
        );
    }
    let known = MODEL_FLAG_NAMES.iter().fold(0, |all, (bit, _)| all | bit);
    if raw.flags & !known != 0 {
        warnings.push(
            main.place(Record::Header, None, 136),
            WarningKind::UnknownValue { field: "flags", value: i64::from(raw.flags) },
        );
    }
    if raw.numseqgroups == 0 && raw.numseq > 0 {
        warnings.push(
            main.place(Record::Header, None, 172),
            WarningKind::Unusable {
                field: "numseqgroups",
                value: 0,
                consequence: "group 0 is taken to be the main file, as the game does",
            },
        );
    }
}

/// Reads every sequence's animation, group by group. Group 0's problems are fatal; another
/// group's make only that group unavailable.
fn read_animations(
    files: &ModelFiles<'_>,
    main: &FileData<'_>,
    sequences: Vec<(Sequence, u64)>,
    groups: &mut [SequenceGroup],
    num_bones: usize,
    warnings: &mut Warnings,
) -> Result<Vec<Sequence>> {
    let mut sequences: Vec<Sequence> = sequences.into_iter().map(|(s, _)| s).collect();
    let num_groups = groups.len().max(1);
    for group in 0..num_groups {
        let file = if group == 0 {
            FileData::new(files.main, FileRole::Main)
        } else {
            let expected = format!("{}{group:02}.mdl", files.stem);
            let Some(bytes) = files.groups.get(group - 1).copied().flatten() else {
                warnings.push_general(WarningKind::MissingGroupFile { group, expected: expected.clone() });
                groups[group].status = GroupStatus::Missing { expected };
                continue;
            };
            FileData::new(bytes, FileRole::Group(group))
        };
        let result = read_group(&file, group, &mut sequences, num_bones);
        match (result, group) {
            (Ok(()), 0) => {
                if let Some(record) = groups.first_mut() {
                    record.data = main.bytes().to_vec();
                }
            }
            (Ok(()), _) => groups[group].data = file.bytes().to_vec(),
            (Err(error), 0) => return Err(error),
            (Err(error), _) => {
                for sequence in sequences.iter_mut().filter(|s| s.group == group) {
                    sequence.animation = None;
                }
                let error = Box::new(error);
                warnings.push_general(WarningKind::BadGroupFile { group, error: error.clone() });
                groups[group].status = GroupStatus::Invalid(error);
            }
        }
    }
    Ok(sequences)
}

fn read_group(file: &FileData<'_>, group: usize, sequences: &mut [Sequence], num_bones: usize) -> Result<()> {
    if group > 0 {
        read_group_header(file)?;
    }
    for (index, sequence) in sequences.iter_mut().enumerate().filter(|(_, s)| s.group == group) {
        let frames = u64::from(sequence.frames());
        sequence.animation =
            Some(read_animation(file, index, sequence.anim_index, sequence.num_blends, num_bones, frames)?);
    }
    Ok(())
}

type TextureSet = (Vec<Texture>, Skins, TextureSource);

/// Textures and skins from the main file, or from the texture file when the main file has none.
/// A missing or unusable texture file is a warning: the skeleton still loads.
fn read_texture_set(
    files: &ModelFiles<'_>,
    main: &FileData<'_>,
    raw: &RawHeader,
    warnings: &mut Warnings,
) -> Result<TextureSet> {
    if raw.numtextures != 0 {
        if files.textures.is_some() {
            warnings.push_general(WarningKind::UnneededTextureFile);
        }
        let textures = read_textures(main, raw, warnings)?;
        let skins = read_skins(main, raw, textures.len(), warnings)?;
        return Ok((textures, skins, TextureSource::Main));
    }
    let expected = format!("{}T.mdl", files.stem);
    let Some(bytes) = files.textures else {
        if raw.numbodyparts > 0 {
            warnings.push_general(WarningKind::MissingTextureFile { expected });
        }
        return Ok((Vec::new(), Skins::default(), TextureSource::None));
    };
    let file = FileData::new(bytes, FileRole::Textures);
    let mut found = Warnings::default();
    let read = |found: &mut Warnings| -> Result<(Vec<Texture>, Skins)> {
        let header = read_studio_header(&file)?;
        let textures = read_textures(&file, &header, found)?;
        let skins = read_skins(&file, &header, textures.len(), found)?;
        Ok((textures, skins))
    };
    match read(&mut found) {
        Ok((textures, skins)) => {
            warnings.0.extend(found.0);
            Ok((textures, skins, TextureSource::TextureFile))
        }
        Err(error) => {
            warnings.push_general(WarningKind::BadTextureFile { expected, error: Box::new(error) });
            Ok((Vec::new(), Skins::default(), TextureSource::None))
        }
    }
}
