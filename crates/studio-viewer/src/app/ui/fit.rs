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
///
/// The answer is kept while it is asked for frame after frame ([`Elisions`]): finding it lays
/// the text out several times, and a playing model redraws every panel's labels 60 times a
/// second.
pub fn elide_middle(ctx: &egui::Context, text: &str, font: &egui::FontId, max_width: f32) -> Option<String> {
    let key =
        ElisionKey { text, font, max_width: max_width.to_bits(), scale: ctx.pixels_per_point().to_bits() };
    if let Some(kept) = ctx.memory_mut(|m| m.caches.cache::<Elisions>().get(&key)) {
        return kept;
    }
    let elided = elide_middle_uncached(ctx, text, font, max_width);
    ctx.memory_mut(|m| m.caches.cache::<Elisions>().insert(&key, elided.clone()));
    elided
}

/// What an elision depends on: the text, its font, the width and the pixels per point (which
/// round the glyphs' advances).
#[derive(Hash)]
struct ElisionKey<'a> {
    text: &'a str,
    font: &'a egui::FontId,
    max_width: u32,
    scale: u32,
}

impl ElisionKey<'_> {
    fn hash(&self) -> u64 {
        use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
        BuildHasherDefault::<DefaultHasher>::default().hash_one(self)
    }
}

/// One kept elision, with its whole key (a hash match alone is not trusted).
struct Elision {
    text: String,
    font: egui::FontId,
    max_width: u32,
    scale: u32,
    elided: Option<String>,
    /// The frame it was last asked for.
    generation: u32,
}

/// The elisions asked for in this frame and the last, in egui's per-frame caches: one not asked
/// for in a frame is dropped at its end.
#[derive(Default)]
struct Elisions {
    generation: u32,
    kept: std::collections::HashMap<u64, Elision>,
}

impl Elisions {
    fn get(&mut self, key: &ElisionKey<'_>) -> Option<Option<String>> {
        let generation = self.generation;
        let kept = self.kept.get_mut(&key.hash())?;
        let same = kept.text == key.text
            && kept.font == *key.font
            && kept.max_width == key.max_width
            && kept.scale == key.scale;
        same.then(|| {
            kept.generation = generation;
            kept.elided.clone()
        })
    }

    fn insert(&mut self, key: &ElisionKey<'_>, elided: Option<String>) {
        let elision = Elision {
            text: key.text.to_owned(),
            font: key.font.clone(),
            max_width: key.max_width,
            scale: key.scale,
            elided,
            generation: self.generation,
        };
        self.kept.insert(key.hash(), elision);
    }
}

impl egui::cache::CacheTrait for Elisions {
    fn update(&mut self) {
        let generation = self.generation;
        self.kept.retain(|_, kept| kept.generation == generation);
        self.generation = generation.wrapping_add(1);
    }

    fn len(&self) -> usize {
        self.kept.len()
    }
}

/// [`elide_middle`], worked out.
fn elide_middle_uncached(
    ctx: &egui::Context,
    text: &str,
    font: &egui::FontId,
    max_width: f32,
) -> Option<String> {
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

    #[test]
    fn an_elision_is_kept_while_asked_for_each_frame_and_is_what_working_it_out_gives() {
        let ctx = egui::Context::default();
        let font = egui::FontId::proportional(14.0);
        let path = r"C:\Program Files (x86)\Steam\steamapps\common\Half-Life\ns\models\soldier_reference.mdl";
        let kept = |ctx: &egui::Context| {
            ctx.memory_mut(|m| egui::cache::CacheTrait::len(m.caches.cache::<Elisions>()))
        };
        let mut answers = Vec::new();
        for frame in 0..3 {
            let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
                // Asked twice in a frame, and in each frame: the same answer as worked out.
                for _ in 0..2 {
                    let answer = elide_middle(ui.ctx(), path, &font, 200.0);
                    assert_eq!(answer, elide_middle_uncached(ui.ctx(), path, &font, 200.0), "frame {frame}");
                    answers.push(answer);
                }
                // Another width is another elision.
                if frame == 0 {
                    assert_ne!(elide_middle(ui.ctx(), path, &font, 240.0), answers[0]);
                }
            });
            output.textures_delta.clear();
        }
        assert!(answers.iter().all(|a| a.as_ref().is_some_and(|a| a.contains(ELLIPSIS))), "{answers:?}");
        // The 240-point one was dropped after the frame that did not ask for it.
        assert_eq!(kept(&ctx), 1);
        ctx.run_ui(egui::RawInput::default(), |_| {}).textures_delta.clear();
        assert_eq!(kept(&ctx), 0, "nothing asked for in a frame is kept after it");
    }
}
