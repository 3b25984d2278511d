//! A synthetic Steam install for tests and benchmarks: two libraries, app manifests, a Source
//! mod with `custom/*`, `|gameinfo_path|.`, `|all_source_engine_paths|hl2/NAME.vpk` lines and a
//! `mount` block into apps of the second library, and a Half-Life install with a mod using
//! `fallback_dir` and `_hd` folders. Each file's bytes name the place that holds it
//! (`custom/a_override`), so a test can tell which copy a lookup found.

use std::path::{Path, PathBuf};

use studio_archive::write::{VpkFile, pak, vpk};

use crate::steam::Locations;

/// The tree made by [`steam_tree`].
#[derive(Clone, Debug)]
pub struct SteamTree {
    /// Where discovery is to look (a home folder, or a registry stand-in on Windows).
    pub locations: Locations,
    /// The Steam folder (the first library).
    pub steam: PathBuf,
    /// The second library.
    pub library2: PathBuf,
    /// The Source mod's game folder (`Momentum Mod/momentum`).
    pub source_mod: PathBuf,
    /// The Half-Life install folder.
    pub half_life: PathBuf,
}

/// Writes `bytes` at `root/relative`, making folders.
pub fn put(root: &Path, relative: &str, bytes: &[u8]) {
    let path = root.join(relative);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    }
    std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// A `.vpk` directory file at `root/relative` holding `files` (path, bytes), data inside it.
pub fn put_vpk(root: &Path, relative: &str, files: &[(&str, &[u8])]) {
    let files: Vec<VpkFile<'_>> =
        files.iter().map(|(path, bytes)| VpkFile { path, bytes, preload: 0 }).collect();
    put(root, relative, &vpk(2, &files, false).0);
}

/// A `.pak` at `root/relative` holding `files`.
pub fn put_pak(root: &Path, relative: &str, files: &[(&str, &[u8])]) {
    put(root, relative, &pak(files));
}

fn manifest(id: u32, name: &str, install: &str) -> Vec<u8> {
    format!("\"AppState\"\n{{\n\t\"appid\"\t\t\"{id}\"\n\t\"name\"\t\t\"{name}\"\n\t\"installdir\"\t\t\"{install}\"\n}}\n")
        .into_bytes()
}

/// The Source mod's `gameinfo.txt`.
pub const MOD_GAMEINFO: &str = r#""GameInfo"
{
	game		"Momentum Mod"
	FileSystem
	{
		SteamAppId	669270
		SearchPaths
		{
			game+mod			momentum/custom/*
			mod+mod_write		|gameinfo_path|modonly
			game+game_write		|gameinfo_path|.
			gamebin				|gameinfo_path|bin
			game				|all_source_engine_paths|hl2/hl2_textures.vpk
			game_lv				|all_source_engine_paths|hl2/hl2_lv.vpk
			game				|all_source_engine_paths|hl2/hl2_sound_vo_english.vpk
			game				|appid_440|tf/tf2_misc.vpk
			game				|all_source_engine_paths|hl2
		}
	}
	mount
	{
		440
		{
			"tf"
			{
				"vpk"	"tf2_textures_dir"
				"dir"	"."
			}
		}
		240
		{
			"head"	"1"
			"cstrike"
			{
				"vpk"	"cstrike_pak"
			}
		}
	}
}
"#;

/// Builds the tree below `root` (which must not exist yet or be empty).
pub fn steam_tree(root: &Path) -> SteamTree {
    let home = root.join("home");
    let (steam, locations) = if cfg!(windows) {
        let steam = root.join("Program Files (x86)/Steam");
        (steam.clone(), Locations { registry: Some(steam), ..Locations::default() })
    } else if cfg!(target_os = "macos") {
        (
            home.join("Library/Application Support/Steam"),
            Locations { home: Some(home), ..Locations::default() },
        )
    } else {
        (home.join(".local/share/Steam"), Locations { home: Some(home), ..Locations::default() })
    };
    let library2 = root.join("SteamLibrary");
    let escaped = |p: &Path| p.display().to_string().replace('\\', "\\\\");
    put(
        &steam,
        "steamapps/libraryfolders.vdf",
        format!(
            "\"libraryfolders\"\n{{\n\t\"0\"\n\t{{\n\t\t\"path\"\t\t\"{}\"\n\t\t\"apps\" {{ \"669270\" \"1\" \"70\" \"1\" }}\n\t}}\n\t\"1\"\n\t{{\n\t\t\"path\"\t\t\"{}\"\n\t}}\n}}\n",
            escaped(&steam),
            escaped(&library2)
        )
        .as_bytes(),
    );
    put(&steam, "steamapps/appmanifest_669270.acf", &manifest(669270, "Momentum Mod", "Momentum Mod"));
    put(&steam, "steamapps/appmanifest_70.acf", &manifest(70, "Half-Life", "Half-Life"));
    put(&library2, "steamapps/appmanifest_440.acf", &manifest(440, "Team Fortress 2", "Team Fortress 2"));
    put(
        &library2,
        "steamapps/appmanifest_240.acf",
        &manifest(240, "Counter-Strike: Source", "Counter-Strike Source"),
    );

    // The Source mod and the HL2 content beside it.
    let install = steam.join("steamapps/common/Momentum Mod");
    let source_mod = install.join("momentum");
    put(&source_mod, "gameinfo.txt", MOD_GAMEINFO.as_bytes());
    put(&source_mod, "custom/a_override/materials/models/weapons/override.vmt", b"custom/a_override");
    put_vpk(
        &source_mod,
        "custom/b_pack_dir.vpk",
        &[
            ("materials/models/weapons/override.vmt", b"custom/b_pack_dir.vpk"),
            ("materials/models/weapons/packed.vmt", b"custom/b_pack_dir.vpk"),
        ],
    );
    // A part of b_pack's, which the wildcard leaves to its directory file.
    put(&source_mod, "custom/b_pack_000.vpk", b"not a directory file");
    put(&source_mod, "custom/.hidden/materials/models/weapons/packed.vmt", b"custom/.hidden");
    put(&source_mod, "materials/models/weapons/override.vmt", b"momentum");
    put(&source_mod, "materials/models/weapons/v_hand_sheet.vmt", b"momentum");
    put(&source_mod, "materials/models/weapons/css_thing.vmt", b"momentum");
    put(&source_mod, "models/weapons/v_rocket.mdl", b"momentum");
    put(&source_mod, "modonly/materials/models/weapons/mod_only.vmt", b"modonly");
    let hl2 = install.join("hl2");
    put_vpk(
        &hl2,
        "hl2_textures_dir.vpk",
        &[("materials/models/weapons/hands.vtf", b"hl2/hl2_textures_dir.vpk")],
    );
    put_vpk(&hl2, "hl2_lv_dir.vpk", &[("materials/models/weapons/gore.vmt", b"hl2/hl2_lv_dir.vpk")]);
    put_vpk(
        &hl2,
        "hl2_sound_vo_english_dir.vpk",
        &[("materials/lang.vmt", b"hl2/hl2_sound_vo_english_dir.vpk")],
    );
    put_vpk(
        &hl2,
        "hl2_sound_vo_french_dir.vpk",
        &[("materials/lang.vmt", b"hl2/hl2_sound_vo_french_dir.vpk")],
    );
    put(&hl2, "materials/models/weapons/hl2_loose.vmt", b"hl2");

    // The mounted apps, in the second library.
    let tf = library2.join("steamapps/common/Team Fortress 2/tf");
    put(&tf, "gameinfo.txt", b"\"GameInfo\" { game \"Team Fortress 2\" FileSystem { SteamAppId 440 SearchPaths { game |gameinfo_path|. } } }");
    put_vpk(
        &tf,
        "tf2_textures_dir.vpk",
        &[("materials/models/weapons/tf_thing.vtf", b"tf/tf2_textures_dir.vpk")],
    );
    put_vpk(&tf, "tf2_misc_dir.vpk", &[("materials/models/weapons/misc.vmt", b"tf/tf2_misc_dir.vpk")]);
    put(&tf, "materials/models/weapons/tf_loose.vmt", b"tf");
    let cstrike = library2.join("steamapps/common/Counter-Strike Source/cstrike");
    put(&cstrike, "gameinfo.txt", b"\"GameInfo\" { game \"Counter-Strike: Source\" FileSystem { SteamAppId 240 SearchPaths { game |gameinfo_path|. } } }");
    put_vpk(
        &cstrike,
        "cstrike_pak_dir.vpk",
        &[("materials/models/weapons/css_thing.vmt", b"cstrike/cstrike_pak_dir.vpk")],
    );

    // Half-Life: valve, cstrike, and czero falling back to cstrike, with _hd folders.
    let half_life = steam.join("steamapps/common/Half-Life");
    put(&half_life, "valve/liblist.gam", b"game \"Half-Life\"\r\ngamedll \"dlls\\hl.dll\"\r\n");
    put_pak(
        &half_life,
        "valve/pak0.pak",
        &[("models/player.mdl", b"valve/pak0.pak"), ("models/scientist.mdl", b"valve/pak0.pak")],
    );
    put(&half_life, "valve_hd/models/player.mdl", b"valve_hd");
    put(&half_life, "valve/models/barney.mdl", b"valve");
    put(&half_life, "cstrike/liblist.gam", b"game \"Counter-Strike\"\r\n");
    put(&half_life, "cstrike/models/hostage.mdl", b"cstrike");
    put(&half_life, "cstrike/models/player.mdl", b"cstrike");
    put(&half_life, "czero/liblist.gam", b"game \"Condition Zero\"\r\nfallback_dir \"cstrike\"\r\n");
    put(&half_life, "czero/models/own.mdl", b"czero");
    put(&half_life, "czero_hd/models/own.mdl", b"czero_hd");
    put(&half_life, "czero_downloads/models/downloaded.mdl", b"czero_downloads");
    put(&half_life, "czero/models/downloaded.mdl", b"czero");
    SteamTree { locations, steam, library2, source_mod, half_life }
}
