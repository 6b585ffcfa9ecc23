#!/usr/bin/env bash
# Allocations per frame of the real player, scene by scene (issue 9): builds malloc-count.so (an
# LD_PRELOAD allocation counter) and the release player, runs each scene headless for N and
# 2N frames with the sweep on --autoplay, and prints (count(2N) − count(N)) / N: what a frame
# allocates once warm. Windowed runs with the overlay need an X server: pass --display :NN.
# A Lottie file (a path ending in .json) is played with `play FILE` (issue 14), for at least one
# loop before counting.
# Usage: Benchmarks/malloc-count.sh [--frames N] [--size WxH] [--display :NN] [scene | FILE.json ...]
set -euo pipefail
cd "$(dirname "$0")"
frames=300 size=640x480 display=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --frames) frames="$2"; shift 2 ;;
        --size) size="$2"; shift 2 ;;
        --display) display="$2"; shift 2 ;;
        *) break ;;
    esac
done
scenes=("$@")
[[ ${#scenes[@]} -eq 0 ]] && scenes=($( (cd .. && swift run -c release live-player --list 2>/dev/null) | awk '{print $1}'))

out=.build/malloc-count
mkdir -p "$out"
cc -O2 -shared -fPIC -o "$out/malloc-count.so" malloc-count/malloc-count.c -ldl
(cd .. && swift build -c release --product live-player > /dev/null)
player="$(cd .. && swift build -c release --show-bin-path)/live-player"

count() {  # scene frames mode
    local args=("$1" --autoplay --frames "$2" --size "$size")
    [[ "$1" == *.json ]] && args=(play "$1" --autoplay --frames "$2" --size "$size")
    if [[ "$3" == headless ]]; then args+=(--headless --no-overlay); else args+=(--display "$display" --fps max); fi
    LD_PRELOAD="$PWD/$out/malloc-count.so" "$player" "${args[@]}" 2>&1 >/dev/null | sed -n 's/^malloc-count: \([0-9]*\) allocations$/\1/p' | tail -1
}

# A Lottie file is warm once it has played through: layers drawn for the first time late in a
# long animation allocate their caches then. Its N is at least one loop in 60 Hz ticks.
loop_ticks() {  # file.json
    python3 -c 'import json, math, sys; d = json.load(open(sys.argv[1])); print(math.ceil((d["op"] - d["ip"]) / d["fr"] * 60))' "$1" 2> /dev/null || echo 0
}

printf "%-10s %-9s %10s %10s %12s\n" scene mode N 2N "per frame"
for scene in "${scenes[@]}"; do
    modes=(headless)
    [[ -n "$display" ]] && modes+=(windowed)
    n=$frames
    if [[ "$scene" == *.json ]]; then loop=$(loop_ticks "$scene"); (( loop > n )) && n=$loop; fi
    for mode in "${modes[@]}"; do
        a=$(count "$scene" "$n" "$mode")
        b=$(count "$scene" "$((2 * n))" "$mode")
        printf "%-10s %-9s %10s %10s %12s\n" "$(basename "$scene" .json)" "$mode" "$a" "$b" "$(awk -v a="$a" -v b="$b" -v n="$n" 'BEGIN { printf "%.2f", (b - a) / n }')"
    done
done
