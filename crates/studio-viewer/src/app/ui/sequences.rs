//! The searchable sequence list and the playback controls.

use egui::RichText;

use super::Commands;
use crate::app::command::Command;
use crate::app::state::AppState;

/// Widest a sequence's name is shown in the tables; longer ones are elided in the middle.
pub(super) const SEQUENCE_NAME_WIDTH: f32 = 96.0;

/// The sequence list with its search box.
pub fn sequences_ui(ui: &mut egui::Ui, state: &mut AppState, search: &mut String, commands: &mut Commands) {
    ui.heading("Sequences");
    ui.add(egui::TextEdit::singleline(search).hint_text("search sequences").id_salt("sequence search"));
    let needle = search.to_lowercase();
    let font = egui::TextStyle::Body.resolve(ui.style());
    let matches: Vec<usize> = (0..state.model().sequences.len())
        .filter(|&i| needle.is_empty() || state.model().sequences[i].label.to_lowercase().contains(&needle))
        .collect();
    let columns = [
        ("name", "the sequence's name"),
        ("frm", "frames"),
        ("fps", "frames per second"),
        ("loop", "whether it loops"),
        ("act", "activity"),
        ("bl", "blends"),
        ("ev", "events"),
    ];
    sequence_table(ui, "sequence table", &columns, matches.len(), |ui, row| {
        if let Some(&i) = matches.get(row) {
            sequence_row(ui, state, i, &font, commands);
        }
    });
}

/// A table of sequences under a header of `columns` (each a heading and its meaning, shown on
/// hover), in a list that scrolls: `add_row` adds the widgets of row `0..rows` (a name as a
/// selectable label of the body text, then labels).
///
/// Only the rows in view are laid out: a model's tens or hundreds of sequences cost the first
/// frame their text layout (39 M instructions for the NS soldier's 79, callgrind, when every
/// row was laid out; the window's first frame waits for it), and every frame after it their
/// widgets. Every row is as high as its tallest widget, the name's selectable label (a line of
/// text and the button padding), which the grid is told. The header is the list's row 0.
pub(super) fn sequence_table(
    ui: &mut egui::Ui,
    grid_id: &str,
    columns: &[(&str, &str)],
    rows: usize,
    mut add_row: impl FnMut(&mut egui::Ui, usize),
) {
    let spacing = ui.spacing();
    let label_height = ui.text_style_height(&egui::TextStyle::Body) + 2.0 * spacing.button_padding.y;
    let row_height = label_height.max(spacing.interact_size.y);
    ui.scope(|ui| {
        // Scrolls sideways only in a panel made narrower than the table. Its bars take room of
        // their own: a floating bar lay over the table's last row, and with a search that
        // leaves one or two rows with a long name (the table then wider than the panel) the bar
        // took the click on the row meant to play it.
        ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
        let list = egui::ScrollArea::both().id_salt("sequence list").max_height(260.0);
        list.show_rows(ui, row_height, rows + 1, |ui, shown| {
            ui.spacing_mut().item_spacing.x = 5.0;
            let grid = egui::Grid::new(grid_id).num_columns(columns.len()).striped(true);
            grid.min_row_height(row_height).start_row(shown.start).show(ui, |ui| {
                if shown.start == 0 {
                    for (heading, meaning) in columns {
                        ui.label(RichText::new(*heading).weak()).on_hover_text(*meaning);
                    }
                    ui.end_row();
                }
                for row in shown.start.saturating_sub(1)..shown.end.saturating_sub(1) {
                    add_row(ui, row);
                    ui.end_row();
                }
            });
        });
    });
}

/// Sequence `i`'s row: its name (elided in the middle when long; a click plays it) and numbers.
fn sequence_row(ui: &mut egui::Ui, state: &AppState, i: usize, font: &egui::FontId, commands: &mut Commands) {
    let Some(sequence) = state.model().sequences.get(i) else { return };
    let shown = super::fit::elide_middle(ui.ctx(), &sequence.label, font, SEQUENCE_NAME_WIDTH);
    let mut name = RichText::new(shown.as_deref().unwrap_or(&sequence.label));
    if sequence.animation.is_none() {
        name = name.weak();
    }
    let hover = if sequence.animation.is_none() { "its sequence group file is missing" } else { "play it" };
    if ui
        .selectable_label(state.sequence == i, name)
        .on_hover_text(format!("#{i} {}: {hover}", sequence.label))
        .clicked()
    {
        commands.push(Command::SelectSequence(i));
    }
    ui.label(sequence.num_frames.to_string());
    ui.label(format!("{}", sequence.fps));
    ui.label(if sequence.is_looping() { "yes" } else { "" });
    ui.label(sequence.activity.to_string());
    ui.label(if sequence.num_blends > 1 { sequence.num_blends.to_string() } else { String::new() });
    ui.label(if sequence.events.is_empty() { String::new() } else { sequence.events.len().to_string() });
}

/// Play/pause, stepping, speed, loop and movement.
pub fn playback_ui(ui: &mut egui::Ui, state: &mut AppState, commands: &mut Commands) {
    ui.horizontal(|ui| {
        if ui.button("< Step").clicked() {
            commands.push(Command::Step(-1));
        }
        if ui.button(if state.playing { "Pause" } else { "Play" }).clicked() {
            commands.push(Command::TogglePlay);
        }
        if ui.button("Step >").clicked() {
            commands.push(Command::Step(1));
        }
    });
    ui.add(egui::Slider::new(&mut state.settings.speed, 0.1..=4.0).logarithmic(true).text("Speed"));
    let mut bind = state.bind_pose;
    if ui
        .checkbox(&mut bind, "Bind pose")
        .on_hover_text("Each bone where the mesh was bound to it, instead of the sequence's pose")
        .changed()
    {
        commands.push(Command::SetBindPose(bind));
    }
    if let Some(view) = state.source.as_deref() {
        let loops = view.doc.looping();
        let speed = view.doc.ground_speed();
        if speed > 0.0 {
            ui.label(format!("ground speed {speed:.1} units/s"));
        }
        ui.horizontal(|ui| {
            ui.checkbox(&mut state.looping, "Loop");
            ui.label(
                RichText::new(if loops { "(the sequence loops)" } else { "(the sequence plays once)" })
                    .weak(),
            );
        });
        ui.checkbox(&mut state.settings.scroll_ground, "Scroll the ground").on_hover_text(
            "The ground moves under the model by its sequence's movement, as if it walked in place",
        );
        playing_options(ui, state, true);
        super::layers::layers_ui(ui, state, commands);
        return;
    }
    if let Some(sequence) = state.model().sequences.get(state.sequence).cloned() {
        let movement = sequence.linear_movement;
        if movement != glam::Vec3::ZERO {
            ui.label(format!(
                "linear movement {movement} over the sequence ({:.1} units/s)",
                studio_pose::playback::ground_speed(&sequence)
            ));
            ui.horizontal(|ui| {
                if ui.checkbox(&mut state.settings.apply_movement, "Move along the ground").changed() {
                    state.invalidate();
                }
                ui.add_enabled(
                    !state.settings.apply_movement,
                    egui::Checkbox::new(&mut state.settings.scroll_ground, "Scroll the ground"),
                )
                .on_hover_text("The ground moves under the model by its movement, as if it walked in place");
            });
        }
        ui.horizontal(|ui| {
            ui.checkbox(&mut state.looping, "Loop");
            ui.label(
                RichText::new(if sequence.is_looping() {
                    "(the sequence loops)"
                } else {
                    "(the sequence plays once)"
                })
                .weak(),
            );
        });
        playing_options(ui, state, false);
        super::layers::layers_ui(ui, state, commands);
    }
}

/// The choices about playing as the game plays: transitions, sounds and (Half-Life) flashes.
fn playing_options(ui: &mut egui::Ui, state: &mut AppState, source: bool) {
    ui.checkbox(&mut state.settings.blend_transitions, "Blend transitions").on_hover_text(if source {
        "While playing, the sequence left fades out over the shorter of its fade-out and the new one's \
         fade-in time (0.2 s unless the model says otherwise), as the Source client does; a sequence \
         marked snap cuts in"
    } else {
        "Blend from the sequence left into the one chosen over 0.2 s while playing, as the game does"
    });
    ui.checkbox(&mut state.settings.transition_graph, "Through the transition graph").on_hover_text(
        "While playing, a sequence chosen is reached as the game's monsters and NPCs reach it: first each \
         sequence the model's transition graph puts between the two (entry and exit nodes), once, then \
         the one chosen. Models without a graph go straight there",
    );
    if let Some(route) = &state.route {
        let label = |i: usize| match state.source.as_deref() {
            Some(view) => view.doc.evaluator.rig().label(i).unwrap_or_default().to_owned(),
            None => state.model().sequences.get(i).map(|s| s.label.clone()).unwrap_or_default(),
        };
        let shown = match state.source.as_deref() {
            Some(view) => (view.doc.sequence, view.doc.reverse),
            None => (state.sequence, state.reverse),
        };
        let mut text = format!("On the way to {}: {}", label(route.goal), label(shown.0));
        if shown.1 {
            text.push_str(" (backwards)");
        }
        for &(step, backwards) in route.steps.iter().take(8) {
            text.push_str(", then ");
            text.push_str(&label(step));
            if backwards {
                text.push_str(" (backwards)");
            }
        }
        ui.label(RichText::new(text).weak());
    }
    ui.checkbox(&mut state.settings.event_sounds, "Event sounds").on_hover_text(
        "Play the sounds of events as playback passes them: Half-Life's 5004, 1004 and 1008 waves below \
         sound/, Source's sound events through the game's sound scripts (unchecked: muted)",
    );
    if !source {
        ui.checkbox(&mut state.settings.muzzle_flashes, "Muzzle flashes").on_hover_text(
            "Draw events 5001–5031 with the game's sprites/muzzleflash*.spr at attachments 0–3, for the one \
             frame the game shows them (and while stopped on the event's frame)",
        );
    }
}
