//! Collects the non-fatal problems found while parsing.

use crate::error::{Place, Warning, WarningKind};

/// Warnings gathered during one parse, in the order found.
#[derive(Default)]
pub(crate) struct Warnings(pub(crate) Vec<Warning>);

impl Warnings {
    pub(crate) fn push(&mut self, place: Place, kind: WarningKind) {
        self.0.push(Warning { place: Some(place), kind });
    }

    pub(crate) fn push_general(&mut self, kind: WarningKind) {
        self.0.push(Warning { place: None, kind });
    }
}
