//! What the renderer's benches share: one frame's CPU side, timed as the app makes it.

use std::time::{Duration, Instant};

use glam::Mat4;
use studio_render::scene::FramePose;
use studio_render::{GpuContext, GpuModel, OffscreenTarget, RenderOptions, Renderer};

/// Prepares and records one frame of `gpu` in `pose` and hands the staging buffers back, which
/// is timed; the submission and the wait for the device (lavapipe runs the GPU's side on the
/// CPU too) are not. Returns the time spent.
pub fn timed_frame(
    (context, target): (&GpuContext, &OffscreenTarget),
    renderer: &mut Renderer,
    gpu: &GpuModel,
    pose: &FramePose<'_>,
    (clip, view): (Mat4, Mat4),
    options: &RenderOptions,
) -> Duration {
    let started = Instant::now();
    let mut encoder = context.device.create_command_encoder(&Default::default());
    renderer.prepare(&mut encoder, gpu, pose, clip, view, options);
    target.pass(&mut encoder, options.background, |pass| renderer.draw(pass, gpu, options));
    renderer.finish(&encoder);
    let commands = encoder.finish();
    let spent = started.elapsed();
    context.queue.submit([commands]);
    let _ = context.device.poll(wgpu::PollType::Wait { submission_index: None, timeout: None });
    spent
}
