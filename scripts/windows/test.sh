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
# 5. builds the Windows zip (scripts/package --target windows) and checks what it holds: one
#    folder with the six files, a GUI-subsystem studioview.exe and a console studioview.com that
#    passes output and exit status on;
# 6. runs the GUI smoke test (scripts/windows/smoke.sh) on the zip's studioview.exe: the viewer
#    opened as a double-click opens it, with default settings.
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
    || ! command -v Xvfb >/dev/null || ! command -v xdotool >/dev/null || ! command -v import >/dev/null \
    || ! command -v unzip >/dev/null; then
    $sudo apt-get update
    $sudo apt-get install -y --no-install-recommends gcc-mingw-w64-x86-64 wine wine64 xvfb xauth \
        xdotool imagemagick unzip mesa-vulkan-drivers libvulkan1
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

echo "+ scripts/package --target windows"
bash scripts/package --target windows
zip=$(ls -t dist/studioview-*-windows-x86_64.zip | head -1)
package=$root/target/wine/package
rm -rf "$package"
unzip -q "$zip" -d "$package"
folder=$package/$(basename "$zip" .zip)
contents=$(cd "$folder" && ls | sort | tr '\n' ' ')
expected="LICENSE-APACHE LICENSE-MIT README.md THIRD-PARTY-LICENSES.txt studioview.com studioview.exe "
[ "$contents" = "$expected" ] || { echo "the zip holds $contents, not $expected" >&2; exit 1; }
[ "$(ls "$package")" = "$(basename "$zip" .zip)" ] || { echo "the zip has more than its one folder" >&2; exit 1; }
echo "$zip: $(stat -c %s "$zip") bytes; studioview.exe $(stat -c %s "$folder/studioview.exe") bytes"

# The viewer is a GUI-subsystem program (no console window beside it), its launcher a console
# one: the PE optional header's Subsystem field, 2 for GUI and 3 for console.
pe_subsystem() {
    local pe
    pe=$(od -An -t u4 -j 60 -N 4 "$1" | tr -d ' ')
    od -An -t u2 -j $((pe + 92)) -N 2 "$1" | tr -d ' '
}
[ "$(pe_subsystem "$folder/studioview.exe")" = 2 ] || { echo "studioview.exe is not a GUI program" >&2; exit 1; }
[ "$(pe_subsystem "$folder/studioview.com")" = 3 ] || { echo "studioview.com is not a console program" >&2; exit 1; }
# The icon and the version information (Properties ▸ Details) are in both: a resource section
# holding the description and the crate's version.
version=$(basename "$zip" .zip | sed 's/^studioview-\(.*\)-windows-x86_64$/\1/')
for exe in "$folder/studioview.exe" "$folder/studioview.com"; do
    x86_64-w64-mingw32-objdump -h "$exe" | grep -q '\.rsrc' || { echo "$exe has no resources" >&2; exit 1; }
    strings -el "$exe" | grep -qx "studioview: a viewer for Valve studio models" \
        || { echo "$exe has no version information" >&2; exit 1; }
    strings -el "$exe" | grep -qx "$version" || { echo "$exe does not give version $version" >&2; exit 1; }
done
# The launcher passes on the arguments, the output and the exit status.
soldier_w=$(winepath -w "$(realpath ../shared/models/ns/soldier.mdl)")
wine "$folder/studioview.com" info "$soldier_w" | grep -q "79 sequences" \
    || { echo "the console launcher did not print the viewer's info" >&2; exit 1; }
status=0
wine "$folder/studioview.com" info 'Z:\no\such\model.mdl' 2>/dev/null || status=$?
[ "$status" = 1 ] || { echo "the console launcher gave status $status for a failed command, not 1" >&2; exit 1; }
echo "studioview.exe is a GUI program; studioview.com a console one that passes output and status on"

bash scripts/windows/smoke.sh "$folder/studioview.exe"
