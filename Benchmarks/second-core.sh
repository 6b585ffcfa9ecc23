#!/usr/bin/env bash
# The second core, measured on the real player (issue 9): each scene and size headless with
# --stats, by this build and (BEFORE=/path/to/live-player) an earlier one, each on every CPU the
# machine gives and on one (`taskset -c 0`), interleaved so that load changes hit all four alike.
# Usage: BEFORE=/path/to/old/live-player Benchmarks/second-core.sh [--frames N] [scene ...]
#        (sizes: SIZES="1920x1080 3840x2160" by default)
set -euo pipefail
cd "$(dirname "$0")"
frames=300
if [[ "${1:-}" == "--frames" ]]; then frames="$2"; shift 2; fi
scenes=("$@")
[[ ${#scenes[@]} -eq 0 ]] && scenes=(arrow rays orbit)
sizes=(${SIZES:-1920x1080 3840x2160})
(cd .. && swift build -c release --product live-player > /dev/null)
after="$(cd .. && swift build -c release --show-bin-path)/live-player"
players=("after:$after")
[[ -n "${BEFORE:-}" ]] && players=("before:$BEFORE" "${players[@]}")

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
for size in "${sizes[@]}"; do
    for scene in "${scenes[@]}"; do
        for entry in "${players[@]}"; do
            name="${entry%%:*}" player="${entry#*:}"
            "$player" "$scene" --headless --autoplay --frames "$frames" --size "$size" --no-overlay | sed "s/^/$name 2 cpus  /"
            taskset -c 0 "$player" "$scene" --headless --autoplay --frames "$frames" --size "$size" --no-overlay | sed "s/^/$name 1 cpu   /"
        done
    done
done
