//! `studioview`: a viewer and command line for Valve studio models, Half-Life and Source.
//!
//! On Windows this is a GUI-subsystem program: a double-click opens the viewer with no console
//! window beside it. Commands started from a console print there (`user_message::connect`), and
//! the package's `studioview.com` (the `studioview-console` launcher) makes `studioview` typed in
//! a console wait for the command and return its exit status, as a console program does.

#![forbid(unsafe_code)]
#![cfg_attr(windows, windows_subsystem = "windows")]

use studio_viewer::app;
use studio_viewer::user_message::{self, Severity};
use studioview::{check, export_cmd, info, list, pose_cmd, render_cmd};

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// A fast, robust viewer for Valve studio models: Half-Life (.mdl version 10) and Source
/// (versions 44–49, with their .vvd, .vtx, .ani and include models).
#[derive(Parser)]
#[command(name = "studioview", version, about)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// A model to open in the viewer window (the bundled demo model when left out).
    model: Option<PathBuf>,
    #[command(flatten)]
    installs: studio_document::installs::InstallArgs,
}

// Parsed once per run: the size of its largest variant (render's options) costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Print what a modder wants to know about a model.
    Info {
        /// The model's main file.
        model: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// A game whose search path is searched after the model's own (repeatable).
        #[arg(long, value_name = "DIR")]
        game: Vec<PathBuf>,
    },
    /// List the Steam folders, libraries and games (Source and Half-Life) on this machine.
    Games {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List every model of game folders, loose and inside their VPK and PAK archives.
    List {
        /// Game folders (the folder holding `models/` and the archives).
        #[arg(required = true)]
        games: Vec<PathBuf>,
        /// Print JSON, with each model's sequence names and activities.
        #[arg(long)]
        json: bool,
        /// Only models whose path, or a sequence name or activity, holds this text (any case).
        #[arg(long)]
        filter: Option<String>,
        /// A game whose search path is searched after each model's own (repeatable).
        #[arg(long, value_name = "DIR")]
        game: Vec<PathBuf>,
    },
    /// Validate models: files (or `archive:path`), archives and folders searched recursively
    /// for *.mdl.
    Check {
        /// Files and folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// A game whose search path is searched after each model's own (repeatable).
        #[arg(long, value_name = "DIR")]
        game: Vec<PathBuf>,
    },
    /// Evaluate one pose and print it as JSON: bone matrices, hit box corners, attachments.
    Pose {
        /// The model's main file.
        model: PathBuf,
        /// Sequence number or name.
        #[arg(long)]
        seq: String,
        #[command(flatten)]
        pose: pose_cmd::PoseArgs,
    },
    /// Render a pose offscreen to a PNG file.
    Render {
        /// The model's main file; the bundled demo model when left out.
        model: Option<PathBuf>,
        /// The PNG file to write.
        #[arg(long)]
        out: PathBuf,
        /// Sequence number or name.
        #[arg(long, default_value = "0")]
        seq: String,
        #[command(flatten)]
        pose: pose_cmd::PoseArgs,
        #[command(flatten)]
        shown: studio_document::shown::Shown,
        /// Image size, WIDTHxHEIGHT.
        #[arg(long, default_value = "800x600", value_parser = render_cmd::parse_size)]
        size: (u32, u32),
        /// What to draw: mesh, skeleton, hitboxes, attachments, wireframe, bbox, seqbox, grid, xray,
        /// normals (vertex normals), hull (the player's hulls), weights (a colour per bone) or
        /// weights:BONE (that bone's weight, blue to red); plain: plain diffuse shading instead of
        /// the game's (Source materials).
        #[arg(long, value_delimiter = ',', default_value = "mesh,grid")]
        show: Vec<String>,
        #[command(flatten)]
        camera: render_cmd::CameraArgs,
        #[command(flatten)]
        light: render_cmd::LightArgs,
        /// A Source flex controller's value in its own range, NAME=VALUE (repeatable); the
        /// others stay at rest. The eyes look at the camera.
        #[arg(long, allow_hyphen_values = true)]
        flex: Vec<String>,
        /// Write an animation of N frames: --out FILE.gif, FILE.png (APNG), FILE.webp, or DIR/
        /// for numbered PNG frames.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(render_cmd::MAX_FRAMES)))]
        frames: Option<u32>,
        /// The animation's frames a second (Half-Life: the sequence's own rate when left out;
        /// Source: 30).
        #[arg(long, requires = "frames", value_parser = render_cmd::parse_fps)]
        fps: Option<f32>,
        /// A transparent background, with no ground grid.
        #[arg(long)]
        transparent: bool,
        /// A model drawn on this one by bone merge (a p_ or w_ weapon; either format; repeatable).
        #[arg(long, value_name = "MODEL")]
        attach: Vec<PathBuf>,
        /// Draw Half-Life muzzle flashes (events 5001, 5011, 5021, 5031) on the frames that fire
        /// them, with the game's sprites/muzzleflash*.spr from the model's game or --game.
        #[arg(long)]
        muzzle_flashes: bool,
    },
    /// Export a model as glTF 2.0: skeleton, skinned meshes, textures, every sequence.
    Export {
        /// The model's main file; the bundled demo model when left out.
        model: Option<PathBuf>,
        /// The file to write: FILE.glb, or FILE.gltf with FILE.bin beside it.
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        shown: studio_document::shown::Shown,
        /// A sequence to export, by number or name (repeatable; all when left out).
        #[arg(long = "seq")]
        sequences: Vec<String>,
        /// Model units per glTF unit (1 keeps the model's units).
        #[arg(long, default_value_t = 1.0)]
        scale: f32,
    },
    /// Print the model's QC lines: $eyeposition, $bbox, $cbox, $bodygroup, $controller, $hbox
    /// ($hboxset for Source), $attachment, $texrendermode and $sequence, in studiomdl's syntax.
    Qc {
        /// The model's main file.
        model: PathBuf,
    },
    /// Scale, turn about z and move a whole Half-Life model (in that order), or flip its
    /// normals, and save it under a new name.
    Transform {
        /// The model (.mdl, version 10).
        model: PathBuf,
        /// Uniform scale.
        #[arg(long, default_value_t = 1.0)]
        scale: f32,
        /// Turn about the up (z) axis, degrees, counter-clockwise seen from above.
        #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
        rotate: f32,
        /// Move by X,Y,Z units.
        #[arg(long = "move", value_name = "X,Y,Z", value_parser = parse_vec3, allow_hyphen_values = true)]
        offset: Option<glam::Vec3>,
        /// Turn every normal round (the mesh lit from its other side).
        #[arg(long)]
        flip_normals: bool,
        /// The model written, with its texture and sequence group files beside it.
        #[arg(long)]
        out: PathBuf,
    },
    /// Export, import or map a Half-Life model's textures.
    Texture {
        #[command(subcommand)]
        action: TextureAction,
    },
    /// Write the model's sources: NAME.qc, an SMD per submodel and per animation (every blend
    /// of a sequence) and the textures as 8-bit BMP files, in studiomdl's formats.
    Decompile {
        /// The model's main file.
        model: PathBuf,
        /// The folder to write them into (made if missing).
        #[arg(long)]
        out: PathBuf,
        /// Also a Source model's include models' sources, each in a folder named after it.
        #[arg(long)]
        include_models: bool,
        /// Then build a Half-Life model's QC with this studiomdl (Valve's Half-Life compiler)
        /// in the folder, and compare what it wrote with the original.
        #[arg(long, value_name = "STUDIOMDL")]
        check: Option<PathBuf>,
        /// A game whose search path is searched after the model's own (repeatable).
        #[arg(long, value_name = "DIR")]
        game: Vec<PathBuf>,
    },
    /// Time pose evaluation on a fixed workload over the model's sequences.
    Bench {
        /// The model's main file.
        model: PathBuf,
        /// Poses per timed repeat.
        #[arg(long, default_value_t = 200_000)]
        poses: usize,
        /// Also time evaluation straight from the run-length data, as Valve's code does it.
        #[arg(long)]
        from_runs: bool,
        /// Only this sequence (number or name; Source models).
        #[arg(long)]
        seq: Option<String>,
    },
    /// The viewer's helper: compiles the viewport's shaders into Mesa's shader cache.
    #[command(name = app::warmup::SUBCOMMAND, hide = true)]
    WarmShaders {
        /// The model the viewer opens.
        model: Option<PathBuf>,
    },
}

/// What `studioview texture` does.
#[derive(Subcommand)]
enum TextureAction {
    /// Write every texture, or one, as an indexed image (its palette kept) named after it.
    Export {
        /// The model (.mdl, version 10).
        model: PathBuf,
        /// The folder to write to (made if missing).
        #[arg(long)]
        out: PathBuf,
        /// The image format.
        #[arg(long, default_value = "png", value_parser = parse_image_format)]
        format: studio_edit::texture::ImageFormat,
        /// Only this texture (its name, the name without extension, or its number); a Source
        /// model's material (its name, last part, or number).
        #[arg(long)]
        texture: Option<String>,
        /// A game folder to look a Source model's materials up in besides its own (repeatable).
        #[arg(long, value_name = "DIR")]
        game: Vec<PathBuf>,
    },
    /// Import an image (PNG, BMP, TGA, JPEG) over a texture and save the model under a new name.
    Import {
        /// The model (.mdl, version 10).
        model: PathBuf,
        /// The texture replaced (its name, the name without extension, or its number).
        #[arg(long)]
        texture: String,
        /// The image imported.
        #[arg(long)]
        image: PathBuf,
        /// The model written, with its texture and sequence group files beside it.
        #[arg(long)]
        out: PathBuf,
    },
    /// Rename a texture and save the model under a new name.
    Rename {
        /// The model (.mdl, version 10).
        model: PathBuf,
        /// The texture renamed (its name, the name without extension, or its number).
        #[arg(long)]
        texture: String,
        /// Its new name (DM_Base.bmp or RemapC_LLL_MMM.bmp make it take a player's colours).
        #[arg(long)]
        to: String,
        /// The model written, with its texture and sequence group files beside it.
        #[arg(long)]
        out: PathBuf,
    },
    /// Draw a texture's UV layout as a PNG.
    Uvmap {
        /// The model (.mdl, version 10).
        model: PathBuf,
        /// The texture (its name, the name without extension, or its number).
        #[arg(long)]
        texture: String,
        /// The PNG written.
        #[arg(long)]
        out: PathBuf,
        /// Pixels a texel.
        #[arg(long, default_value_t = 1.0)]
        scale: f32,
        /// Line width in pixels.
        #[arg(long, default_value_t = 1.0)]
        line_width: f32,
        /// Draw the lines over the texture instead of a transparent background.
        #[arg(long)]
        over_texture: bool,
        /// Draw hard-edged lines.
        #[arg(long)]
        no_anti_alias: bool,
        /// A game folder to look a Source model's materials up in besides its own (repeatable).
        #[arg(long, value_name = "DIR")]
        game: Vec<PathBuf>,
    },
}

fn parse_vec3(text: &str) -> Result<glam::Vec3, String> {
    let parts: Vec<f32> = text
        .split(',')
        .map(|p| p.trim().parse::<f32>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("{text:?}: give X,Y,Z numbers"))?;
    match parts[..] {
        [x, y, z] if parts.iter().all(|v| v.is_finite()) => Ok(glam::Vec3::new(x, y, z)),
        _ => Err(format!("{text:?}: give three finite numbers, X,Y,Z")),
    }
}

fn parse_image_format(text: &str) -> Result<studio_edit::texture::ImageFormat, String> {
    studio_edit::texture::ImageFormat::of_path(std::path::Path::new(&format!("x.{text}")))
        .ok_or_else(|| format!("{text:?}: the formats are png and bmp"))
}

fn main() -> ExitCode {
    user_message::connect();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if user_message::needs_window() => {
            let severity = if error.use_stderr() { Severity::Error } else { Severity::Info };
            user_message::tell(severity, &error.to_string());
            return ExitCode::from(error.exit_code().clamp(0, 255) as u8);
        }
        Err(error) => error.exit(),
    };
    let games = match &cli.command {
        Some(
            Command::Info { game, .. }
            | Command::List { game, .. }
            | Command::Check { game, .. }
            | Command::Decompile { game, .. },
        ) => game.clone(),
        _ => Vec::new(),
    };
    studio_document::installs::configure(cli.installs.context(&games));
    let Some(command) = cli.command else {
        return app::run(cli.model);
    };
    match command {
        Command::Info { model, json, .. } => info::run(&model, json),
        Command::Games { json } => studioview::games_cmd::run(json),
        Command::Check { paths, .. } => check::run(&paths),
        Command::Decompile { model, out, include_models, check, .. } => {
            studioview::decompile::run(&model, &out, include_models, check.as_deref())
        }
        Command::List { games, json, filter, .. } => list::run(&games, json, filter.as_deref()),
        Command::Pose { model, seq, pose } => pose_cmd::run_pose(&model, &seq, &pose),
        Command::Render {
            model,
            out,
            seq,
            pose,
            shown,
            size,
            show,
            camera,
            light,
            flex,
            frames,
            fps,
            transparent,
            attach,
            muzzle_flashes,
        } => {
            if let Some(code) = render_cmd::rerun_quietly() {
                return code;
            }
            render_cmd::run(&render_cmd::RenderArgs {
                model,
                out,
                sequence: seq,
                pose,
                shown,
                size,
                show,
                camera,
                light,
                flex,
                frames,
                fps,
                transparent,
                attach,
                muzzle_flashes,
            })
        }
        Command::Export { model, out, shown, sequences, scale } => {
            if !(scale.is_finite() && scale > 0.0) {
                eprintln!("error: --scale must be a positive number");
                return ExitCode::FAILURE;
            }
            let options = studio_document::export::ExportOptions { shown, sequences, scale };
            export_cmd::run(model.as_deref(), &out, &options)
        }
        Command::Qc { model } => studioview::qc_cmd::run(&model),
        Command::Texture { action } => texture(action),
        Command::Transform { model, scale, rotate, offset, flip_normals, out } => {
            let t = studio_edit::transform::ModelTransform {
                scale,
                rotate_z: rotate,
                offset: offset.unwrap_or_default(),
            };
            studioview::transform_cmd::run(&model, &t, flip_normals, &out)
        }
        Command::WarmShaders { model } => app::warmup::run_helper(model),
        Command::Bench { model, poses, from_runs, seq } => {
            pose_cmd::run_bench(&model, poses, from_runs, seq.as_deref())
        }
    }
}

fn texture(action: TextureAction) -> ExitCode {
    use studioview::texture_cmd;
    match action {
        TextureAction::Export { model, out, format, texture, game } => {
            texture_cmd::run_export(&model, &out, format, texture.as_deref(), &game)
        }
        TextureAction::Import { model, texture, image, out } => {
            texture_cmd::run_import(&model, &texture, &image, &out)
        }
        TextureAction::Rename { model, texture, to, out } => {
            texture_cmd::run_rename(&model, &texture, &to, &out)
        }
        TextureAction::Uvmap {
            model,
            texture,
            out,
            scale,
            line_width,
            over_texture,
            no_anti_alias,
            game,
        } => {
            let options = studio_edit::texture::UvMapOptions {
                scale,
                line_width,
                over_texture,
                anti_alias: !no_anti_alias,
                ..Default::default()
            };
            texture_cmd::run_uv_map(&model, &texture, &out, &options, &game)
        }
    }
}
