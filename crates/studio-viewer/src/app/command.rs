//! Everything the user can do, as values: the menus, the keyboard, drag and drop and the tests
//! all go through [`crate::app::state::AppState::apply`].

use std::path::PathBuf;

use studio_edit::{Edit, GoldRecord, SourceRecord};

/// An edit of the open model, in its format.
#[derive(Clone, Debug, PartialEq)]
pub enum DocEdit {
    /// An edit of a version 10 model.
    Gold(Edit<GoldRecord>),
    /// An edit of a Source model.
    Source(Edit<SourceRecord>),
}

/// One user action.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Load the model at a path (File ▸ Open, drag and drop, recent files, command line).
    Open(PathBuf),
    /// Load the bundled demo model.
    OpenDemo,
    /// Open the model `step` places after the open one in its folder (before it for a negative
    /// step), wrapping round: next and previous model.
    NextModel(i32),
    /// Show or hide the model browser.
    ToggleBrowser,
    /// Open the model browser on the open model's folder, the model highlighted.
    ShowInBrowser,
    /// Load the current model's file again, keeping the camera, the sequence, the frame and
    /// the sliders.
    Reload,
    /// Reload the model by itself when its file or a companion changes on disk.
    SetAutoReload(bool),
    /// Play this sequence from its start.
    SelectSequence(usize),
    /// Go to a fractional frame.
    SetFrame(f32),
    /// Start or stop playback.
    TogglePlay,
    /// Stop playback and move by whole frames.
    Step(i32),
    /// Draw a model on the open one by bone merge (File ▸ Attach model…): a `p_` or `w_` weapon.
    Attach(PathBuf),
    /// Draw a model beside the open one, on its clock (File ▸ Compare with model…).
    Compare(PathBuf),
    /// Remove the attached or compared model.
    RemoveSecond,
    /// Play the sounds of events, or mute them.
    SetEventSounds(bool),
    /// Draw Half-Life's muzzle flash events, or not.
    SetMuzzleFlashes(bool),
    /// Set a blend byte (0 or 1).
    SetBlend(usize, u8),
    /// Set a controller (by position in the model's controller list) to a setting 0–255.
    SetController(usize, u8),
    /// Set the mouth, 0–64.
    SetMouth(u8),
    /// Put every controller and the mouth at rest.
    ResetControllers,
    /// Highlight a bone (or none).
    SelectBone(Option<usize>),
    /// Highlight a hit box (or none).
    SelectHitbox(Option<usize>),
    /// Look at the whole model.
    FrameModel,
    /// Back to the model's default camera (first person for a view model), framing it.
    ResetView,
    /// Orbit, first person or free look (View ▸ Camera).
    SetCameraMode(studio_render::CameraMode),
    /// The field of view, degrees, as the games count it: horizontal on a 4:3 screen.
    SetFov(f32),
    /// Orthographic projection on or off.
    SetOrthographic(bool),
    /// Look along an axis (keys 1–6): front, back, left, right, top, bottom.
    SetAxisView(studio_render::AxisView),
    /// Free look: move the eye along the view, its right and up, in units.
    Fly {
        /// Along the view.
        forward: f32,
        /// To the view's right.
        right: f32,
        /// Up (+Z).
        up: f32,
    },
    /// Keep the camera for the open model, restored whenever it opens.
    SaveView,
    /// Go back to the view saved for the open model.
    RestoreView,
    /// Hide the side and bottom panels, or show them again.
    TogglePanels,
    /// Export the model as glTF 2.0 (`.glb`, or `.gltf` with a `.bin`), with the body, skin and
    /// LOD shown and every sequence.
    Export(PathBuf),
    /// Write the shown model's sources into a folder (File ▸ Decompile…): its QC and SMD
    /// files, and its textures as BMP files (Half-Life), on a thread of their own.
    Decompile(PathBuf),
    /// Record the viewport as an animation into this file (or folder).
    Capture(PathBuf),
    /// Stop the capture running, writing nothing.
    CancelCapture,
    /// Show the bind pose (true) or the sequence's pose.
    SetBindPose(bool),
    /// Set layer N (Half-Life models).
    SetLayer(usize, crate::app::state::layers::Layer),
    /// Go to a cycle, 0 to 1 (Source models).
    SetCycle(f32),
    /// Set a pose parameter (by its index in the combined model) in its own units (Source).
    SetPoseParameter(usize, f32),
    /// Set a bone controller (by position in the model's list) in its own units (Source).
    SetSourceController(usize, f32),
    /// Set a flex controller (by its index in the model's list) in its own range (Source).
    SetFlex(usize, f32),
    /// Put every flex controller at rest (Source).
    ResetFlexes,
    /// Where the eyes look, in model space; `None`: at the camera (Source).
    SetEyeTarget(Option<glam::Vec3>),
    /// Show hit box set N (Source).
    SelectHitboxSet(usize),
    /// Draw level of detail N (Source).
    SetLod(usize),
    /// Play the model's `STUDIO_AUTOPLAY` sequences on top of the pose (Source).
    SetAutoplay(bool),
    /// The game folders Source materials are looked up in besides the model's own; looks the
    /// open model's materials up again.
    SetGameFolders(Vec<PathBuf>),
    /// The Steam folders read besides those found, and the game settings search paths depend
    /// on; finds the games again and looks the open model's materials up again.
    SetGameSettings {
        /// Steam folders.
        steam_folders: Vec<PathBuf>,
        /// Language, low violence, HD, addons.
        preferences: studio_games::Preferences,
    },
    /// Highlight an attachment (or none).
    SelectAttachment(Option<usize>),
    /// Change the open model. With `merge`, a change of the same record as the edit still open
    /// (a drag in progress) joins it, so the drag undoes as one step.
    Edit {
        /// The change.
        edit: Box<DocEdit>,
        /// Whether it continues the open edit.
        merge: bool,
    },
    /// Close the open edit (a drag ended).
    EndEdit,
    /// Undo the last edit.
    Undo,
    /// Redo the last edit undone.
    Redo,
    /// Save the model over its file.
    Save,
    /// Save the model under a new name, and go on editing that file.
    SaveAs(PathBuf),
    /// Close the window (asks first when there are unsaved edits).
    Quit,
    /// Carry out the command waiting on unsaved edits, throwing them away.
    DiscardAndContinue,
    /// Save, then carry out the command waiting on unsaved edits.
    SaveAndContinue,
    /// Forget the command waiting on unsaved edits.
    CancelPending,
}

impl Command {
    /// A version 10 edit named `name`, not merged.
    pub fn edit_gold(name: impl Into<String>, change: studio_edit::Change<GoldRecord>) -> Self {
        Command::Edit { edit: Box::new(DocEdit::Gold(Edit { name: name.into(), change })), merge: false }
    }

    /// A Source edit named `name`, not merged.
    pub fn edit_source(name: impl Into<String>, change: studio_edit::Change<SourceRecord>) -> Self {
        Command::Edit { edit: Box::new(DocEdit::Source(Edit { name: name.into(), change })), merge: false }
    }
}
