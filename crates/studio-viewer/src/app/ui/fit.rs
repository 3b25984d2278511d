//! Texts that fit their panel: a long name or path is shortened in the middle (its start and
//! its end are what tell two apart) with the full text on hover, never wrapped letter by
//! letter and never widening its panel.

/// The ellipsis put where text was left out.
const ELLIPSIS: char = '…';

/// Width of `text` in `font`, laid out on one line.
pub fn width(ctx: &egui::Context, text: String, font: &egui::FontId) -> f32 {
    ctx.fonts_mut(|f| f.layout_no_wrap(text, font.clone(), egui::Color32::WHITE).size().x)
}

/// `text` with its middle replaced by an ellipsis so that it is at most `max_width` wide in
/// `font`, or `None` when it fits as it is. Keeps as much of both ends as fits (at least the
/// ellipsis).
pub fn elide_middle(ctx: &egui::Context, text: &str, font: &egui::FontId, max_width: f32) -> Option<String> {
    if width(ctx, text.to_owned(), font) <= max_width {
        return None;
    }
    let chars: Vec<char> = text.chars().collect();
    let shortened = |kept: usize| -> String {
        let head = kept.div_ceil(2);
        let tail = kept / 2;
        chars[..head].iter().chain(std::iter::once(&ELLIPSIS)).chain(&chars[chars.len() - tail..]).collect()
    };
    // The most characters kept that still fit: a binary search over 0..len.
    let (mut fits, mut too_many) = (0usize, chars.len());
    while too_many - fits > 1 {
        let mid = (fits + too_many) / 2;
        if width(ctx, shortened(mid), font) <= max_width {
            fits = mid;
        } else {
            too_many = mid;
        }
    }
    Some(shortened(fits))
}

/// A one-line label of the body font in the width left in `ui`, elided in the middle when
/// too long, with the full text on hover.
pub fn label(ui: &mut egui::Ui, text: impl Into<String>) -> egui::Response {
    colored_label(ui, text, None)
}

/// [`label`] in `color` (the theme's text colour when `None`).
pub fn colored_label(
    ui: &mut egui::Ui,
    text: impl Into<String>,
    color: Option<egui::Color32>,
) -> egui::Response {
    let text = text.into();
    let font = egui::TextStyle::Body.resolve(ui.style());
    let available = ui.available_width().max(0.0);
    let rich = |t: String| {
        let rich = egui::RichText::new(t);
        match color {
            Some(c) => rich.color(c),
            None => rich,
        }
    };
    match elide_middle(ui.ctx(), &text, &font, available) {
        Some(short) => {
            ui.add(egui::Label::new(rich(short)).wrap_mode(egui::TextWrapMode::Extend)).on_hover_text(text)
        }
        None => ui.add(egui::Label::new(rich(text)).wrap_mode(egui::TextWrapMode::Extend)),
    }
}

/// A row of a key (in a column `key_width` wide) and its value, fitted to the rest of the row.
pub fn row(ui: &mut egui::Ui, key_width: f32, key: &str, value: impl Into<String>) {
    ui.horizontal(|ui| {
        let height = ui.spacing().interact_size.y;
        ui.allocate_ui_with_layout(
            egui::vec2(key_width, height),
            egui::Layout::left_to_right(egui::Align::Center),
            |ui| {
                ui.set_min_width(key_width);
                ui.add(egui::Label::new(key).wrap_mode(egui::TextWrapMode::Truncate));
            },
        );
        label(ui, value);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_keeps_both_ends_and_fits() {
        let ctx = egui::Context::default();
        // Fonts are loaded by the first pass; its texture upload is not needed here.
        ctx.run_ui(egui::RawInput::default(), |_| {}).textures_delta.clear();
        let font = egui::FontId::proportional(14.0);
        let path = r"C:\Program Files (x86)\Steam\steamapps\common\Half-Life\ns\models\soldier_reference.mdl";
        assert_eq!(elide_middle(&ctx, "short", &font, 200.0), None);
        let short = elide_middle(&ctx, path, &font, 200.0).expect("the path is too long for 200 points");
        assert!(
            short.starts_with(r"C:\Pro") && short.ends_with(".mdl") && short.contains(ELLIPSIS),
            "{short}"
        );
        assert!(width(&ctx, short.clone(), &font) <= 200.0);
        // One character more would not fit.
        let longer = elide_middle(&ctx, path, &font, 200.0 + 40.0).unwrap();
        assert!(longer.chars().count() > short.chars().count());
        // Nothing fits in no room but the ellipsis.
        assert_eq!(elide_middle(&ctx, path, &font, 0.0).as_deref(), Some("…"));
    }
}
