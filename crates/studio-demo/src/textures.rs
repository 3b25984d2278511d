//! The critter's textures, drawn procedurally with integer arithmetic, and its two skin
//! families (green and orange).

use studio_model::{STUDIO_NF_CHROME, STUDIO_NF_MASKED, Skins, Texture};

/// Skin slot of the body.
pub const SLOT_BODY: i32 = 0;
/// Skin slot of the head and jaw.
pub const SLOT_HEAD: i32 = 1;
/// Skin slot of the chrome rotor.
pub const SLOT_CHROME: i32 = 2;
/// Skin slot of the masked crest.
pub const SLOT_CREST: i32 = 3;

/// Texture size of a skin slot (the same in both families).
pub fn slot_size(slot: i32) -> (u32, u32) {
    match slot {
        SLOT_BODY => (64, 64),
        SLOT_HEAD => (64, 32),
        _ => (32, 32),
    }
}

/// A palette of 256 entries from a function of the index.
fn palette(f: impl Fn(u32) -> [u32; 3]) -> Vec<[u8; 3]> {
    (0..256).map(|i| f(i).map(|c| c.min(255) as u8)).collect()
}

/// Scales: a checker of 8-texel cells with a fine cross-hatch.
fn scales(width: u32, height: u32) -> Vec<u8> {
    (0..height)
        .flat_map(|y| {
            (0..width)
                .map(move |x| (32 + ((x ^ y) & 31) + if (x / 8 + y / 8) % 2 == 0 { 0 } else { 96 }) as u8)
        })
        .collect()
}

/// Skin with two eyes: white discs with dark pupils, looking forward.
fn face(width: u32, height: u32) -> Vec<u8> {
    let mut pixels = scales(width, height);
    for (cx, cy) in [(22i32, 14i32), (42, 14)] {
        for y in 0..height as i32 {
            for x in 0..width as i32 {
                let d2 = (x - cx).pow(2) + (y - cy).pow(2);
                let at = (y as u32 * width + x as u32) as usize;
                if d2 <= 6 {
                    pixels[at] = 1; // pupil
                } else if d2 <= 30 {
                    pixels[at] = 2; // white
                }
            }
        }
    }
    pixels
}

fn with_eyes(mut colours: Vec<[u8; 3]>) -> Vec<[u8; 3]> {
    colours[1] = [10, 10, 20];
    colours[2] = [245, 245, 235];
    colours
}

/// The textures and skin families.
pub fn textures_and_skins() -> (Vec<Texture>, Skins) {
    let green = palette(|i| [i / 5, 70 + i * 2 / 3, 20 + i / 6]);
    let orange = palette(|i| [120 + i / 2, 50 + i / 3, i / 8]);
    let chrome = palette(|i| [90 + i * 2 / 3, 100 + i * 2 / 3, 120 + i * 2 / 3]);
    let mut crest_colours = palette(|i| [200, 40 + i / 2, 40]);
    crest_colours[255] = [0, 0, 255];
    let chrome_pixels: Vec<u8> =
        (0..32u32).flat_map(|y| (0..32u32).map(move |x| ((x * 5 + y * 3) % 256) as u8)).collect();
    // The crest: a fin that narrows upwards; the rest is palette index 255, transparent.
    let crest_pixels: Vec<u8> = (0..32u32)
        .flat_map(|y| (0..32u32).map(move |x| if x * 32 >= y * 20 && x < 28 { (x * 6) as u8 } else { 255 }))
        .collect();
    let (bw, bh) = slot_size(SLOT_BODY);
    let (hw, hh) = slot_size(SLOT_HEAD);
    let textures = vec![
        Texture::from_indexed("critter_green.bmp", 0, bw, bh, scales(bw, bh), &green),
        Texture::from_indexed("critter_orange.bmp", 0, bw, bh, scales(bw, bh), &orange),
        Texture::from_indexed("head_green.bmp", 0, hw, hh, face(hw, hh), &with_eyes(green.clone())),
        Texture::from_indexed("head_orange.bmp", 0, hw, hh, face(hw, hh), &with_eyes(orange.clone())),
        Texture::from_indexed("chrome.bmp", STUDIO_NF_CHROME, 32, 32, chrome_pixels, &chrome),
        Texture::from_indexed("crest.bmp", STUDIO_NF_MASKED, 32, 32, crest_pixels, &crest_colours),
    ];
    // Columns: body, head, chrome, crest.
    let skins = Skins::new(4, vec![0, 2, 4, 5, 1, 3, 4, 5]);
    (textures, skins)
}
