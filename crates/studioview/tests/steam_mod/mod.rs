//! The synthetic Steam install with a Source fixture model in its mod, whose materials come
//! from four search path entries: what the game-install tests share.

use std::path::{Path, PathBuf};

use studio_games::testing::{put, put_vpk, steam_tree};
use studio_material::write::vtf;

fn scratch(name: &str) -> PathBuf {
    studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), name)
}

/// A 4×4 RGB888 texture of one colour with its mips.
fn solid(rgb: [u8; 3]) -> Vec<u8> {
    let mips: Vec<Vec<u8>> = [16, 4, 1].iter().map(|&n| rgb.repeat(n)).collect();
    vtf(4, (4, 4), 2, 1, &mips, None)
}

/// The tree with skeleton48 in the mod: (the tree, the model's path).
pub fn mod_with_model(shared: &Path, name: &str) -> (studio_games::testing::SteamTree, PathBuf) {
    let tree = steam_tree(&scratch(name));
    let models = tree.source_mod.join("models/fixture");
    std::fs::create_dir_all(&models).unwrap();
    for file in ["skeleton48.mdl", "skeleton48.vvd", "skeleton48.dx90.vtx"] {
        studio_testing::copy(shared.join("fixtures/source/models/fixture").join(file), models.join(file))
            .unwrap();
    }
    let vmt =
        |texture: &str| format!(r#""VertexLitGeneric" {{ "$basetexture" "models/fixture/{texture}" }}"#);
    // skin a: the custom folder's copy wins over the mod's; its texture from the mounted TF2.
    put(
        &tree.source_mod,
        "custom/a_override/materials/models/fixture/fixture_skin_a.vmt",
        vmt("green").as_bytes(),
    );
    put(&tree.source_mod, "materials/models/fixture/fixture_skin_a.vmt", vmt("red").as_bytes());
    put(&tree.source_mod, "materials/models/fixture/red.vtf", &solid([255, 0, 0]));
    // skin b: the mod's own .vmt, its texture from HL2's archive.
    put(&tree.source_mod, "materials/models/fixture/fixture_skin_b.vmt", vmt("blue").as_bytes());
    let install = tree.source_mod.parent().unwrap().to_owned();
    put_vpk(
        &install,
        "hl2/hl2_textures_dir.vpk",
        &[("materials/models/fixture/blue.vtf", &solid([0, 0, 255]))],
    );
    let tf = tree.library2.join("steamapps/common/Team Fortress 2/tf");
    put_vpk(&tf, "tf2_textures_dir.vpk", &[("materials/models/fixture/green.vtf", &solid([0, 255, 0]))]);
    (tree, models.join("skeleton48.mdl"))
}
