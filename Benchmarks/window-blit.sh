#!/usr/bin/env bash
# The windowed player against a whole-frame blit, in one run (issue 9): starts Xvfb on a free
# display, then, ROUNDS times (5 by default), runs blit-benchmark (the whole W×H frame with
# XShmPutImage + XSync, in a loop), `live-player arrow --fps max` in a W×H window with the overlay
# shown, and with it hidden. Prints each run, then the median FPS of each and the ratios.
# Usage: Benchmarks/window-blit.sh [--frames N] [--size WxH] [--rounds N]
#        PLAYER=/path/to/live-player Benchmarks/window-blit.sh ...   (another build)
set -euo pipefail
cd "$(dirname "$0")"
frames=600 size=1920x1080 rounds=5
while [[ $# -gt 0 ]]; do
    case "$1" in
        --frames) frames="$2"; shift 2 ;;
        --size) size="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        *) echo "usage: $0 [--frames N] [--size WxH] [--rounds N]" >&2; exit 64 ;;
    esac
done

export PKG_CONFIG_PATH="$PWD/.peers/blend2d${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"   # the package's other targets ask for it
swift build -c release --product blit-benchmark > /dev/null
blit="$(swift build -c release --show-bin-path)/blit-benchmark"
if [[ -z "${PLAYER:-}" ]]; then
    (cd .. && swift build -c release --product live-player > /dev/null)
    player="$(cd .. && swift build -c release --show-bin-path)/live-player"
else
    player="$PLAYER"
fi

display=""
for n in $(seq 140 199); do
    [[ -e /tmp/.X$n-lock || -e /tmp/.X11-unix/X$n ]] && continue
    display=":$n"; break
done
[[ -n "$display" ]] || { echo "no free X display" >&2; exit 69; }
Xvfb "$display" -screen 0 3840x2160x24 -nolisten tcp > /dev/null 2>&1 &
xvfb=$!
log=$(mktemp)
trap 'kill $xvfb 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 300); do xdpyinfo -display "$display" > /dev/null 2>&1 && break; sleep 0.1; done

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$rounds"); do
    "$blit" --display "$display" --size "$size" --frames "$frames" | tee -a "$log"
    "$player" arrow --display "$display" --fps max --autoplay --frames "$frames" --size "$size" | sed 's/^/ours     overlay shown: /' | tee -a "$log"
    "$player" arrow --display "$display" --fps max --autoplay --frames "$frames" --size "$size" --no-overlay | sed 's/^/ours     overlay hidden: /' | tee -a "$log"
done
median() { grep "$1" "$log" | sed -n 's/.* \([0-9.]*\) FPS.*/\1/p' | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
blitFPS=$(median '^blit') shown=$(median 'overlay shown') hidden=$(median 'overlay hidden')
echo "median of $rounds: whole-frame blit $blitFPS FPS; ours overlay shown $shown FPS ($(awk "BEGIN {printf \"%.2f\", $shown / $blitFPS}")x), overlay hidden $hidden FPS ($(awk "BEGIN {printf \"%.2f\", $hidden / $blitFPS}")x)"
