//! The source files Valve's studiomdl compiles a model from, as a decompiler writes them and
//! reads them back: SMD text and its `.vta` variant of flex shapes ([`smd`], [`smd_read`]) and 8-bit paletted bitmaps ([`bmp`]).
//!
//! Readers take any bytes without panicking: every count is bounded by the input and every
//! index checked, and a bad file gives an error naming its line.

#![forbid(unsafe_code)]

pub mod bmp;
pub mod smd;
pub mod smd_read;

pub use smd::{BoneKey, Corner, Frame, Node, ShapeFrame, ShapeVertex, Smd, Triangle};
pub use smd_read::{SmdError, read};
