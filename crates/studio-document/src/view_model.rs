//! First-person view models: told by their file names, drawn from the player's eye with the
//! game's field of view (the viewer's default camera for them, and `render`'s).

use std::path::Path;

/// Whether the model at `path` is a first-person view model: its file name starts with `v_`,
/// as every Half-Life and Source view model's does (`v_crowbar.mdl`, `v_pistol.mdl`).
pub fn is_view_model(path: Option<&Path>) -> bool {
    path.and_then(Path::file_name)
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.len() > 2 && n.as_bytes()[..2].eq_ignore_ascii_case(b"v_"))
}

/// The game's field of view for view models (horizontal on a 4:3 screen): 90 for Half-Life,
/// `viewmodel_fov`'s 54 for Source games.
pub fn view_model_fov(source: bool) -> f32 {
    if source { studio_render::SOURCE_VIEW_MODEL_FOV } else { studio_render::GOLDSRC_VIEW_MODEL_FOV }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn view_models_are_told_by_their_names() {
        for name in ["v_mg.mdl", "V_Crowbar.MDL", "models/weapons/v_pistol.mdl"] {
            assert!(is_view_model(Some(Path::new(name))), "{name}");
        }
        for name in ["soldier.mdl", "p_mg.mdl", "w_v_.mdl", "v_", "v"] {
            assert!(!is_view_model(Some(Path::new(name))), "{name}");
        }
        assert!(!is_view_model(None));
        assert_eq!((view_model_fov(false), view_model_fov(true)), (90.0, 54.0));
    }
}
