#!/usr/bin/env bash
# The arrow frame (or the rays frame), ours against the peers, in one run (issue 9). Installs Blend2D
# (peers/install-blend2d.sh), builds the player and arrow-peers in release, then runs the peers, the
# real player's headless scene (the product measurement), and the peers again, at each size given.
# First it measures how often the machine interrupts a busy thread (interruptions/interruptions.c);
# after the player, frames of constant work at the player's p50 show the p99 / p50 the machine
# alone gives such frames now.
# Usage: Benchmarks/arrow-peers.sh [--scene arrow|rays] [--frames N] [WxH ...]   (default: arrow, 600 frames at 1920x1080)
#        PLAYER=/path/to/live-player Benchmarks/arrow-peers.sh ...   (another build, e.g. before a change)
set -euo pipefail
cd "$(dirname "$0")"
frames=600 scene=arrow
while [[ $# -gt 0 ]]; do
    case "$1" in
        --frames) frames="$2"; shift 2 ;;
        --scene) scene="$2"; shift 2 ;;
        *) break ;;
    esac
done
case "$scene" in
    arrow) play=(arrow --autoplay) ;;
    rays) play=(rays) ;;   # turns by itself from the first frame
    *) echo "arrow-peers.sh: --scene is arrow or rays" >&2; exit 64 ;;
esac
sizes=("$@")
[[ ${#sizes[@]} -eq 0 ]] && sizes=(1920x1080)

./peers/install-blend2d.sh > /dev/null
export PKG_CONFIG_PATH="$PWD/.peers/blend2d${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
swift build -c release --product arrow-peers > /dev/null
peers="$(swift build -c release --show-bin-path)/arrow-peers"
if [[ -z "${PLAYER:-}" ]]; then
    (cd .. && swift build -c release --product live-player > /dev/null)
    player="$(cd .. && swift build -c release --show-bin-path)/live-player"
else
    player="$PLAYER"
fi

mkdir -p .build/interruptions
cc -O2 -o .build/interruptions/interruptions interruptions/interruptions.c

stats=$(mktemp)
trap 'rm -f "$stats"' EXIT
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
# How often the machine stops a running thread: on a shared VM, gaps of 50-100 us come hundreds
# of times a second, which is a whole 0.1 ms frame; read p99s beside it.
echo "machine: $(.build/interruptions/interruptions 1)"
for size in "${sizes[@]}"; do
    "$peers" --scene "$scene" --size "$size" --frames "$frames"
    "$player" "${play[@]}" --headless --frames "$frames" --size "$size" --no-overlay --stats "$stats" | sed 's/^/ours     /'
    # A p99 of our frames is mostly a frame a gap landed in; the same count of identical frames says
    # how much of the ratio that is.
    p50=$(sed -n 's/.*"frameTimeMs": {"p50": \([0-9.e+-]*\),.*/\1/p' "$stats")
    [[ -n "$p50" ]] && .build/interruptions/interruptions --frames "$frames" --work "$p50" | sed 's/^/machine  /'
    "$peers" --scene "$scene" --size "$size" --frames "$frames"
done
