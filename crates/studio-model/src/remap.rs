//! Player colours: the palette ranges the game recolours on a player model with the player's
//! top and bottom colour (`topcolor`, `bottomcolor`, 0–255).
//!
//! Which textures, by name (case ignored, as the engine and HLMV compare it):
//! - `DM_Base.bmp`: entries 160–191 take the top colour, 192–223 the bottom colour.
//! - `RemapC_LLL_MMM.bmp` (18 characters, the letter after `Remap` a `c`): entries LLL–MMM take
//!   the top colour.
//! - `RemapX_LLL_MMM_HHH.bmp` (22 characters, any letter): LLL–MMM the top colour, MMM+1–HHH the
//!   bottom colour when HHH is not 0.
//!
//! Each entry keeps its brightness and saturation and takes the colour's hue, by the engine's
//! `PaletteHueReplace` (the same arithmetic in HLMV and Half-Life Asset Manager), in single
//! precision as it is written, and truncated to a byte.

/// Palette ranges of a remappable texture: `low..=mid` take the top colour, `mid + 1..=high`
/// the bottom colour (none when `high` is 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RemapRanges {
    /// First entry of the top colour.
    pub low: u32,
    /// Last entry of the top colour.
    pub mid: u32,
    /// Last entry of the bottom colour, or 0 for none.
    pub high: u32,
}

/// The number at `at..at + 3` of `name`, as the engine's `atoi` reads it: leading digits, 0
/// when there are none.
fn three_digits(name: &[u8], at: usize) -> u32 {
    name.get(at..at + 3)
        .unwrap_or_default()
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .fold(0, |n, &b| n * 10 + u32::from(b - b'0'))
}

/// The ranges of a texture named `name`, when the game recolours it.
pub fn remap_ranges(name: &str) -> Option<RemapRanges> {
    let bytes = name.as_bytes();
    if name.eq_ignore_ascii_case("DM_Base.bmp") {
        return Some(RemapRanges { low: 160, mid: 191, high: 223 });
    }
    if !bytes.get(..5).is_some_and(|p| p.eq_ignore_ascii_case(b"Remap")) {
        return None;
    }
    let high = match bytes.len() {
        18 if bytes[5].eq_ignore_ascii_case(&b'c') => 0,
        22 => three_digits(bytes, 15),
        _ => return None,
    };
    Some(RemapRanges { low: three_digits(bytes, 7), mid: three_digits(bytes, 11), high })
}

/// `PaletteHueReplace`: entries `start..=end` of `palette` take the hue of colour `colour`.
pub fn replace_hue(palette: &mut [[u8; 3]], colour: u8, start: u32, end: u32) {
    let hue = (f64::from(colour) * (360.0 / 255.0)) as f32;
    for entry in palette.iter_mut().take(end.saturating_add(1) as usize).skip(start as usize) {
        let [r, g, b] = entry.map(f32::from);
        let max = r.max(g).max(b) / 255.0;
        let min = r.min(g).min(b) / 255.0;
        let val = max;
        let sat = (max - min) / max;
        let min = val * (1.0 - sat);
        let (r, g, b) = if hue <= 120.0 {
            if hue < 60.0 {
                (val, min + hue * (val - min) / (120.0 - hue), min)
            } else {
                (min + (120.0 - hue) * (val - min) / hue, val, min)
            }
        } else if hue <= 240.0 {
            if hue < 180.0 {
                (min, val, min + (hue - 120.0) * (val - min) / (240.0 - hue))
            } else {
                (min, min + (240.0 - hue) * (val - min) / (hue - 120.0), val)
            }
        } else if hue < 300.0 {
            (min + (hue - 240.0) * (val - min) / (360.0 - hue), min, val)
        } else {
            (val, min, min + (360.0 - hue) * (val - min) / (hue - 240.0))
        };
        // A black entry divides 0 by 0: the engine's conversion of that NaN leaves 0.
        *entry = [r, g, b].map(|c| (c * 255.0) as u8);
    }
}

/// `palette` as the game shows a texture named `name` on a player of colours `top` and
/// `bottom`; `None` when the texture is not recoloured.
pub fn remapped_palette(name: &str, palette: &[[u8; 3]], top: u8, bottom: u8) -> Option<Vec<[u8; 3]>> {
    let ranges = remap_ranges(name)?;
    let mut palette = palette.to_vec();
    replace_hue(&mut palette, top, ranges.low, ranges.mid);
    if ranges.high != 0 {
        replace_hue(&mut palette, bottom, ranges.mid.saturating_add(1), ranges.high);
    }
    Some(palette)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_give_the_ranges_the_game_recolours() {
        let r = |low, mid, high| Some(RemapRanges { low, mid, high });
        assert_eq!(remap_ranges("DM_Base.bmp"), r(160, 191, 223));
        assert_eq!(remap_ranges("dm_base.BMP"), r(160, 191, 223));
        assert_eq!(remap_ranges("Remapc_000_127.bmp"), r(0, 127, 0));
        assert_eq!(remap_ranges("REMAPC_010_100.bmp"), r(10, 100, 0));
        assert_eq!(remap_ranges("Remap1_000_127_255.bmp"), r(0, 127, 255));
        assert_eq!(remap_ranges("remap2_064_095_127.bmp"), r(64, 95, 127));
        // The short form needs its `c`; other lengths are not remap names.
        assert_eq!(remap_ranges("Remap1_000_127.bmp"), None);
        assert_eq!(remap_ranges("Remap_000_127.bmp"), None);
        assert_eq!(remap_ranges("DM_Base2.bmp"), None);
        assert_eq!(remap_ranges("body.bmp"), None);
        // atoi's reading: digits up to the first other character.
        assert_eq!(remap_ranges("Remapc_0x1_12a.bmp"), r(0, 12, 0));
    }

    #[test]
    fn the_hue_is_replaced_by_the_engines_arithmetic() {
        // Worked by hand from PaletteHueReplace in single precision.
        // Colour 0 (hue 0): (200, 100, 50) keeps value 200/255 and its minimum 50/255.
        let mut p = vec![[200u8, 100, 50]];
        replace_hue(&mut p, 0, 0, 0);
        assert_eq!(p[0], [200, 50, 50]);
        // Colour 85 (hue 120): green at the same value.
        let mut p = vec![[200u8, 100, 50]];
        replace_hue(&mut p, 85, 0, 0);
        assert_eq!(p[0], [50, 200, 50]);
        // Colour 170 (hue 240): blue.
        let mut p = vec![[200u8, 100, 50]];
        replace_hue(&mut p, 170, 0, 0);
        assert_eq!(p[0], [50, 50, 200]);
        // Colour 30 (hue 42.35...): g = min + hue (val - min) / (120 - hue).
        let mut p = vec![[200u8, 100, 50]];
        replace_hue(&mut p, 30, 0, 0);
        let hue = (30.0f64 * (360.0 / 255.0)) as f32;
        let (val, min) = (200.0f32 / 255.0, 50.0f32 / 255.0);
        let min = val * (1.0 - (val - min) / val);
        let g = ((min + hue * (val - min) / (120.0 - hue)) * 255.0) as u8;
        assert_eq!(p[0], [200, g, ((min * 255.0) as u8)]);
        // Grey keeps its grey; black stays black; entries outside the range are untouched.
        let mut p = vec![[0u8, 0, 0], [90, 90, 90], [1, 2, 3]];
        replace_hue(&mut p, 200, 0, 1);
        assert_eq!(p, [[0, 0, 0], [90, 90, 90], [1, 2, 3]]);
    }

    #[test]
    fn dm_base_recolours_its_two_ranges_only() {
        let palette: Vec<[u8; 3]> = (0..256u32).map(|i| [i as u8, (i / 2) as u8, 40]).collect();
        let remapped = remapped_palette("DM_Base.bmp", &palette, 85, 170).unwrap();
        for (i, (a, b)) in palette.iter().zip(&remapped).enumerate() {
            match i {
                160..=191 => assert!(b[1] >= b[0] && b[1] >= b[2], "{i}: {b:?} is not green"),
                192..=223 => assert!(b[2] >= b[0] && b[2] >= b[1], "{i}: {b:?} is not blue"),
                _ => assert_eq!(a, b, "{i}"),
            }
        }
        assert_eq!(remapped_palette("body.bmp", &palette, 85, 170), None);
    }
}
