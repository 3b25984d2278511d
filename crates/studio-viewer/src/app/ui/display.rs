//! Display toggles, the hit-group colour legend and the background colour.

use studio_model::HIT_GROUP_NAMES;
use studio_render::HIT_GROUP_COLORS;

use crate::app::settings::Weights;
use crate::app::state::AppState;

/// The bone weights view's choice.
fn weights_ui(ui: &mut egui::Ui, weights: &mut Weights) {
    let name = |w: Weights| match w {
        Weights::Off => "off",
        Weights::PerBone => "per bone",
        Weights::UnderCursor => "under cursor",
    };
    egui::ComboBox::from_label("Weights")
        .selected_text(name(*weights))
        .width(90.0)
        .show_ui(ui, |ui| {
            for choice in [Weights::Off, Weights::PerBone, Weights::UnderCursor] {
                ui.selectable_value(weights, choice, name(choice));
            }
        })
        .response
        .on_hover_text(
            "Bone weights: each bone in its own colour, or the weight of the bone whose joint is \
             under the pointer (else the selected bone) from blue (none) to red (all)",
        );
}

/// The display panel.
pub fn display_ui(ui: &mut egui::Ui, state: &mut AppState) {
    let s = &mut state.settings;
    ui.heading("Display");
    egui::Grid::new("display toggles").num_columns(2).show(ui, |ui| {
        ui.checkbox(&mut s.mesh, "Mesh");
        ui.checkbox(&mut s.textures, "Textures");
        ui.end_row();
        ui.checkbox(&mut s.wireframe, "Wireframe");
        ui.checkbox(&mut s.flat, "Flat shading");
        ui.end_row();
        ui.checkbox(&mut s.skeleton, "Skeleton");
        ui.checkbox(&mut s.bone_names, "Bone names");
        ui.end_row();
        ui.checkbox(&mut s.hitboxes, "Hit boxes");
        ui.checkbox(&mut s.attachments, "Attachments");
        ui.end_row();
        ui.checkbox(&mut s.xray, "X-ray overlays");
        ui.checkbox(&mut s.ground, "Ground");
        ui.end_row();
        ui.checkbox(&mut s.bounding_box, "Bounding box");
        ui.checkbox(&mut s.sequence_box, "Sequence box");
        ui.end_row();
        ui.checkbox(&mut s.double_sided, "Back faces");
        ui.horizontal(|ui| {
            ui.color_edit_button_srgb(&mut s.background);
            ui.label("Background");
        });
        ui.end_row();
        ui.checkbox(&mut s.game_shading, "Game shading").on_hover_text(
            "Source materials as the game shades them: normal maps, phong, light warps, \
             self-illumination by the texture's alpha; off: plain diffuse lighting",
        );
        ui.checkbox(&mut s.normals, "Normals").on_hover_text("Each vertex's normal as a short cyan line");
        ui.end_row();
        ui.checkbox(&mut s.player_hull, "Player hull").on_hover_text(
            "The player's standing (blue) and crouching (orange) hulls at the origin: Half-Life's \
             32 × 32 × 72 and 36 centred on it, Source's 72 and 36 standing on it",
        );
        weights_ui(ui, &mut s.weights);
        ui.end_row();
    });
    if s.hitboxes {
        ui.label(egui::RichText::new("Hit groups").strong());
        egui::Grid::new("hit group legend").num_columns(4).show(ui, |ui| {
            for (group, (name, rgb)) in HIT_GROUP_NAMES.iter().zip(HIT_GROUP_COLORS).enumerate() {
                let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
                ui.painter().rect_filled(rect, 2.0, egui::Color32::from_rgb(rgb[0], rgb[1], rgb[2]));
                ui.label(format!("{group} {name}"));
                if group % 2 == 1 {
                    ui.end_row();
                }
            }
        });
    }
}
