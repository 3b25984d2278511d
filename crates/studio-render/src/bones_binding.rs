//! How the mesh shader reads the bones' skinning matrices (`Bones` in `shaders/mesh.wgsl`): a
//! read-only storage buffer wherever the device allows one in vertex shaders (every Vulkan,
//! Metal and Direct3D 12 device; `mesh.wgsl` says why it is preferred there), else a uniform
//! buffer. OpenGL ES-class devices have no storage buffers in vertex shaders: wgpu's OpenGL
//! backend, the window's fallback where no Vulkan driver is installed, reports none on Mesa's
//! llvmpipe, and a storage binding there was refused and ended the viewer at its first frame.
//! The 256 matrices take 16 KiB, the smallest uniform binding size every device offers.

use crate::context::GpuContext;
use crate::gpu_types::BonesBuffer;
use crate::shaders;

/// The bones' binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BonesBinding {
    /// `var<storage, read>`.
    Storage,
    /// `var<uniform>`.
    Uniform,
}

impl BonesBinding {
    /// The binding `context`'s device allows: storage where its vertex shaders may read one.
    pub fn of(context: &GpuContext) -> Self {
        let downlevel = context.adapter.get_downlevel_capabilities();
        let vertex_storage = downlevel.flags.contains(wgpu::DownlevelFlags::VERTEX_STORAGE)
            && context.device.limits().max_storage_buffers_per_shader_stage >= 1;
        if vertex_storage { Self::Storage } else { Self::Uniform }
    }

    /// The binding type of the frame bind group's entry 1.
    pub fn binding_type(self) -> wgpu::BufferBindingType {
        match self {
            Self::Storage => wgpu::BufferBindingType::Storage { read_only: true },
            Self::Uniform => wgpu::BufferBindingType::Uniform,
        }
    }

    /// The usage a bones buffer needs.
    pub fn usage(self) -> wgpu::BufferUsages {
        match self {
            Self::Storage => wgpu::BufferUsages::STORAGE,
            Self::Uniform => wgpu::BufferUsages::UNIFORM,
        }
    }

    /// The mesh shader's source with this binding.
    pub fn mesh_source(self) -> std::borrow::Cow<'static, str> {
        match self {
            Self::Storage => shaders::MESH.into(),
            Self::Uniform => shaders::mesh_with_uniform_bones().into(),
        }
    }
}

// A uniform binding of the bones must fit the smallest maximum every device has.
const _: () = assert!(size_of::<BonesBuffer>() <= 16384);
