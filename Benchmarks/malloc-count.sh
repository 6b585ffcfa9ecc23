#!/usr/bin/env bash
# Allocations per frame of the real player, scene by scene (issue 9): builds malloc-count.so (an
# LD_PRELOAD allocation counter) and the release player, runs each scene headless for N and
# 2N frames with the sweep on --autoplay, and prints (count(2N) − count(N)) / N: what a frame
# allocates once warm. Windowed runs need an X server: pass --display :NN. They run paced by the
# server's Present vblanks (the player's default) with the overlay shown (`vblank`) and hidden
# (`vblank-bare`), unpaced (`max`: --fps max) and on the link's timer (`timer`: --vsync timer), both
# showing frames at once (through Present from MIT-SHM pixmaps when the server has them, else blitted).
# A Lottie file (a path ending in .json) is played with `play FILE` (issue 14), for at least one
# loop before counting.
# Each run is bounded (--timeout S, default 60 s plus 2N/20 s): a player that hangs, or a scene
# that goes idle before its frames are done, shows as "timeout" and the script exits 1.
# Usage: Benchmarks/malloc-count.sh [--frames N] [--size WxH] [--display :NN] [--modes "vblank vblank-bare max timer"]
#                                   [--timeout S] [--player PATH] [scene | FILE.json ...]
# --player measures that binary (another build, to compare) instead of building the release player.
set -euo pipefail
cd "$(dirname "$0")"
frames=300 size=640x480 display="" modes="vblank vblank-bare max timer" limit="" player=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --frames) frames="$2"; shift 2 ;;
        --size) size="$2"; shift 2 ;;
        --display) display="$2"; shift 2 ;;
        --modes) modes="$2"; shift 2 ;;
        --timeout) limit="$2"; shift 2 ;;
        --player) player="$(realpath "$2")"; shift 2 ;;
        *) break ;;
    esac
done
scenes=("$@")

out=.build/malloc-count
mkdir -p "$out"
cc -O2 -shared -fPIC -o "$out/malloc-count.so" malloc-count/malloc-count.c -ldl
if [[ -z "$player" ]]; then
    (cd .. && swift build -c release --product live-player > /dev/null)
    player="$(cd .. && swift build -c release --show-bin-path)/live-player"
fi
[[ ${#scenes[@]} -eq 0 ]] && scenes=($("$player" --list 2>/dev/null | awk '{print $1}'))

failed=0
count() {  # scene frames mode
    local args=("$1" --autoplay --frames "$2" --size "$size")
    [[ "$1" == *.json ]] && args=(play "$1" --autoplay --frames "$2" --size "$size")
    case "$3" in
        headless) args+=(--headless --no-overlay) ;;
        vblank) args+=(--display "$display") ;;
        vblank-bare) args+=(--display "$display" --no-overlay) ;;
        max) args+=(--display "$display" --fps max) ;;
        timer) args+=(--display "$display" --vsync timer) ;;
        *) echo "unknown mode $3" >&2; exit 64 ;;
    esac
    local seconds=${limit:-$((60 + 2 * $2 / 20))} log status=0
    log=$(mktemp)
    # SIGTERM first, SIGKILL 5 s later; a run cut short counts nothing, whatever it printed.
    LD_PRELOAD="$PWD/$out/malloc-count.so" timeout --kill-after=5 "$seconds" "$player" "${args[@]}" > /dev/null 2> "$log" || status=$?
    result=$(sed -n 's/^malloc-count: \([0-9]*\) allocations$/\1/p' "$log" | tail -1)
    rm -f "$log"
    if (( status == 124 || status == 137 )) || [[ -z "$result" ]]; then result=timeout; fi
    echo "$result"
}

# A Lottie file is warm once it has played through: layers drawn for the first time late in a
# long animation allocate their caches then. Its N is at least one loop in 60 Hz ticks.
loop_ticks() {  # file.json
    python3 -c 'import json, math, sys; d = json.load(open(sys.argv[1])); print(math.ceil((d["op"] - d["ip"]) / d["fr"] * 60))' "$1" 2> /dev/null || echo 0
}

printf "%-10s %-11s %10s %10s %12s\n" scene mode N 2N "per frame"
for scene in "${scenes[@]}"; do
    run_modes=(headless)
    [[ -n "$display" ]] && read -r -a windowed <<< "$modes" && run_modes+=("${windowed[@]}")
    n=$frames
    if [[ "$scene" == *.json ]]; then loop=$(loop_ticks "$scene"); (( loop > n )) && n=$loop; fi
    for mode in "${run_modes[@]}"; do
        a=$(count "$scene" "$n" "$mode")
        b=$(count "$scene" "$((2 * n))" "$mode")
        if [[ "$a" == timeout || "$b" == timeout ]]; then
            per=timeout; failed=1
        else
            per=$(awk -v a="$a" -v b="$b" -v n="$n" 'BEGIN { printf "%.2f", (b - a) / n }')
        fi
        printf "%-10s %-11s %10s %10s %12s\n" "$(basename "$scene" .json)" "$mode" "$a" "$b" "$per"
    done
done
exit "$failed"
