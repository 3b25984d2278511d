//! The Sequences panel's Layers: four slots, each a sequence mixed over the
//! one shown at a weight, on the main clock or at a cycle of its own.

use super::Commands;
use crate::app::command::Command;
use crate::app::state::AppState;
use crate::app::state::layers::Layer;

/// The layer slots.
pub fn layers_ui(ui: &mut egui::Ui, state: &AppState, commands: &mut Commands) {
    let names: Vec<String> = match state.source.as_deref() {
        Some(view) => {
            let rig = view.doc.evaluator.rig();
            (0..rig.num_sequences())
                .map(|i| rig.sequence(i).map_or_else(String::new, |s| s.seq.label.clone()))
                .collect()
        }
        None => state.model().sequences.iter().map(|s| s.label.clone()).collect(),
    };
    let used = state.layers.iter().filter(|l| l.sequence.is_some()).count();
    egui::CollapsingHeader::new(format!("Layers ({used})")).id_salt("layers").show(ui, |ui| {
        for (slot, layer) in state.layers.iter().enumerate() {
            let mut edited = *layer;
            ui.horizontal(|ui| {
                let name = edited.sequence.and_then(|s| names.get(s)).map_or("none", String::as_str);
                egui::ComboBox::from_id_salt(("layer", slot))
                    .selected_text(format!("{}: {name}", slot + 1))
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut edited.sequence, None, "none");
                        for (i, name) in names.iter().enumerate() {
                            ui.selectable_value(&mut edited.sequence, Some(i), name.as_str());
                        }
                    });
                let on = edited.sequence.is_some();
                let label = ui.label("weight");
                ui.add_enabled(on, egui::Slider::new(&mut edited.weight, 0.0..=1.0).fixed_decimals(2))
                    .labelled_by(label.id);
            });
            if edited.sequence.is_some() {
                ui.horizontal(|ui| {
                    ui.add_space(16.0);
                    ui.checkbox(&mut edited.main_clock, "main clock").on_hover_text(
                        "Follow the shown sequence's cycle; otherwise stay at the cycle set here",
                    );
                    ui.add_enabled(
                        !edited.main_clock,
                        egui::Slider::new(&mut edited.cycle, 0.0..=1.0).text("cycle").fixed_decimals(2),
                    );
                });
            }
            if edited != *layer {
                commands.push(Command::SetLayer(slot, edited));
            }
        }
        if ui.add_enabled(used > 0, egui::Button::new("Clear layers")).clicked() {
            for slot in 0..state.layers.len() {
                commands.push(Command::SetLayer(slot, Layer::default()));
            }
        }
    });
}
