//! The working poses of a bone setup: every bone's local position and rotation
//! ([`LocalPose`]), and the poses, matrices and lock records an evaluation borrows and gives back
//! ([`Scratch`]), so that once warm it allocates nothing.

use glam::{Affine3A, Quat, Vec3};
use studio_source::SourceModel;

/// Local positions and rotations of every bone.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalPose {
    /// Positions relative to the parent.
    pub positions: Vec<Vec3>,
    /// Rotations relative to the parent.
    pub rotations: Vec<Quat>,
}

impl LocalPose {
    /// Every bone at its default.
    pub fn defaults(model: &SourceModel) -> Self {
        let mut pose = Self { positions: Vec::new(), rotations: Vec::new() };
        pose.set_defaults(model);
        pose
    }

    /// Every bone back to its default, in the room the pose already has.
    pub fn set_defaults(&mut self, model: &SourceModel) {
        self.positions.clear();
        self.positions.extend(model.bones.iter().map(|b| b.position));
        self.rotations.clear();
        self.rotations.extend(model.bones.iter().map(|b| b.quaternion));
    }

    /// This pose made a copy of `other`, in the room it already has.
    pub fn copy_from(&mut self, other: &LocalPose) {
        self.positions.clear();
        self.positions.extend_from_slice(&other.positions);
        self.rotations.clear();
        self.rotations.extend_from_slice(&other.rotations);
    }
}

/// Poses, matrices and lock records a pose evaluation borrows and gives back: once the first
/// poses have been evaluated, evaluating allocates nothing.
#[derive(Debug, Default)]
pub struct Scratch {
    poses: Vec<LocalPose>,
    matrices: Vec<Vec<Affine3A>>,
    locks: Vec<Vec<crate::ik_lock::Recorded>>,
}

impl Scratch {
    /// A pose at the defaults.
    pub(crate) fn pose(&mut self, model: &SourceModel) -> LocalPose {
        let mut pose = self.poses.pop().unwrap_or(LocalPose { positions: Vec::new(), rotations: Vec::new() });
        pose.set_defaults(model);
        pose
    }

    /// A pose back.
    pub(crate) fn give(&mut self, pose: LocalPose) {
        self.poses.push(pose);
    }

    /// An empty list of matrices.
    pub(crate) fn matrices(&mut self) -> Vec<Affine3A> {
        let mut m = self.matrices.pop().unwrap_or_default();
        m.clear();
        m
    }

    /// A list of matrices back.
    pub(crate) fn give_matrices(&mut self, m: Vec<Affine3A>) {
        self.matrices.push(m);
    }

    /// An empty list of lock records.
    pub(crate) fn locks(&mut self) -> Vec<crate::ik_lock::Recorded> {
        let mut l = self.locks.pop().unwrap_or_default();
        l.clear();
        l
    }

    /// A list of lock records back.
    pub(crate) fn give_locks(&mut self, l: Vec<crate::ik_lock::Recorded>) {
        self.locks.push(l);
    }
}
