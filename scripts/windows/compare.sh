#!/usr/bin/env bash
# The Windows build's `info`, `pose`, `export` and `render` against the Linux build's, byte for
# byte and pixel for pixel: both test-profile builds, as the tests left them in target/. Needs ../shared,
# and DISPLAY and WINEPREFIX as scripts/windows/test.sh sets them up.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
target=x86_64-pc-windows-gnu
echo "+ the Windows build's info, pose, export and render against Linux's"
linux=$root/target/debug/studioview
windows=$root/target/$target/debug/studioview.exe
# Both built by the tests (cargo places each test run's binaries there).
for exe in "$linux" "$windows"; do
    [ -x "$exe" ] || { echo "$exe is missing: run the Linux and Windows tests first" >&2; exit 1; }
done
out=$root/target/wine/compare
rm -rf "$out"
mkdir -p "$out/linux" "$out/windows"
# Each build is given its own system's paths: `Z:\work\...` for Windows (Wine's drive for /),
# and the Windows output is read back with `/` for the comparison.
shared=$(realpath "$root/../shared")
soldier=$shared/models/ns/soldier.mdl
anim48=$shared/fixtures/source/models/fixture/anim48.mdl
windows_args() {
    local arg
    for arg in "$@"; do
        case $arg in
            /*) winepath -w "$arg" ;;
            *) printf '%s\n' "$arg" ;;
        esac
    done
}
unix_paths() {
    sed -e 's#Z:\\\\#/#g' -e 's#\\\\#/#g' -e 's#Z:\\#/#g' -e 's#\\#/#g'
}
run_both() {
    local name=$1
    shift
    "$linux" "$@" >"$out/linux/$name"
    local args=()
    mapfile -t args < <(windows_args "$@")
    wine "$windows" "${args[@]}" | unix_paths >"$out/windows/$name"
    if ! cmp -s "$out/linux/$name" "$out/windows/$name"; then
        echo "the Windows build's output differs from Linux's: studioview $*" >&2
        diff "$out/linux/$name" "$out/windows/$name" | head -20 >&2 || true
        exit 1
    fi
}
run_both soldier.info info "$soldier"
run_both soldier.json info --json "$soldier"
run_both anim48.info info "$anim48"
run_both soldier.pose pose "$soldier" --seq 3 --frame 4.5
run_both anim48.pose pose "$anim48" --seq 1 --cycle 0.25
# Exports: the Windows build's .glb against the Linux build's. The JSON chunk (the whole scene,
# accessors' bounds included) must be the same bytes, and so must the file's size. The binary
# chunk may differ in the last bits of some floats: Source rotations are converted with the C
# library's sin and cos, and mingw's are not glibc's (anim48: 400 of 246,696 bytes, found here).
# The Khronos validator, which tests/export.rs cannot start under Wine, checks the Windows file.
export_both() {
    local name=$1 model=$2
    local a=$out/linux/$name.glb b=$out/windows/$name.glb
    "$linux" export "$model" --out "$a" >/dev/null 2>&1
    wine "$windows" export "$(winepath -w "$model")" --out "$(winepath -w "$b")" >/dev/null 2>&1
    local json
    json=$(od -An -t u4 -j 12 -N 4 "$a" | tr -d ' ')
    if [ "$(stat -c %s "$a")" != "$(stat -c %s "$b")" ] || ! cmp -s -n $((20 + json)) "$a" "$b"; then
        echo "the Windows build's export of $name differs from Linux's in size or scene" >&2
        exit 1
    fi
    local differing
    differing=$(cmp -l "$a" "$b" | wc -l || true)
    node scripts/validate-gltf.cjs "$b" | head -1
    node scripts/validate-gltf.cjs "$b" >/dev/null || { echo "the Windows export of $name is invalid" >&2; exit 1; }
    echo "export $name: the same scene and size ($(stat -c %s "$a") bytes); $differing bytes of float data differ"
}
export_both soldier "$soldier"
export_both anim48 "$anim48"

render_both() {
    local name=$1 model=$2
    shift 2
    "$linux" render "$model" --out "$out/linux/$name.png" --size 320x240 "$@"
    wine "$windows" render "$(winepath -w "$model")" --out "$(winepath -w "$out/windows/$name.png")" \
        --size 320x240 "$@"
    local differing drawn
    differing=$(compare -metric AE "$out/linux/$name.png" "$out/windows/$name.png" null: 2>&1 || true)
    # Not two blank images: the model covers part of the picture.
    drawn=$(convert "$out/windows/$name.png" -format %k info:)
    echo "render $name: $differing pixels of 320x240 differ; $drawn colours"
    if [ "$differing" != "0" ] || [ "$drawn" -lt 50 ]; then
        echo "the Windows build's render of $name differs from Linux's, or shows nothing" >&2
        exit 1
    fi
}
render_both soldier "$soldier" --seq 3 --frame 4.5
render_both anim48 "$anim48" --seq walk --cycle 0.25 --show mesh,skeleton,hitboxes
echo "info, pose, export and render agree"

