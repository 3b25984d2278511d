//! The viewer's panels, one file each. Each reads [`AppState`] and pushes [`Command`]s.

pub mod browser;
pub mod camera;
pub mod capture;
pub mod controls;
pub mod decompile;
pub mod display;
pub mod fit;
pub mod flex_panel;
pub mod handles;
pub mod layers;
pub mod light;
pub mod menu;
pub mod model_panel;
pub mod properties;
pub mod sequences;
pub mod source_panels;
pub mod textures;
pub mod timeline;
pub mod transform;
pub mod viewport;

use super::command::Command;

/// Commands gathered during one frame of UI, applied after it.
pub type Commands = Vec<Command>;

/// A panel's frame without its fill: the window is cleared to the panel colour instead
/// ([`window_clear_color`]). Every pixel egui fills costs a texture sample on a software
/// renderer, and panels cover the whole window.
pub fn panel_frame(style: &egui::Style, central: bool) -> egui::Frame {
    let frame = if central { egui::Frame::central_panel(style) } else { egui::Frame::side_top_panel(style) };
    frame.fill(egui::Color32::TRANSPARENT)
}

/// The colour the window is cleared to before egui draws: the panels' fill.
pub fn window_clear_color(visuals: &egui::Visuals) -> [f32; 4] {
    visuals.panel_fill.to_normalized_gamma_f32()
}

/// Degrees from a blend or controller byte over a range.
pub fn byte_to_value(byte: u8, start: f32, end: f32) -> f32 {
    start + f32::from(byte) / 255.0 * (end - start)
}

/// The byte nearest a value over a range (the range may run backwards).
pub fn value_to_byte(value: f32, start: f32, end: f32) -> u8 {
    if end == start || !value.is_finite() {
        return 0;
    }
    ((value - start) / (end - start) * 255.0).round().clamp(0.0, 255.0) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_and_values_round_trip() {
        for byte in [0u8, 1, 77, 128, 254, 255] {
            assert_eq!(value_to_byte(byte_to_value(byte, -45.0, 45.0), -45.0, 45.0), byte);
            assert_eq!(value_to_byte(byte_to_value(byte, 60.0, -60.0), 60.0, -60.0), byte);
        }
        assert_eq!(value_to_byte(1e9, 0.0, 1.0), 255);
        assert_eq!(value_to_byte(f32::NAN, 0.0, 1.0), 0);
    }
}
