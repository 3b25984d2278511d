//! The flex controllers of a Source model grouped as the model names them, for the Flex panel:
//! first each UI control (`mstudioflexcontrollerui_t`, `docs/flex.md`) with its controllers
//! (a stereo one's left and right, an n-way one's value), then the controllers no UI control
//! names, a `left_X` and a `right_X` together as `X`, the rest alone, in the model's order.

use studio_source::Flexes;

/// One group of sliders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlexGroup {
    /// What the group is called: the UI control's name, or the pair's common name.
    pub name: String,
    /// Its controllers: a label for each slider ("left", "right", "value", or the controller's
    /// name when alone) and the controller's index.
    pub sliders: Vec<(String, usize)>,
}

/// The groups of `flexes`' controllers; every controller is in exactly one.
pub fn flex_groups(flexes: &Flexes) -> Vec<FlexGroup> {
    let count = flexes.controllers.len();
    let mut placed = vec![false; count];
    let mut groups = Vec::new();
    for ui in &flexes.ui {
        let labels: &[&str] = if ui.stereo { &["left", "right", "value"] } else { &["", "", "value"] };
        let mut sliders = Vec::new();
        for (slot, label) in ui.controllers.iter().zip(labels) {
            let Some(c) = slot.filter(|&c| c < count && !placed[c]) else { continue };
            placed[c] = true;
            let label =
                if label.is_empty() { flexes.controllers[c].name.clone() } else { (*label).to_owned() };
            sliders.push((label, c));
        }
        if !sliders.is_empty() {
            groups.push(FlexGroup { name: ui.name.clone(), sliders });
        }
    }
    for c in 0..count {
        if placed[c] {
            continue;
        }
        placed[c] = true;
        let name = &flexes.controllers[c].name;
        let partner = |prefix: &str, other: &str| {
            let rest = name.strip_prefix(prefix)?;
            let want = format!("{other}{rest}");
            let p = (0..count).find(|&p| !placed[p] && flexes.controllers[p].name == want)?;
            Some((rest.to_owned(), p))
        };
        if let Some((rest, right)) = partner("left_", "right_") {
            placed[right] = true;
            groups.push(FlexGroup { name: rest, sliders: vec![("left".into(), c), ("right".into(), right)] });
        } else if let Some((rest, left)) = partner("right_", "left_") {
            placed[left] = true;
            groups.push(FlexGroup { name: rest, sliders: vec![("left".into(), left), ("right".into(), c)] });
        } else {
            groups.push(FlexGroup { name: name.clone(), sliders: vec![(name.clone(), c)] });
        }
    }
    groups
}

/// Whether a group matches a search: its name or any of its controllers' names contains
/// `needle` (lower case), or the needle is empty.
pub fn group_matches(flexes: &Flexes, group: &FlexGroup, needle: &str) -> bool {
    needle.is_empty()
        || group.name.to_lowercase().contains(needle)
        || group
            .sliders
            .iter()
            .any(|&(_, c)| flexes.controllers.get(c).is_some_and(|f| f.name.to_lowercase().contains(needle)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use studio_source::{FlexController, FlexControllerUi, RemapType};

    fn controller(name: &str) -> FlexController {
        FlexController { name: name.into(), kind: "default".into(), min: 0.0, max: 1.0 }
    }

    #[test]
    fn ui_controls_first_then_left_right_pairs_then_the_rest() {
        let names =
            ["jaw_drop", "left_smile", "right_smile", "right_blink", "left_blink", "blink", "right_only"];
        let flexes = Flexes {
            controllers: names.iter().map(|n| controller(n)).collect(),
            ui: vec![
                FlexControllerUi {
                    name: "smile".into(),
                    controllers: [Some(1), Some(2), None],
                    remap: RemapType::PassThrough,
                    stereo: true,
                },
                // A control naming a controller past the list is passed over.
                FlexControllerUi {
                    name: "broken".into(),
                    controllers: [Some(99), None, None],
                    remap: RemapType::PassThrough,
                    stereo: false,
                },
            ],
            ..Flexes::default()
        };
        let groups = flex_groups(&flexes);
        let shape: Vec<(&str, Vec<(&str, usize)>)> = groups
            .iter()
            .map(|g| (g.name.as_str(), g.sliders.iter().map(|(l, c)| (l.as_str(), *c)).collect()))
            .collect();
        assert_eq!(
            shape,
            [
                ("smile", vec![("left", 1), ("right", 2)]),
                ("jaw_drop", vec![("jaw_drop", 0)]),
                ("blink", vec![("left", 4), ("right", 3)]),
                ("blink", vec![("blink", 5)]),
                ("right_only", vec![("right_only", 6)]),
            ]
        );
        let all: usize = groups.iter().map(|g| g.sliders.len()).sum();
        assert_eq!(all, names.len(), "every controller once");
        assert!(group_matches(&flexes, &groups[2], "blink") && !group_matches(&flexes, &groups[0], "jaw"));
        assert!(group_matches(&flexes, &groups[0], "right_smile") && group_matches(&flexes, &groups[0], ""));
    }
}
