//! The third-party notice of a build: every crate the package's binaries are made of for one
//! target (its normal dependencies, followed through `cargo metadata`'s resolve graph; build
//! scripts' and tests' dependencies are not shipped), each with its license expression and the
//! license texts it carries (`LICENSE*`, `LICENCE*`, `COPYING*`, `NOTICE*`, `COPYRIGHT*`, and its
//! `license-file`, and the licenses of bundled fonts: `.txt` files beside `.ttf`/`.otf` files in
//! a folder of the crate). A text several crates share is written once. A crate that carries no
//! text gets the standard text of each license its expression names (`texts/`), with its
//! authors as the copyright holders; a license we have no standard text for fails the notice.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

use serde_json::Value;

/// `cargo metadata` for `target`, as JSON.
pub fn cargo_metadata(target: &str) -> Result<Value, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--filter-platform", target])
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    if !output.status.success() {
        return Err(format!("cargo metadata: {}", String::from_utf8_lossy(&output.stderr)));
    }
    serde_json::from_slice(&output.stdout).map_err(|e| format!("cargo metadata's output: {e}"))
}

/// One crate of the build.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Crate {
    /// Its name.
    pub name: String,
    /// Its version.
    pub version: String,
    /// Its license expression (`MIT OR Apache-2.0`), or "not stated".
    pub license: String,
    /// Where it comes from.
    pub repository: String,
    /// Its folder (the one holding its Cargo.toml).
    pub dir: PathBuf,
    /// A `license-file` its manifest names.
    pub license_file: Option<PathBuf>,
    /// Its authors, as its manifest names them.
    pub authors: Vec<String>,
}

/// The standard texts given for crates that carry none, by SPDX identifier.
const STANDARD_TEXTS: &[(&str, &str)] = &[
    ("MIT", include_str!("../texts/MIT.txt")),
    ("Apache-2.0", include_str!("../texts/Apache-2.0.txt")),
    ("BSL-1.0", include_str!("../texts/BSL-1.0.txt")),
    // Symphonia (sound decoding): its source is at the repository the notice names for it, as
    // MPL-2.0's section 3.2 asks of a program shipped in binary form.
    ("MPL-2.0", include_str!("../texts/MPL-2.0.txt")),
];

/// The license identifiers of an SPDX expression (`(MIT OR Apache-2.0) AND Zlib`, or the older
/// `MIT/Apache-2.0`).
fn license_ids(expression: &str) -> Vec<&str> {
    expression
        .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '/'))
        .filter(|id| !id.is_empty() && !matches!(*id, "AND" | "OR" | "WITH"))
        .collect()
}

/// The crates `package` (a workspace member) is built from, without the workspace's own, in
/// name order.
pub fn shipped_crates(metadata: &Value, package: &str) -> Result<Vec<Crate>, String> {
    let packages = metadata["packages"].as_array().ok_or("no packages in cargo metadata")?;
    let members: BTreeSet<&str> = metadata["workspace_members"]
        .as_array()
        .ok_or("no workspace members in cargo metadata")?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let by_id: BTreeMap<&str, &Value> =
        packages.iter().filter_map(|p| Some((p["id"].as_str()?, p))).collect();
    let root = packages
        .iter()
        .find(|p| p["name"] == package && p["id"].as_str().is_some_and(|id| members.contains(id)))
        .and_then(|p| p["id"].as_str())
        .ok_or_else(|| format!("{package} is not a workspace member"))?;
    let nodes: BTreeMap<&str, &Value> = metadata["resolve"]["nodes"]
        .as_array()
        .ok_or("no resolve graph in cargo metadata")?
        .iter()
        .filter_map(|n| Some((n["id"].as_str()?, n)))
        .collect();

    // Breadth first over normal dependencies (a dep kind of null).
    let mut seen = BTreeSet::from([root]);
    let mut queue = VecDeque::from([root]);
    while let Some(id) = queue.pop_front() {
        let Some(node) = nodes.get(id) else { continue };
        for dep in node["deps"].as_array().into_iter().flatten() {
            let normal = dep["dep_kinds"].as_array().into_iter().flatten().any(|k| k["kind"].is_null());
            if let Some(dep_id) = dep["pkg"].as_str()
                && normal
                && seen.insert(dep_id)
            {
                queue.push_back(dep_id);
            }
        }
    }
    let mut crates: Vec<Crate> = seen
        .into_iter()
        .filter(|id| !members.contains(id))
        .filter_map(|id| by_id.get(id))
        .map(|p| {
            let text = |key: &str| p[key].as_str().unwrap_or_default().to_owned();
            let dir =
                Path::new(p["manifest_path"].as_str().unwrap_or_default()).parent().unwrap_or(Path::new(""));
            Crate {
                name: text("name"),
                version: text("version"),
                license: p["license"].as_str().unwrap_or("not stated").to_owned(),
                repository: text("repository"),
                dir: dir.to_path_buf(),
                license_file: p["license_file"].as_str().map(|f| dir.join(f)),
                authors: p["authors"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|a| a.as_str().map(str::to_owned))
                    .collect(),
            }
        })
        .collect();
    crates.sort();
    Ok(crates)
}

/// Whether a file of a crate's folder is one of its license texts, by name.
fn is_license_text(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    ["LICENSE", "LICENCE", "COPYING", "NOTICE", "COPYRIGHT"].iter().any(|p| upper.starts_with(p))
        && !upper.ends_with(".RS")
}

/// The license texts of `krate`: file name and text, in name order.
pub fn license_texts(krate: &Crate) -> Vec<(String, String)> {
    let mut files: BTreeSet<PathBuf> = std::fs::read_dir(&krate.dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_str().is_some_and(is_license_text))
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.extend(krate.license_file.iter().filter(|p| p.is_file()).cloned());
    // Fonts' licenses: the `.txt` files of a folder that holds fonts.
    for dir in std::fs::read_dir(&krate.dir).into_iter().flatten().filter_map(|e| e.ok()).map(|e| e.path()) {
        let inside: Vec<PathBuf> =
            std::fs::read_dir(&dir).into_iter().flatten().filter_map(|e| e.ok()).map(|e| e.path()).collect();
        let extension = |p: &Path, ext: &str| p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext));
        if inside.iter().any(|p| extension(p, "ttf") || extension(p, "otf")) {
            files.extend(inside.into_iter().filter(|p| extension(p, "txt") && p.is_file()));
        }
    }
    files
        .into_iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(&path).ok()?;
            let name = path.file_name()?.to_string_lossy().into_owned();
            Some((name, text))
        })
        .collect()
}

/// The notice for `package` built for `target`.
pub fn notice(metadata: &Value, package: &str, target: &str) -> Result<String, String> {
    let crates = shipped_crates(metadata, package)?;
    // Texts keyed by their words, so that copies differing only in spacing are one.
    let mut texts: Vec<(String, Vec<String>)> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut lines = Vec::new();
    for krate in &crates {
        let mut refs = Vec::new();
        let mut found = license_texts(krate);
        let carried = !found.is_empty();
        if !carried {
            for id in license_ids(&krate.license) {
                let (_, text) = STANDARD_TEXTS.iter().find(|(known, _)| *known == id).ok_or_else(|| {
                    format!(
                        "{} {} carries no license text, and there is no standard text for {id}",
                        krate.name, krate.version
                    )
                })?;
                found.push((format!("the standard {id} text"), (*text).to_owned()));
            }
        }
        for (file, text) in found {
            let key = text.split_whitespace().collect::<Vec<_>>().join(" ");
            let at = *index.entry(key).or_insert_with(|| {
                texts.push((text.clone(), Vec::new()));
                texts.len() - 1
            });
            texts[at].1.push(format!("{} {} ({file})", krate.name, krate.version));
            refs.push(format!("[{}]", at + 1));
        }
        let texts_said = if carried {
            format!("texts {}", refs.join(" "))
        } else {
            let authors =
                if krate.authors.is_empty() { "its authors".to_owned() } else { krate.authors.join(", ") };
            format!("carries no license file: the standard texts {}, copyright {authors}", refs.join(" "))
        };
        let from =
            if krate.repository.is_empty() { String::new() } else { format!(", {}", krate.repository) };
        lines.push(format!("- {} {}: {}{from}; {texts_said}", krate.name, krate.version, krate.license));
    }
    let mut out = format!(
        "Third-party software in {package} (built for {target})\n\n\
         {package} is licensed under MIT OR Apache-2.0 (LICENSE-MIT, LICENSE-APACHE). It is built from\n\
         the {} crates below, each under the license it states. Their license texts follow the list.\n\n",
        crates.len()
    );
    out += &lines.join("\n");
    out += "\n";
    for (i, (text, users)) in texts.iter().enumerate() {
        out += &format!("\n\n======== [{}] used by {}\n\n{}\n", i + 1, users.join(", "), text.trim_end());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Metadata of a workspace member `app` with a normal dependency `a` (which has its own
    /// normal dependency `b`), a build dependency `tool` and a dev dependency `test-only`.
    fn metadata(dir: &Path) -> Value {
        let package = |name: &str, license: &str| {
            let folder = dir.join(name);
            std::fs::create_dir_all(&folder).unwrap();
            serde_json::json!({
                "id": format!("{name} 1.0.0"), "name": name, "version": "1.0.0", "license": license,
                "repository": format!("https://example.invalid/{name}"),
                "manifest_path": folder.join("Cargo.toml").to_str().unwrap(), "license_file": null,
            })
        };
        let dep = |name: &str, kind: Value| serde_json::json!({"pkg": format!("{name} 1.0.0"), "dep_kinds": [{"kind": kind}]});
        serde_json::json!({
            "packages": [package("app", "MIT"), package("a", "MIT OR Apache-2.0"), package("b", "Zlib"),
                         package("tool", "MIT"), package("test-only", "MIT")],
            "workspace_members": ["app 1.0.0"],
            "resolve": {"nodes": [
                {"id": "app 1.0.0", "deps": [dep("a", Value::Null), dep("tool", "build".into()), dep("test-only", "dev".into())]},
                {"id": "a 1.0.0", "deps": [dep("b", Value::Null)]},
                {"id": "b 1.0.0", "deps": []},
            ]},
        })
    }

    #[test]
    fn only_what_is_shipped_is_listed_each_text_once() {
        let dir = std::env::temp_dir().join(format!("studio-package-licenses-{}", std::process::id()));
        let metadata = metadata(&dir);
        let mit = "MIT License\n\nPermission is hereby granted...\n";
        std::fs::write(dir.join("a/LICENSE-MIT"), mit).unwrap();
        std::fs::write(dir.join("a/license.rs"), "not a license").unwrap();
        // The same text, wrapped otherwise.
        std::fs::write(dir.join("b/COPYING"), "MIT   License\nPermission is hereby\ngranted...").unwrap();

        let crates = shipped_crates(&metadata, "app").unwrap();
        let names: Vec<&str> = crates.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a", "b"], "normal dependencies only, the workspace's own left out");

        let text = notice(&metadata, "app", "x86_64-pc-windows-gnu").unwrap();
        assert!(
            text.contains("- a 1.0.0: MIT OR Apache-2.0, https://example.invalid/a; texts [1]"),
            "{text}"
        );
        assert!(text.contains("- b 1.0.0: Zlib, https://example.invalid/b; texts [1]"), "{text}");
        assert_eq!(text.matches("Permission is hereby").count(), 1, "{text}");
        assert!(text.contains("[1] used by a 1.0.0 (LICENSE-MIT), b 1.0.0 (COPYING)"), "{text}");
        assert!(!text.contains("not a license"));
        assert!(notice(&metadata, "a", "x").is_err(), "a is not a workspace member");

        // Without files, a crate gets the standard texts of its licenses, or the notice fails.
        std::fs::remove_file(dir.join("a/LICENSE-MIT")).unwrap();
        let text = notice(&metadata, "app", "x").unwrap();
        assert!(text.contains("- a 1.0.0: MIT OR Apache-2.0, https://example.invalid/a; carries no license file: the standard texts"), "{text}");
        assert!(text.contains("a 1.0.0 (the standard Apache-2.0 text)"), "{text}");
        std::fs::remove_file(dir.join("b/COPYING")).unwrap();
        let error = notice(&metadata, "app", "x").unwrap_err();
        assert!(
            error.contains("b 1.0.0 carries no license text, and there is no standard text for Zlib"),
            "{error}"
        );
        assert_eq!(license_ids("(MIT OR Apache-2.0) AND Unicode-3.0"), ["MIT", "Apache-2.0", "Unicode-3.0"]);
        assert_eq!(license_ids("MIT/Apache-2.0"), ["MIT", "Apache-2.0"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
