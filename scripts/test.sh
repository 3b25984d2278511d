#!/usr/bin/env bash
# Installs what the tests need on Debian — Mesa's software Vulkan (lavapipe), so the rendering
# tests draw without a GPU, and its OpenGL through EGL for the OpenGL fallback's test; Node.js and
# the Khronos glTF-Validator (npm's gltf-validator, into target/gltf-validator) for the export
# test — and runs every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update
# libasound2-dev: ALSA, which the sound output (cpal) links against on Linux. xvfb: the viewer's
# window shown through X11 shared memory is read back from a virtual screen (x11_present.rs).
$sudo apt-get install -y --no-install-recommends mesa-vulkan-drivers libvulkan1 libegl1 libegl-mesa0 libgl1-mesa-dri \
    nodejs libasound2-dev pkg-config xvfb
# Debian's nodejs comes without npm; other builds of it (NodeSource's) bring their own and
# conflict with Debian's npm package.
if ! command -v npm >/dev/null; then
    $sudo apt-get install -y --no-install-recommends npm
fi
npm install --prefix target/gltf-validator --no-audit --no-fund --loglevel=error gltf-validator@2.0.0-dev.3.10

# Mesa complains without a runtime directory.
if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -d "$XDG_RUNTIME_DIR" ]; then
    XDG_RUNTIME_DIR=$(mktemp -d)
    export XDG_RUNTIME_DIR
fi

cargo test --workspace
