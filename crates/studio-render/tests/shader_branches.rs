//! No shader the viewer runs branches on uniforms alone: ours (`shaders/`) and egui's
//! (`vendor/egui-wgpu`, with the pipeline constants egui-wgpu sets).
//!
//! Mesa's software Vulkan driver (lavapipe) pays for such a branch twice over. It inlines the
//! uniforms and compiles the shader again whenever their bind group is bound (the memory that
//! grew while a model played), and where it does not, it runs both sides of the branch under a
//! lane mask for every pixel (egui's manual texture filtering, 190 ns a pixel). A branch on a
//! pipeline constant is fine: it is folded before the driver sees it, so only its taken side is
//! checked here.

use naga::{AddressSpace, Block, Expression, Function, Handle, Literal, Module, Statement};

/// What an expression's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Source {
    /// Literals and constants only.
    Constant,
    /// Uniforms, and maybe constants.
    Uniform,
    /// Anything that can differ between invocations: inputs, texels, variables.
    Varying,
}

fn sources(module: &Module, function: &Function) -> Vec<Source> {
    let mut out: Vec<Source> = Vec::with_capacity(function.expressions.len());
    for (_, expression) in function.expressions.iter() {
        // Operands come before the expressions that use them.
        let of = |h: Handle<Expression>| out[h.index()];
        let all = |hs: &[Handle<Expression>]| hs.iter().map(|&h| of(h)).max().unwrap_or(Source::Constant);
        let source = match *expression {
            Expression::Literal(_)
            | Expression::Constant(_)
            | Expression::Override(_)
            | Expression::ZeroValue(_) => Source::Constant,
            Expression::GlobalVariable(h) => match module.global_variables[h].space {
                AddressSpace::Uniform => Source::Uniform,
                _ => Source::Varying,
            },
            Expression::Load { pointer } => of(pointer),
            Expression::AccessIndex { base, .. } => of(base),
            Expression::Access { base, index } => all(&[base, index]),
            Expression::Binary { left, right, .. } => all(&[left, right]),
            Expression::Unary { expr, .. } | Expression::As { expr, .. } => of(expr),
            Expression::Select { condition, accept, reject } => all(&[condition, accept, reject]),
            Expression::Relational { argument, .. } => of(argument),
            Expression::Swizzle { vector, .. } => of(vector),
            Expression::Splat { value, .. } => of(value),
            Expression::Compose { ref components, .. } => all(components),
            Expression::Math { arg, arg1, arg2, arg3, .. } => {
                all(&[Some(arg), arg1, arg2, arg3].into_iter().flatten().collect::<Vec<_>>())
            }
            _ => Source::Varying,
        };
        out.push(source);
    }
    out
}

/// Walks `block` of `function`, following calls and only the taken side of constant branches,
/// and lists each branch on uniforms alone.
fn check_block(module: &Module, function: &Function, block: &Block, found: &mut Vec<String>) {
    let sources = sources(module, function);
    let name = function.name.as_deref().unwrap_or("?");
    let mut stack = vec![block];
    while let Some(block) = stack.pop() {
        for statement in block.iter() {
            match statement {
                Statement::If { condition, accept, reject } => {
                    match function.expressions[*condition] {
                        Expression::Literal(Literal::Bool(taken)) => {
                            stack.push(if taken { accept } else { reject });
                            continue;
                        }
                        _ if sources[condition.index()] == Source::Uniform => {
                            found.push(format!("{name}: if on uniforms"));
                        }
                        _ => {}
                    }
                    stack.push(accept);
                    stack.push(reject);
                }
                Statement::Switch { selector, cases } => {
                    if sources[selector.index()] == Source::Uniform {
                        found.push(format!("{name}: switch on uniforms"));
                    }
                    stack.extend(cases.iter().map(|case| &case.body));
                }
                Statement::Loop { body, continuing, break_if } => {
                    if break_if.is_some_and(|h| sources[h.index()] == Source::Uniform) {
                        found.push(format!("{name}: loop ends on uniforms"));
                    }
                    stack.push(body);
                    stack.push(continuing);
                }
                Statement::Block(inner) => stack.push(inner),
                Statement::Call { function: callee, .. } => {
                    let callee = &module.functions[*callee];
                    check_block(module, callee, &callee.body, found);
                }
                _ => {}
            }
        }
    }
}

/// The uniform-only branches the fragment and vertex entry points reach, with `constants`.
fn uniform_branches(name: &str, source: &str, constants: &[(&str, f64)]) -> Vec<String> {
    let module = naga::front::wgsl::parse_str(source).unwrap_or_else(|e| panic!("{name}: {e}"));
    let info =
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
            .validate(&module)
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let constants: naga::back::PipelineConstants =
        constants.iter().map(|&(k, v)| (k.to_owned(), v)).collect();
    let mut found = Vec::new();
    for entry in &module.entry_points {
        let (module, _) = naga::back::pipeline_constants::process_overrides(
            &module,
            &info,
            Some((entry.stage, &entry.name)),
            &constants,
        )
        .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let entry = module.entry_points.iter().find(|e| e.name == entry.name).expect("entry point kept");
        check_block(&module, &entry.function, &entry.function.body, &mut found);
    }
    found.iter().map(|f| format!("{name} {f}")).collect()
}

fn repo_file(path: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn our_shaders_do_not_branch_on_uniforms() {
    for (name, _, source) in studio_render::shaders::ALL {
        assert_eq!(uniform_branches(name, source, &[]), Vec::<String>::new());
    }
    // The mesh shader's game shading too, with both bone slot counts.
    for slots in [2.0, 3.0] {
        let constants = [("GAME_SHADING", 1.0), ("BONE_SLOTS", slots)];
        assert_eq!(
            uniform_branches("mesh.wgsl", studio_render::shaders::MESH, &constants),
            Vec::<String>::new()
        );
    }
}

#[test]
fn egui_shader_does_not_branch_on_uniforms_with_the_constants_egui_sets() {
    let source = repo_file("vendor/egui-wgpu/src/egui.wgsl");
    // eframe's default (dithering on), dithering off, and kittest's (its own filtering).
    for (dithering, predictable) in [(1.0, 0.0), (0.0, 0.0), (0.0, 1.0)] {
        let constants = [("DITHERING", dithering), ("PREDICTABLE_TEXTURE_FILTERING", predictable)];
        assert_eq!(uniform_branches("egui.wgsl", &source, &constants), Vec::<String>::new());
    }
    // The check sees what the patch removed: the same shader with its options as uniforms.
    let unpatched = source
        .replace("if !PREDICTABLE_TEXTURE_FILTERING {", "if r_locals.predictable_texture_filtering == 0 {")
        .replace("if DITHERING {", "if r_locals.dithering == 1 {");
    let found = uniform_branches("unpatched egui.wgsl", &unpatched, &[]);
    assert!(found.iter().any(|f| f.contains("sample_texture")), "{found:?}");
    assert!(found.iter().any(|f| f.contains("fs_main_gamma_framebuffer")), "{found:?}");
}

#[test]
fn the_build_uses_the_patched_egui_wgpu() {
    // A patched package is locked without a registry source.
    let lock = repo_file("Cargo.lock");
    let package = lock
        .split("[[package]]")
        .find(|p| p.contains("name = \"egui-wgpu\""))
        .expect("egui-wgpu in Cargo.lock");
    assert!(!package.contains("source ="), "egui-wgpu comes from a registry, not vendor/:\n{package}");
}
