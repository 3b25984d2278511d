//! What the rendering tests share.

use studio_render::GpuContext;

/// A GPU context, or `None` (with a note) outside CI when there is no adapter. CI installs
/// Mesa, so there the lack of one fails.
pub fn context() -> Option<GpuContext> {
    match GpuContext::headless() {
        Ok(context) => Some(context),
        Err(e) if std::env::var_os("CI").is_none() => {
            eprintln!("note: no graphics adapter ({e}); skipping the rendering tests");
            None
        }
        Err(e) => panic!("CI must be able to render: {e}"),
    }
}
