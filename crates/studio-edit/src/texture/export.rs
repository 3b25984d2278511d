//! Writing a version 10 texture as an image file: an 8-bit indexed PNG or BMP with the texture's
//! own 256 colours and indices, so that importing the file again changes nothing. A masked
//! texture's PNG marks index 255 transparent (`tRNS`), so a painter sees the holes.

use studio_model::Texture;

/// The image formats a texture is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ImageFormat {
    /// PNG, indexed.
    #[default]
    Png,
    /// Windows bitmap, 8 bits a pixel (studiomdl's input).
    Bmp,
}

impl ImageFormat {
    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            ImageFormat::Png => "png",
            ImageFormat::Bmp => "bmp",
        }
    }

    /// The format of a file name's extension.
    pub fn of_path(path: &std::path::Path) -> Option<Self> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "png" => Some(ImageFormat::Png),
            "bmp" => Some(ImageFormat::Bmp),
            _ => None,
        }
    }
}

/// The file name a texture is exported to by default: its name with the format's extension
/// (`body.bmp` → `body.png`). Characters a file name cannot hold become `_`.
pub fn default_file_name(texture: &Texture, format: ImageFormat) -> String {
    let name = texture.name.rsplit(['/', '\\']).next().unwrap_or_default();
    let stem = match name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => name,
    };
    let stem: String =
        stem.chars().map(|c| if c.is_control() || r#"<>:"/\|?*"#.contains(c) { '_' } else { c }).collect();
    let stem = if stem.trim().is_empty() { "texture".to_owned() } else { stem };
    format!("{stem}.{}", format.extension())
}

/// Why a texture could not be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// Its pixels are not width × height.
    #[error("texture {0}: its pixels do not match its size")]
    Size(String),
    /// The encoder failed.
    #[error("texture {name}: {message}")]
    Encode {
        /// The texture.
        name: String,
        /// What the encoder said.
        message: String,
    },
}

fn palette(texture: &Texture) -> Vec<[u8; 3]> {
    let mut palette = texture.palette.clone();
    palette.resize(256, [0; 3]);
    palette
}

fn check(texture: &Texture) -> Result<(), ExportError> {
    let pixels = u64::from(texture.width) * u64::from(texture.height);
    if pixels == 0 || pixels != texture.pixels.len() as u64 {
        return Err(ExportError::Size(texture.name.clone()));
    }
    Ok(())
}

/// The texture as an indexed PNG file.
pub fn png_bytes(texture: &Texture) -> Result<Vec<u8>, ExportError> {
    check(texture)?;
    let encode =
        |e: png::EncodingError| ExportError::Encode { name: texture.name.clone(), message: e.to_string() };
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, texture.width, texture.height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette(texture).concat());
    if texture.is_masked() {
        let mut alpha = vec![255u8; 256];
        alpha[255] = 0;
        encoder.set_trns(alpha);
    }
    let mut writer = encoder.write_header().map_err(encode)?;
    writer.write_image_data(&texture.pixels).map_err(encode)?;
    writer.finish().map_err(encode)?;
    Ok(out)
}

/// The texture as an 8-bit BMP file.
pub fn bmp_bytes(texture: &Texture) -> Result<Vec<u8>, ExportError> {
    check(texture)?;
    let image = studio_smd::bmp::Indexed {
        width: texture.width,
        height: texture.height,
        pixels: texture.pixels.clone(),
        palette: palette(texture),
    };
    studio_smd::bmp::write(&image).ok_or_else(|| ExportError::Size(texture.name.clone()))
}

/// The texture in `format`.
pub fn image_bytes(texture: &Texture, format: ImageFormat) -> Result<Vec<u8>, ExportError> {
    match format {
        ImageFormat::Png => png_bytes(texture),
        ImageFormat::Bmp => bmp_bytes(texture),
    }
}

/// Writes textures into folder `dir` (made if missing) under their default names, in `format`:
/// all of them, or only texture `only`. Two textures of one name (in any case) do not overwrite
/// each other: the second is written as `N_name`. Returns each file written with its texture.
pub fn write_all(
    textures: &[Texture],
    dir: &std::path::Path,
    format: ImageFormat,
    only: Option<usize>,
) -> Result<Vec<(std::path::PathBuf, usize)>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut taken = std::collections::HashSet::new();
    let mut written = Vec::new();
    for (index, texture) in textures.iter().enumerate() {
        let mut file = default_file_name(texture, format);
        if !taken.insert(file.to_ascii_lowercase()) {
            file = format!("{index}_{file}");
            taken.insert(file.to_ascii_lowercase());
        }
        if only.is_some_and(|only| only != index) {
            continue;
        }
        let target = dir.join(&file);
        let bytes = image_bytes(texture, format).map_err(|e| e.to_string())?;
        std::fs::write(&target, bytes).map_err(|e| format!("{}: {e}", target.display()))?;
        written.push((target, index));
    }
    Ok(written)
}
