//! studioview patch: a software adapter's window picture shown through X11 shared memory.
//!
//! On X11, the software Vulkan driver of Mesa 22.3 (lavapipe) presents a frame by copying the
//! whole swapchain image and writing it to the X server through the socket (`xcb_put_image`),
//! 4 MB a frame for a 1280×800 window, although only the rectangles [`crate::retained`]
//! redrew changed. [`ShmPresenter`] shows the retained picture instead: each frame it copies
//! the damaged rectangles into a buffer the processor can read (the *mirror*, which holds the
//! whole picture from frame to frame), then from there into a MIT-SHM image (softbuffer's X11
//! surface, which keeps its pixels between presents) and asks the server to copy those
//! rectangles to the window. The swapchain is not acquired while it shows the window.
//!
//! Without a compositor the X server does not keep a covered window's pixels: when they are
//! uncovered the window is asked to paint, and a frame that changed nothing shows the whole
//! shared image (the server copies it; the client copies nothing more). While frames keep
//! changing, the whole image is also shown four times a second.
//!
//! It is used only for a processor adapter ([`wgpu::DeviceType::Cpu`]) on X11, with a picture
//! in `Bgra8Unorm` (the byte order of the 32-bit pixels softbuffer takes on a little-endian
//! machine), and not when `EGUI_WGPU_SHM_PRESENT=0`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::mirror::Mirror;
use crate::retained::{PixelRect, RetainedTarget};

/// Whether the last present of this process's windows went through shared memory.
static PRESENTING: AtomicBool = AtomicBool::new(false);

/// Whether the window is shown through shared memory: set by each present, cleared when the
/// painter falls back to the swapchain.
pub fn presenting() -> bool {
    PRESENTING.load(Ordering::Relaxed)
}

/// What the mirror's buffer mapping reported, kept from frame to frame.
type MapSlot = Arc<std::sync::Mutex<Option<Result<(), wgpu::BufferAsyncError>>>>;

/// Shows a window's retained picture through softbuffer's shared-memory X11 surface. Its
/// lists are kept and refilled, so that a frame allocates none of its own.
pub struct ShmPresenter {
    surface: Surface,
    mirror: Mirror,
    /// Whether the shared image holds the mirror's last picture, so that only what changed need
    /// be copied to it.
    shown: bool,
    /// When the whole image was last shown.
    last_whole: Option<Instant>,
    /// The rectangles asked of the server this frame.
    damage: Vec<softbuffer::Rect>,
    mapped: MapSlot,
}

/// How often the whole image is shown while frames keep changing only parts of it.
const WHOLE_EVERY: Duration = Duration::from_millis(250);

impl ShmPresenter {
    /// A presenter for `window`, when the adapter and the window allow one (see the module's
    /// documentation); `None` otherwise.
    pub fn new(
        window: &Arc<winit::window::Window>,
        adapter: &wgpu::AdapterInfo,
        format: wgpu::TextureFormat,
    ) -> Option<Self> {
        use raw_window_handle::{HasDisplayHandle as _, RawDisplayHandle};
        if std::env::var_os("EGUI_WGPU_SHM_PRESENT").is_some_and(|v| v == "0")
            || adapter.device_type != wgpu::DeviceType::Cpu
            || format.remove_srgb_suffix() != wgpu::TextureFormat::Bgra8Unorm
            || cfg!(target_endian = "big")
        {
            return None;
        }
        let x11 = matches!(
            window.display_handle().ok()?.as_raw(),
            RawDisplayHandle::Xlib(_) | RawDisplayHandle::Xcb(_)
        );
        if !x11 {
            return None;
        }
        let context = softbuffer::Context::new(Arc::clone(window))
            .map_err(|err| log::info!("No shared-memory present: {err}"))
            .ok()?;
        let surface = softbuffer::Surface::new(&context, Arc::clone(window))
            .map_err(|err| log::info!("No shared-memory present: {err}"))
            .ok()?;
        log::debug!("The window's picture is shown through X11 shared memory");
        Some(Self {
            surface,
            mirror: Mirror::default(),
            shown: false,
            last_whole: None,
            damage: Vec::new(),
            mapped: MapSlot::default(),
        })
    }

    /// Records the copy of what `retained`'s last paint drew into the mirror
    /// ([`Mirror::record`]); [`Self::present`] shows it after the submission. The retained
    /// target should leave its pictures to the mirror
    /// ([`RetainedTarget::defer_pictures`]): they are then copied once, not twice.
    pub fn copy(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        retained: &RetainedTarget,
    ) {
        if self.mirror.record(device, encoder, retained) {
            self.shown = false;
        }
    }

    /// The next present copies the whole picture (after the window was shown another way).
    pub fn invalidate(&mut self) {
        self.shown = false;
    }

    /// Waits for the submitted copy, then shows what it copied. An error means the window
    /// was not updated; the caller should present another way from then on.
    pub fn present(&mut self, device: &wgpu::Device) -> Result<(), String> {
        self.present_mirror(device)
            .inspect_err(|_| PRESENTING.store(false, Ordering::Relaxed))
    }

    fn present_mirror(&mut self, device: &wgpu::Device) -> Result<(), String> {
        let Self {
            surface,
            mirror,
            shown,
            last_whole,
            damage,
            mapped,
        } = self;
        let Some(buffer) = mirror.buffer() else {
            return Ok(());
        };
        let (Some(width), Some(height)) = (
            core::num::NonZeroU32::new(mirror.size()[0]),
            core::num::NonZeroU32::new(mirror.size()[1]),
        ) else {
            return Ok(());
        };
        let slice = buffer.slice(..);
        let result = Arc::clone(mapped);
        slice.map_async(wgpu::MapMode::Read, move |r| {
            if let Ok(mut slot) = result.lock() {
                *slot = Some(r);
            }
        });
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|err| format!("waiting for the window's picture: {err}"))?;
        let outcome = mapped.lock().ok().and_then(|mut slot| slot.take());
        match outcome {
            Some(Ok(())) => {}
            Some(Err(err)) => return Err(format!("reading the window's picture: {err}")),
            None => return Err("the window's picture was not mapped".to_owned()),
        }
        let result = match slice.get_mapped_range() {
            Ok(view) => show(
                surface,
                mirror,
                *shown,
                (last_whole, damage),
                &view,
                [width, height],
            ),
            Err(err) => Err(format!("reading the window's picture: {err}")),
        };
        buffer.unmap();
        *shown = result?;
        PRESENTING.store(true, Ordering::Relaxed);
        Ok(())
    }
}

type Surface = softbuffer::Surface<Arc<winit::window::Window>, Arc<winit::window::Window>>;

/// Copies the rectangles of the mirror's picture that changed (all of it when the shared image
/// does not hold the last picture: `shown` false) from `bytes`, the mapped mirror, to the shared
/// image and presents them, filling `damage` with what it asks of the server. Whether the shared
/// image now holds the picture.
fn show(
    surface: &mut Surface,
    mirror: &Mirror,
    shown: bool,
    (last_whole, damage): (&mut Option<Instant>, &mut Vec<softbuffer::Rect>),
    bytes: &[u8],
    [width, height]: [core::num::NonZeroU32; 2],
) -> Result<bool, String> {
    surface
        .resize(width, height)
        .map_err(|err| format!("sizing the shared image: {err}"))?;
    let mut buffer = surface
        .buffer_mut()
        .map_err(|err| format!("the shared image: {err}"))?;
    let whole = PixelRect {
        min: [0, 0],
        max: mirror.size(),
    };
    let rects = if shown && buffer.age() != 0 {
        mirror.changed()
    } else {
        std::slice::from_ref(&whole)
    };
    copy_rects(
        bytes,
        mirror.bytes_per_row() as usize,
        &mut buffer,
        mirror.size()[0] as usize,
        rects,
    );
    // Without a compositor, a window that was covered and uncovered has lost those pixels and
    // is asked to paint again: a frame that changed nothing shows the whole image (which holds
    // the whole picture), and so does a frame every `WHOLE_EVERY` while frames keep changing.
    let now = Instant::now();
    let whole_due = rects.is_empty() || last_whole.is_none_or(|at| now.duration_since(at) >= WHOLE_EVERY);
    let shown_rects = if whole_due {
        *last_whole = Some(now);
        std::slice::from_ref(&whole)
    } else {
        rects
    };
    damage.clear();
    damage.extend(shown_rects.iter().filter_map(|rect| {
        Some(softbuffer::Rect {
            x: rect.min[0],
            y: rect.min[1],
            width: core::num::NonZeroU32::new(rect.max[0] - rect.min[0])?,
            height: core::num::NonZeroU32::new(rect.max[1] - rect.min[1])?,
        })
    }));
    buffer
        .present_with_damage(damage)
        .map_err(|err| format!("showing the shared image: {err}"))?;
    Ok(true)
}

/// Copies `rects` from `src` (`Bgra8Unorm` rows of `pitch` bytes) into `dst` (rows of `width`
/// 0RGB pixels), each pixel's top byte cleared as softbuffer asks.
pub fn copy_rects(src: &[u8], pitch: usize, dst: &mut [u32], width: usize, rects: &[PixelRect]) {
    for rect in rects {
        let (x0, x1) = (rect.min[0] as usize, rect.max[0] as usize);
        for y in rect.min[1] as usize..rect.max[1] as usize {
            let (Some(from), Some(to)) = (
                src.get(y * pitch + x0 * 4..y * pitch + x1 * 4),
                dst.get_mut(y * width + x0..y * width + x1),
            ) else {
                return;
            };
            // As 32-bit words where the row is aligned for them (always, from a mapped buffer):
            // the loop then compiles to vector instructions.
            match bytemuck::try_cast_slice::<u8, u32>(from) {
                Ok(words) => {
                    for (pixel, word) in to.iter_mut().zip(words) {
                        *pixel = u32::from_le(*word) & 0x00FF_FFFF;
                    }
                }
                Err(_) => {
                    for (pixel, bgra) in to.iter_mut().zip(from.chunks_exact(4)) {
                        *pixel = u32::from_le_bytes([bgra[0], bgra[1], bgra[2], 0]);
                    }
                }
            }
        }
    }
}
