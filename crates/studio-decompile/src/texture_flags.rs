//! A version 10 texture's flags as Valve's Half-Life studiomdl can give them back.
//!
//! studiomdl sets a texture's flags in two places only (`utils/studiomdl/studiomdl.c`):
//! `lookup_texture` gives `STUDIO_NF_FLATSHADE | STUDIO_NF_CHROME` to every texture whose name
//! holds "chrome" (`stristr`, any case) and 0 to the others, and `Cmd_SetTextureRendermode`
//! (`$texrendermode NAME MODE`) adds `STUDIO_NF_ADDITIVE` for `additive` and `STUDIO_NF_MASKED`
//! for `masked`, and fails on any other mode. So chrome is said through the BMP's name, and
//! full-bright, no-mipmaps, flat shading without chrome and chrome without flat shading cannot
//! be said at all.

use studio_model::{
    STUDIO_NF_ADDITIVE, STUDIO_NF_CHROME, STUDIO_NF_FLATSHADE, STUDIO_NF_FULLBRIGHT, STUDIO_NF_MASKED,
    STUDIO_NF_NOMIPS,
};

/// The flags `$texrendermode` gives.
const RENDER_MODES: [(i32, &str); 2] = [(STUDIO_NF_ADDITIVE, "additive"), (STUDIO_NF_MASKED, "masked")];

/// What a texture named `name` gets from studiomdl's name rule.
fn from_name(name: &str) -> i32 {
    if name.to_ascii_lowercase().contains("chrome") { STUDIO_NF_FLATSHADE | STUDIO_NF_CHROME } else { 0 }
}

/// The stem of the BMP a texture `name` with `flags` is written as, so that studiomdl's name
/// rule gives chrome exactly when the texture has it: " chrome" is added to a chrome texture's
/// name that lacks it (as `_chrome`), and "chrome" in another texture's name becomes
/// `chrom_e`. The stem is short enough for the suffix and [`super::names`]'s numbering to fit
/// the 64-byte texture name.
pub fn file_stem(name: &str, flags: i32) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let base = base.strip_suffix(".bmp").or_else(|| base.strip_suffix(".BMP")).unwrap_or(base);
    let mut stem: String = base.chars().take(48).collect();
    let chrome = flags & STUDIO_NF_CHROME != 0;
    if chrome && from_name(&stem) == 0 {
        stem.push_str("_chrome");
    } else if !chrome {
        while let Some(at) = stem.to_ascii_lowercase().find("chrome") {
            stem.insert(at + 5, '_');
        }
    }
    stem
}

/// The `$texrendermode` modes for `flags`.
pub fn render_modes(flags: i32) -> impl Iterator<Item = &'static str> {
    RENDER_MODES.into_iter().filter(move |&(flag, _)| flags & flag != 0).map(|(_, mode)| mode)
}

/// The flags the texture written as `file` gets back from studiomdl, for a texture with `flags`.
pub fn rebuilt(file: &str, flags: i32) -> i32 {
    from_name(file) | RENDER_MODES.iter().fold(0, |f, &(flag, _)| f | (flags & flag))
}

/// What of `flags` studiomdl cannot give back, in words, for the QC's comment (empty when
/// nothing is lost).
pub fn lost(flags: i32) -> Vec<String> {
    let mut out = Vec::new();
    for (flag, name) in
        [(STUDIO_NF_FULLBRIGHT, "fullbright (0x0004)"), (STUDIO_NF_NOMIPS, "no mipmaps (0x0008)")]
    {
        if flags & flag != 0 {
            out.push(format!("{name}: studiomdl has no option for it"));
        }
    }
    let (flat, chrome) = (flags & STUDIO_NF_FLATSHADE != 0, flags & STUDIO_NF_CHROME != 0);
    if flat && !chrome {
        out.push("flat shading without chrome (0x0001): studiomdl gives it only with chrome".to_owned());
    }
    if chrome && !flat {
        out.push("chrome without flat shading (0x0002): studiomdl adds flat shading to chrome".to_owned());
    }
    let known = STUDIO_NF_FLATSHADE
        | STUDIO_NF_CHROME
        | STUDIO_NF_FULLBRIGHT
        | STUDIO_NF_NOMIPS
        | STUDIO_NF_ADDITIVE
        | STUDIO_NF_MASKED;
    if flags & !known != 0 {
        out.push(format!("flags {:#06x}: studiomdl sets no other flag", flags & !known));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chrome_is_said_by_the_name_and_the_rest_by_render_modes() {
        let chrome = STUDIO_NF_CHROME | STUDIO_NF_FLATSHADE;
        assert_eq!(file_stem("gun.bmp", chrome), "gun_chrome");
        assert_eq!(file_stem("Chrome1.bmp", chrome), "Chrome1");
        assert_eq!(file_stem("chromeplate.BMP", 0), "chrom_eplate");
        assert_eq!(file_stem("CHROMEchrome", 0), "CHROM_Echrom_e");
        assert_eq!(rebuilt("gun_chrome.bmp", chrome), chrome);
        assert_eq!(rebuilt("chrom_eplate.bmp", 0), 0);
        let masked = STUDIO_NF_MASKED | STUDIO_NF_ADDITIVE | STUDIO_NF_NOMIPS;
        assert_eq!(render_modes(masked).collect::<Vec<_>>(), ["additive", "masked"]);
        assert_eq!(rebuilt("glass.bmp", masked), STUDIO_NF_MASKED | STUDIO_NF_ADDITIVE);
        assert_eq!(lost(masked).len(), 1);
        assert_eq!(lost(chrome), Vec::<String>::new());
        assert_eq!(lost(STUDIO_NF_FLATSHADE).len(), 1);
        assert_eq!(lost(STUDIO_NF_CHROME | STUDIO_NF_FULLBRIGHT).len(), 2);
        assert!(file_stem(&"x".repeat(80), chrome).len() <= 55);
    }
}
