//! Every WGSL shader parses and validates with naga, without a GPU.

#[test]
fn every_shader_validates() {
    let uniform_bones = studio_render::shaders::mesh_with_uniform_bones();
    assert!(uniform_bones.contains("var<uniform> bones: Bones;"), "the declaration is replaced");
    let mut all: Vec<(&str, &str)> = studio_render::shaders::ALL.iter().map(|&(n, _, s)| (n, s)).collect();
    all.push(("mesh with uniform bones", &uniform_bones));
    for (name, source) in all {
        let module = naga::front::wgsl::parse_str(source)
            .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::empty())
            .validate(&module)
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        for entry in ["vs_main", "fs_main"] {
            assert!(module.entry_points.iter().any(|e| e.name == entry), "{name} has no {entry}");
        }
    }
}

#[test]
fn every_shader_file_is_embedded() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shaders");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".wgsl"))
        .collect();
    files.sort();
    let mut embedded: Vec<&str> =
        studio_render::shaders::ALL.iter().flat_map(|(_, files, _)| files.iter().copied()).collect();
    embedded.sort();
    embedded.dedup();
    assert_eq!(files, embedded);
}
