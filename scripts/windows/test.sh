#!/usr/bin/env bash
# The Windows build, tested on Linux as CI does it (.ci/run calls this after the Linux tests):
#
# 1. installs mingw-w64 (the linker), Wine, Xvfb, xdotool and ImageMagick, and adds the target;
# 2. sets up a Wine prefix in target/wine with the test-only bcryptprimitives.dll stub
#    (scripts/windows/bcryptprimitives.c: Wine 8 lacks the DLL Rust's std needs);
# 3. runs every test of the workspace for x86_64-pc-windows-gnu under Wine, on an Xvfb display
#    (Wine's Vulkan reaches Mesa's lavapipe through X);
# 4. compares `info`, `pose` and `render` of the Windows build with the Linux one (both the test
#    profile's, which step 3 and the Linux tests built);
# 5. runs the GUI smoke test (scripts/windows/smoke.sh): the viewer opened as a double-click
#    opens it, with default settings.
#
# Needs ../shared (the fixtures and models), as the Linux tests do.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
target=x86_64-pc-windows-gnu

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
if ! command -v wine >/dev/null || ! command -v x86_64-w64-mingw32-gcc >/dev/null \
    || ! command -v Xvfb >/dev/null || ! command -v xdotool >/dev/null || ! command -v import >/dev/null; then
    $sudo apt-get update
    $sudo apt-get install -y --no-install-recommends gcc-mingw-w64-x86-64 wine wine64 xvfb xauth \
        xdotool imagemagick mesa-vulkan-drivers libvulkan1
fi
rustup target add "$target" >/dev/null

# The Wine prefix, made once and kept in target/ (about 10 s to make).
mkdir -p target/wine
export WINEPREFIX=$root/target/wine/prefix
export WINEDEBUG=-all
# No Mono or Gecko: Wine would offer to download them.
export WINEDLLOVERRIDES="mscoree,mshtml="
x86_64-w64-mingw32-gcc -shared -O2 -o target/wine/bcryptprimitives.dll \
    scripts/windows/bcryptprimitives.c -ladvapi32
if [ ! -d "$WINEPREFIX/drive_c/windows/system32" ]; then
    wineboot --init >/dev/null 2>&1 || true
    wineserver -w
fi
cp target/wine/bcryptprimitives.dll "$WINEPREFIX/drive_c/windows/system32/"

# A display for Wine's Vulkan (and the smoke test's window).
display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1600x1000x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
cleanup() {
    wineserver -k >/dev/null 2>&1 || true
    kill "$xvfb" 2>/dev/null || true
}
trap cleanup EXIT
export DISPLAY=$display
for _ in $(seq 50); do
    xdpyinfo >/dev/null 2>&1 && break
    [ -e "/tmp/.X11-unix/X${display#:}" ] && break
    sleep 0.1
done

echo "+ cargo test --workspace --target $target (under Wine)"
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine
cargo test --workspace --target "$target"

bash scripts/windows/compare.sh
bash scripts/windows/smoke.sh "$root/target/$target/debug/studioview.exe"
