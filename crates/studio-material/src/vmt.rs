//! `.vmt` materials: a shader name and its parameters (KeyValues), the `patch` shader's
//! `include` with `replace` and `insert` blocks, and the parameters a model viewer shows:
//! `$basetexture`, `$translucent`, `$alphatest` (+ `$alphatestreference`), `$additive`,
//! `$nocull`, `$selfillum`, `$envmap`, `$color`, `$color2`, `$bumpmap`, `$phong` (with
//! `$phongexponent`, `$phongboost`, `$phongfresnelranges`), `$lightwarptexture` and `$iris`.

use crate::error::{Error, Result};
use crate::keyvalues::{self, Pair};

/// A parsed `.vmt`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Vmt {
    /// The shader, as written (`VertexLitGeneric`, `patch`, …).
    pub shader: String,
    /// Parameters with string values, keys in lower case, in file order (block-valued ones
    /// such as `Proxies` are left out).
    pub params: Vec<(String, String)>,
    /// For a `patch` material: the material it starts from.
    pub include: Option<String>,
    /// For a `patch` material: parameters that replace the included ones.
    pub replace: Vec<(String, String)>,
    /// For a `patch` material: parameters added where the included material lacks them.
    pub insert: Vec<(String, String)>,
}

fn string_params(pairs: &[Pair]) -> Vec<(String, String)> {
    pairs.iter().filter_map(|p| Some((p.key.to_ascii_lowercase(), p.text()?.to_owned()))).collect()
}

/// Parses a `.vmt`'s text.
pub fn parse_vmt(text: &[u8]) -> Result<Vmt> {
    let pairs = keyvalues::parse(text)?;
    let root = pairs.first().ok_or_else(|| Error::new("VMT", 0, "the material is empty"))?;
    let body = root
        .block()
        .ok_or_else(|| Error::new("VMT", 0, format!("shader {:?} has no parameter block", root.key)))?;
    let mut vmt = Vmt { shader: root.key.clone(), params: string_params(body), ..Vmt::default() };
    if vmt.shader.eq_ignore_ascii_case("patch") {
        for pair in body {
            match pair.key.to_ascii_lowercase().as_str() {
                "include" => vmt.include = pair.text().map(str::to_owned),
                "replace" => vmt.replace = pair.block().map(string_params).unwrap_or_default(),
                "insert" => vmt.insert = pair.block().map(string_params).unwrap_or_default(),
                _ => {}
            }
        }
    }
    Ok(vmt)
}

impl Vmt {
    /// A parameter's value (keys ignore case); the last one written wins.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.params.iter().rev().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v.as_str())
    }

    /// This patch applied to the material it includes: `replace` overwrites, `insert` adds what
    /// is missing. The result keeps the included material's shader.
    pub fn patched(&self, base: &Vmt) -> Vmt {
        let mut out = base.clone();
        for (key, value) in &self.replace {
            out.params.retain(|(k, _)| k != key);
            out.params.push((key.clone(), value.clone()));
        }
        for (key, value) in &self.insert {
            if out.get(key).is_none() {
                out.params.push((key.clone(), value.clone()));
            }
        }
        out
    }

    /// What a viewer shows of this material.
    pub fn shading(&self) -> Shading {
        let flag = |key: &str| self.get(key).and_then(number).is_some_and(|v| v != 0.0);
        let alpha_test = flag("$alphatest")
            .then(|| self.get("$alphatestreference").and_then(number).filter(|r| (0.0..=1.0).contains(r)))
            .map(|r| r.unwrap_or(0.5));
        Shading {
            iris_is_base: self.shader.eq_ignore_ascii_case("eyerefract"),
            base_texture: self.get("$basetexture").filter(|t| !t.trim().is_empty()).map(str::to_owned),
            translucent: flag("$translucent"),
            alpha_test,
            additive: flag("$additive"),
            no_cull: flag("$nocull"),
            self_illum: flag("$selfillum"),
            env_map: self.get("$envmap").is_some_and(|e| !e.trim().is_empty() && e.trim() != "0"),
            color: self.get("$color").and_then(color).unwrap_or([1.0; 3]),
            color2: self.get("$color2").and_then(color).unwrap_or([1.0; 3]),
            bump_map: texture(self.get("$bumpmap")).or_else(|| texture(self.get("$normalmap"))),
            phong: flag("$phong").then(|| Phong {
                exponent: self.get("$phongexponent").and_then(number).filter(|e| *e > 0.0).unwrap_or(5.0),
                boost: self.get("$phongboost").and_then(number).unwrap_or(1.0),
                fresnel_ranges: self.get("$phongfresnelranges").and_then(color).unwrap_or([0.0, 0.5, 1.0]),
            }),
            light_warp: texture(self.get("$lightwarptexture")),
            iris: texture(self.get("$iris")),
        }
    }
}

/// A texture parameter's path, when it names one.
fn texture(value: Option<&str>) -> Option<String> {
    value.map(str::trim).filter(|t| !t.is_empty() && *t != "0").map(str::to_owned)
}

/// `$phong`'s parameters (`VertexLitGeneric`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Phong {
    /// `$phongexponent` (5 when not given).
    pub exponent: f32,
    /// `$phongboost` (1 when not given).
    pub boost: f32,
    /// `$phongfresnelranges`: the Fresnel term at the surface facing the eye, at 60° and at
    /// grazing (`[0 0.5 1]` when not given).
    pub fresnel_ranges: [f32; 3],
}

/// The parameters of a material a viewer draws with.
#[derive(Clone, Debug, PartialEq)]
pub struct Shading {
    /// `$basetexture`: a texture path under `materials/`, without `.vtf`.
    pub base_texture: Option<String>,
    /// `$translucent`: blended by the texture's alpha.
    pub translucent: bool,
    /// `$alphatest` with its `$alphatestreference` (0.5 when not given).
    pub alpha_test: Option<f32>,
    /// `$additive`.
    pub additive: bool,
    /// `$nocull`: both sides drawn.
    pub no_cull: bool,
    /// `$selfillum`.
    pub self_illum: bool,
    /// `$envmap` names a cube map: reflective.
    pub env_map: bool,
    /// `$color`, linear 0–1 (`[r g b]` as written, `{r g b}` divided by 255).
    pub color: [f32; 3],
    /// `$color2` (the model tint of `VertexLitGeneric`), the same way.
    pub color2: [f32; 3],
    /// `$bumpmap` (or `$normalmap`): a normal map's texture path.
    pub bump_map: Option<String>,
    /// `$phong` and its parameters.
    pub phong: Option<Phong>,
    /// `$lightwarptexture`: the texture that remaps the diffuse term.
    pub light_warp: Option<String>,
    /// `$iris` (the `Eyes` and `EyeRefract` shaders): the texture projected onto the eye.
    pub iris: Option<String>,
    /// The shader is `EyeRefract`, whose `$iris` is the whole eye (sclera round the iris) and
    /// which has no base texture of its own: the iris is drawn opaque.
    pub iris_is_base: bool,
}

fn number(text: &str) -> Option<f32> {
    text.trim().parse::<f32>().ok().filter(|v| v.is_finite())
}

/// `[r g b]` (0–1), `{r g b}` (0–255) or one number for all three.
fn color(text: &str) -> Option<[f32; 3]> {
    let t = text.trim();
    let (inner, scale) = if let Some(inner) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        (inner, 1.0)
    } else if let Some(inner) = t.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        (inner, 255.0)
    } else {
        let v = number(t)?;
        return Some([v; 3]);
    };
    let values: Vec<f32> = inner.split_whitespace().filter_map(number).collect();
    match values[..] {
        [r, g, b, ..] => Some([r / scale, g / scale, b / scale]),
        [v] => Some([v / scale; 3]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_a_viewer_shows() {
        let vmt = parse_vmt(
            br#""VertexLitGeneric" { "$basetexture" "models/a/skin" "$alphatest" "1"
                "$alphatestreference" "0.3" "$nocull" 1 "$color2" "{255 128 0}" "$envmap" "env_cubemap"
                "$selfillum" "1" }"#,
        )
        .unwrap();
        let s = vmt.shading();
        assert_eq!(s.base_texture.as_deref(), Some("models/a/skin"));
        assert_eq!(s.alpha_test, Some(0.3));
        assert!(s.no_cull && s.env_map && s.self_illum && !s.translucent && !s.additive);
        assert_eq!(s.color2, [1.0, 128.0 / 255.0, 0.0]);
        assert_eq!(s.color, [1.0; 3]);
        assert_eq!(
            (s.bump_map.as_deref(), s.phong, s.light_warp.as_deref(), s.iris.as_deref()),
            (None, None, None, None)
        );
        let shaded = parse_vmt(
            br#""VertexLitGeneric" { "$bumpmap" "models/a/skin_normal" "$phong" "1" "$phongexponent" "20"
                "$phongboost" "2" "$phongfresnelranges" "[0.2 0.6 1.1]" "$lightwarptexture" "models/lightwarp"
                "$iris" "models/eye_iris" }"#,
        )
        .unwrap()
        .shading();
        assert_eq!(shaded.bump_map.as_deref(), Some("models/a/skin_normal"));
        assert_eq!(shaded.phong, Some(Phong { exponent: 20.0, boost: 2.0, fresnel_ranges: [0.2, 0.6, 1.1] }));
        assert_eq!(shaded.light_warp.as_deref(), Some("models/lightwarp"));
        assert_eq!(shaded.iris.as_deref(), Some("models/eye_iris"));
        assert!(!shaded.iris_is_base);
        let eye = parse_vmt(br#""EyeRefract" { "$iris" "models/eye_iris" }"#).unwrap().shading();
        assert!(eye.iris_is_base && eye.base_texture.is_none());
        let defaults = parse_vmt(br#"VertexLitGeneric { $phong 1 $phongexponent -3 }"#).unwrap().shading();
        assert_eq!(
            defaults.phong,
            Some(Phong { exponent: 5.0, boost: 1.0, fresnel_ranges: [0.0, 0.5, 1.0] })
        );
        let plain =
            parse_vmt(br#"UnlitGeneric { $translucent 1 $additive 1 $color "[0.5 0.25 1]" $alphatest 1 }"#)
                .unwrap()
                .shading();
        assert!(plain.translucent && plain.additive);
        assert_eq!(plain.color, [0.5, 0.25, 1.0]);
        assert_eq!(plain.alpha_test, Some(0.5), "the default reference");
        assert_eq!(plain.base_texture, None);
    }

    #[test]
    fn a_patch_replaces_and_inserts() {
        let base = parse_vmt(br#""VertexLitGeneric" { "$basetexture" "a" "$color" "[1 0 0]" }"#).unwrap();
        let patch = parse_vmt(
            br#""patch" { "include" "materials/models/base.vmt" "replace" { "$basetexture" "b" }
                "insert" { "$color" "[0 1 0]" "$nocull" "1" } }"#,
        )
        .unwrap();
        assert_eq!(patch.include.as_deref(), Some("materials/models/base.vmt"));
        let out = patch.patched(&base);
        assert_eq!(out.shader, "VertexLitGeneric");
        assert_eq!(out.get("$basetexture"), Some("b"));
        assert_eq!(out.get("$color"), Some("[1 0 0]"), "insert keeps what is there");
        assert_eq!(out.get("$NoCull"), Some("1"));
    }

    #[test]
    fn malformed_materials_are_errors() {
        assert!(parse_vmt(b"").is_err());
        assert!(parse_vmt(b"\"shader\" \"value\"").unwrap_err().to_string().contains("no parameter block"));
        assert!(parse_vmt(b"shader { $color }").is_err());
    }
}
