#!/usr/bin/env bash
# The Windows viewer's smoke test under Wine, with default settings, as a user starts it: a .mdl
# is "double-clicked" (`wine start`, through a file association like the one "Open with" makes),
# the window must appear with the model's name in its title and the model drawn, and Alt+F4
# must close it with exit status 0.
#
# Usage: smoke.sh STUDIOVIEW.EXE [SCREENSHOT.png]. Needs DISPLAY (an X server) and WINEPREFIX
# (a prefix with bcryptprimitives.dll), as scripts/windows/test.sh sets them up.
set -euo pipefail
exe=$(realpath "$1")
cd "$(dirname "$0")/../.."
root=$PWD
work=$root/target/wine/smoke
shot=${2:-$work/viewer.png}
rm -rf "$work"
# A folder with a space, as Windows users' folders have.
mkdir -p "$work/My Models"
model="$work/My Models/soldier.mdl"
cp "$root/../shared/models/ns/soldier.mdl" "$model"

# The association a double-click follows: .mdl → studioview.mdl → "studioview.exe" "%1". (In
# HKCR: Wine 8 does not merge HKCU\Software\Classes, where Windows' "Open with" writes, into it.)
exe_w=$(winepath -w "$exe")
wine reg add 'HKCR\.mdl' /ve /d studioview.mdl /f >/dev/null
wine reg add 'HKCR\studioview.mdl\shell\open\command' /ve /d "\"$exe_w\" \"%1\"" /f >/dev/null

# The first visible window whose name matches $1, looked for until $2 seconds have passed. xdotool
# exits on X's BadWindow when a window it lists is destroyed before it reads its attributes (Wine
# makes and destroys windows while a program starts; CI's run failed so with `search --sync`), so
# each failed search is only tried again.
find_window() {
    local deadline=$(($(date +%s) + $2)) found
    while [ "$(date +%s)" -lt "$deadline" ]; do
        found=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -1) || true
        if [ -n "$found" ]; then
            echo "$found"
            return 0
        fi
        sleep 0.5
    done
    return 1
}

echo "+ wine start /wait $model"
started=$(date +%s.%N)
wine start /wait /unix "$model" &
viewer=$!
fail() {
    echo "smoke test: $*" >&2
    import -window root "$shot" 2>/dev/null && echo "screenshot: $shot" >&2
    kill "$viewer" 2>/dev/null || true
    exit 1
}

window=$(find_window 'soldier' 120) \
    || fail "no window named after the model within 120 s"
shown=$(date +%s.%N)
echo "window $window: $(xdotool getwindowname "$window" 2>/dev/null || echo '(gone)')"
echo "window appeared after $(awk -v a="$started" -v b="$shown" 'BEGIN {printf "%.1f", b - a}') s"

# Wait for the model: the viewport's middle holds more than the background's few colours once
# the mesh is drawn (software rendering, first frames compile shaders).
colours=0
for _ in $(seq 60); do
    sleep 2
    import -window root "$shot"
    # A window Wine replaced is looked for again by its name.
    if ! geometry=$(xdotool getwindowgeometry --shell "$window" 2>/dev/null); then
        window=$(find_window 'soldier' 10) || true
        continue
    fi
    eval "$geometry"
    # The viewport is left of the side panel: its middle is a little left of the window's.
    cx=$((X + WIDTH * 2 / 5))
    cy=$((Y + HEIGHT / 2))
    colours=$(convert "$shot" -crop "200x200+$((cx - 100))+$((cy - 100))" +repage -format %k info:)
    [ "$colours" -gt 50 ] && break
done
echo "viewport middle: $colours colours; screenshot: $shot"
[ "$colours" -gt 50 ] || fail "the viewport shows no model ($colours colours in its middle)"
total=$(convert "$shot" -format %k info:)
echo "whole screen: $total colours"

for _ in $(seq 5); do
    xdotool windowfocus --sync "$window" 2>/dev/null || true
    xdotool key --window "$window" alt+F4 2>/dev/null && break
    sleep 1
    window=$(find_window 'soldier' 10) || fail "the viewer's window went away before Alt+F4"
done
status=0
if ! timeout 60 tail --pid="$viewer" -f /dev/null; then
    fail "the viewer did not exit within 60 s of Alt+F4"
fi
wait "$viewer" || status=$?
[ "$status" -eq 0 ] || fail "the viewer exited with status $status"
echo "the viewer closed cleanly (status 0)"

# Started with no console (as from Explorer or a shortcut), a refused command line is shown in a
# message box, and the exit status is clap's usage error's, 2.
echo "+ wine start /wait studioview.exe --no-such-option"
wine start /wait /unix "$exe" --no-such-option &
refused=$!
box=$(find_window '^studioview$' 60) \
    || { viewer=$refused; fail "no message box within 60 s for a refused command line"; }
import -window root "$work/message-box.png"
echo "message box $box; screenshot: $work/message-box.png"
# Wine may show the box through a window it then replaces: a window found first can be gone by
# the time a key is sent to it (X's BadWindow). Send Return to the box as it is now, again if
# the window went away.
for _ in $(seq 10); do
    box=$(xdotool search --onlyvisible --name '^studioview$' 2>/dev/null | tail -1) || true
    if [ -n "$box" ]; then
        xdotool windowfocus --sync "$box" 2>/dev/null || true
        xdotool key --window "$box" Return 2>/dev/null && break
    fi
    sleep 1
done
status=0
timeout 30 tail --pid="$refused" -f /dev/null || { viewer=$refused; fail "the message box did not close on Return"; }
wait "$refused" || status=$?
[ "$status" -eq 2 ] || fail "a refused command line exited with status $status, not 2"
echo "the refusal was shown in a message box; exit status 2"
