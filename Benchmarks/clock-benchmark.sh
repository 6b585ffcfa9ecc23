#!/usr/bin/env bash
# Runs clock-benchmark twice: on an idle machine, then beside two busy processes (`yes > /dev/null`),
# which are started in the background and stopped by PID afterwards, even on failure or Ctrl-C.
# Usage: Benchmarks/clock-benchmark.sh [clock-benchmark options, e.g. --ticks 600 --hz 60]
set -euo pipefail
cd "$(dirname "$0")"

swift build -c release --product clock-benchmark
benchmark="$(swift build -c release --show-bin-path)/clock-benchmark"

busy_pids=()
stop_busy() {
    for pid in "${busy_pids[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    busy_pids=()
}
trap stop_busy EXIT INT TERM

"$benchmark" --label idle "$@"
echo

yes > /dev/null &
busy_pids+=($!)
yes > /dev/null &
busy_pids+=($!)
sleep 1  # let them reach full speed
"$benchmark" --label "two busy processes: yes > /dev/null, PIDs ${busy_pids[*]}" "$@"
stop_busy
