//! Shared helpers for tests that read `../shared`, which CI always has beside the checkout. A
//! user's fresh clone may not: then those tests say so and pass over it.

#![allow(dead_code)]

pub use studio_testing::{read, shared};

/// One model set: the main file and its companions.
#[derive(Clone)]
pub struct ModelSet {
    /// The main file's stem.
    pub name: String,
    /// The main file.
    pub main: Vec<u8>,
    /// The texture file.
    pub textures: Option<Vec<u8>>,
    /// Sequence group files 1, 2…
    pub groups: Vec<Option<Vec<u8>>>,
}

impl ModelSet {
    /// Bytes in all its files.
    pub fn len(&self) -> u64 {
        let companions: usize = self.textures.iter().chain(self.groups.iter().flatten()).map(Vec::len).sum();
        (self.main.len() + companions) as u64
    }

    /// Number of companion files.
    pub fn num_companions(&self) -> usize {
        usize::from(self.textures.is_some()) + self.groups.iter().flatten().count()
    }

    /// Companion file `k`: the texture file first, then the group files.
    pub fn companion_mut(&mut self, k: usize) -> &mut Vec<u8> {
        self.textures.iter_mut().chain(self.groups.iter_mut().flatten()).nth(k).expect("no such companion")
    }

    /// Parses it.
    pub fn parse(&self) -> studio_model::Result<studio_model::Model> {
        studio_model::parse(&studio_model::ModelFiles {
            stem: &self.name,
            main: &self.main,
            textures: self.textures.as_deref(),
            groups: self.groups.iter().map(|g| g.as_deref()).collect(),
        })
    }
}

fn set(
    shared: &std::path::Path,
    name: &str,
    main: &str,
    textures: Option<&str>,
    groups: &[&str],
) -> ModelSet {
    ModelSet {
        name: name.to_owned(),
        main: read(shared, main),
        textures: textures.map(|t| read(shared, t)),
        groups: groups.iter().map(|g| Some(read(shared, g))).collect(),
    }
}

/// Every main model under `../shared` with its companions.
pub fn model_sets(shared: &std::path::Path) -> Vec<ModelSet> {
    vec![
        set(shared, "blends", "fixtures/blends.mdl", None, &[]),
        set(shared, "controllers", "fixtures/controllers.mdl", None, &[]),
        set(shared, "rle", "fixtures/rle.mdl", None, &[]),
        set(
            shared,
            "groups",
            "fixtures/groups.mdl",
            Some("fixtures/groupsT.mdl"),
            &["fixtures/groups01.mdl"],
        ),
        set(shared, "soldier", "models/ns/soldier.mdl", None, &[]),
        set(shared, "alien4", "models/ns/alien4.mdl", None, &[]),
        set(shared, "hive", "models/ns/hive.mdl", Some("models/ns/hivet.mdl"), &[]),
        set(shared, "v_mg", "models/ns/v_mg.mdl", None, &[]),
    ]
}
