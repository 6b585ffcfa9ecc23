#!/usr/bin/env bash
# Lottie frame time, ours against ThorVG and rlottie, in one run (issue 14): sets up the benchmark-only
# venv (lottie-peers/install-venv.sh: the PyPI wheels, nothing vendored), builds the release player,
# and for each corpus file renders the same frames with ThorVG, the real player and rlottie
# (lottie-peers/lottie_peers.py says exactly what is timed).
# Usage: Benchmarks/lottie-peers.sh [--size 512x512] [--frames 120] [--only id,id] [--tsv FILE] [--corpus DIR]
#        PLAYER=/path/to/live-player Benchmarks/lottie-peers.sh ...   (another build, e.g. before a change)
set -euo pipefail
cd "$(dirname "$0")"
python=$(./lottie-peers/install-venv.sh)
if [[ -z "${PLAYER:-}" ]]; then
    (cd .. && swift build -c release --product live-player > /dev/null)
    player="$(cd .. && swift build -c release --show-bin-path)/live-player"
else
    player="$PLAYER"
fi
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "player: $player ($(cd .. && git rev-parse --short HEAD))"
"$python" lottie-peers/lottie_peers.py --player "$player" "$@"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
