//! Bone merge: a model drawn on another (a `p_` weapon in a player's hand), as both engines do
//! it. Half-Life's `StudioMergeBones` (client, `StudioModelRenderer.cpp`): each bone of the
//! child whose name matches a bone of the parent (case ignored, `stricmp`) takes that bone's
//! world transform; any other bone keeps its own pose relative to its parent, which has been
//! merged first (a root keeps its own place). Source's bone merge (`CBoneMergeCache`) follows
//! the same rule by name.
//!
//! The child's own pose is evaluated as usual; [`BoneMerge::apply`] turns its world transforms
//! into merged ones without allocating.

use glam::Affine3A;

/// Which parent bone each child bone follows, and room for the child's own pose.
#[derive(Clone, Debug, Default)]
pub struct BoneMerge {
    /// For each child bone, the parent bone of the same name.
    matches: Vec<Option<usize>>,
    /// Each child bone's parent (`None` for a root).
    parents: Vec<Option<usize>>,
    own: Vec<Affine3A>,
}

impl BoneMerge {
    /// The merge of a child whose bones are `child` (name and parent, parents first) onto a
    /// parent whose bones are named `parent`.
    pub fn new<'a>(child: impl IntoIterator<Item = (&'a str, Option<usize>)>, parent: &[&str]) -> Self {
        let (matches, parents): (Vec<_>, Vec<_>) = child
            .into_iter()
            .map(|(name, up)| (parent.iter().position(|p| p.eq_ignore_ascii_case(name)), up))
            .unzip();
        let own = vec![Affine3A::IDENTITY; matches.len()];
        Self { matches, parents, own }
    }

    /// How many child bones follow a parent bone.
    pub fn matched(&self) -> usize {
        self.matches.iter().flatten().count()
    }

    /// Turns the child's world transforms `bones` (its own pose) into merged ones, the parent's
    /// bones being `parent` (world transforms).
    pub fn apply(&mut self, bones: &mut [Affine3A], parent: &[Affine3A]) {
        let n = bones.len().min(self.matches.len());
        self.own[..n].copy_from_slice(&bones[..n]);
        for i in 0..n {
            bones[i] = match (self.matches[i].and_then(|p| parent.get(p)), self.parents[i]) {
                (Some(matched), _) => *matched,
                // The bone's own place under its parent, the parent merged already.
                (None, Some(up)) if up < i => bones[up] * (self.own[up].inverse() * self.own[i]),
                (None, _) => self.own[i],
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};

    #[test]
    fn matching_bones_take_the_parents_and_others_follow_their_own_parent() {
        // Child: root "Bip01 R Hand" (matches), then "barrel" under it (no match).
        let mut merge =
            BoneMerge::new([("bip01 r hand", None), ("barrel", Some(0))], &["Bip01", "Bip01 R Hand"]);
        assert_eq!(merge.matched(), 1);
        let own_hand = Affine3A::from_translation(Vec3::new(1.0, 0.0, 0.0));
        let own_barrel = own_hand * Affine3A::from_translation(Vec3::new(0.0, 0.0, 5.0));
        let hand =
            Affine3A::from_rotation_translation(Quat::from_rotation_z(1.0), Vec3::new(10.0, 20.0, 30.0));
        let mut bones = [own_hand, own_barrel];
        merge.apply(&mut bones, &[Affine3A::IDENTITY, hand]);
        assert_eq!(bones[0], hand);
        let expected = hand * Affine3A::from_translation(Vec3::new(0.0, 0.0, 5.0));
        assert!(bones[1].abs_diff_eq(expected, 1e-5));
        // A parent with no bones of those names: the child as it is.
        let mut merge = BoneMerge::new([("a", None), ("b", Some(0))], &["x"]);
        let mut bones = [own_hand, own_barrel];
        merge.apply(&mut bones, &[hand]);
        assert_eq!(bones, [own_hand, own_barrel]);
    }
}
