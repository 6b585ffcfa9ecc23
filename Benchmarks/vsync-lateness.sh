#!/usr/bin/env bash
# Tick lateness against the vblank's UST, the display link's timer against Present (issue 10), and
# the goal runs: the release player's `arrow --autoplay` in a window on Xvfb at each
# -fakescreenfps given, once with --vsync present and once with --vsync timer, read from --stats.
#
# Lateness is when a tick began minus the UST of the last vblank before it. Present ticks carry
# the UST of the vblank that ran them (--stats "vblankUST"). The timer asks the server for no
# vblank, so vblank-log (C, Present's NotifyMSC on a window of its own) records the server's
# vblanks beside every run; both modes are also set against that log.
# Usage: Benchmarks/vsync-lateness.sh [--seconds S] [--size WxH] [FPS ...]   (default: 8 s at 144 60 30)
#        PLAYER=/path/to/live-player Benchmarks/vsync-lateness.sh ...   (another build)
#        EXTRA="--fps max" ...   (more player arguments for every run)
#        REALTIME=1 ...   (Xvfb under `chrt -f 40` and the player with --priority realtime: SCHED_FIFO
#                          keeps other processes' load out of the figures; needs root or CAP_SYS_NICE)
set -euo pipefail
cd "$(dirname "$0")"
seconds=8 size=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --size) size="$2"; shift 2 ;;
        *) break ;;
    esac
done
rates=("$@")
[[ ${#rates[@]} -eq 0 ]] && rates=(144 60 30)

out=.build/vsync-lateness
mkdir -p "$out"
cc -O2 -Wall -o "$out/vblank-log" vblank-log/vblank-log.c $(pkg-config --cflags --libs x11 xpresent)
if [[ -z "${PLAYER:-}" ]]; then
    (cd .. && swift build -c release --product live-player > /dev/null)
    player="$(cd .. && swift build -c release --show-bin-path)/live-player"
else
    player="$PLAYER"
fi

work=$(mktemp -d)
xvfb_pid="" log_pid=""
cleanup() {
    [[ -n "$log_pid" ]] && { kill "$log_pid" 2>/dev/null || true; wait "$log_pid" 2>/dev/null || true; }
    [[ -n "$xvfb_pid" ]] && { kill "$xvfb_pid" 2>/dev/null || true; wait "$xvfb_pid" 2>/dev/null || true; }
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

start_xvfb() {  # fps -> sets display and xvfb_pid
    local n
    for n in $(shuf -i 400-899 -n 50); do
        [[ -e /tmp/.X11-unix/X$n || -e /tmp/.X$n-lock ]] && continue
        ${REALTIME:+chrt -f 40} Xvfb ":$n" -screen 0 1280x1024x24 -nolisten tcp -fakescreenfps "$1" > /dev/null 2>&1 &
        xvfb_pid=$!
        for _ in $(seq 100); do
            [[ -e /tmp/.X11-unix/X$n ]] && { display=":$n"; return; }
            kill -0 "$xvfb_pid" 2>/dev/null || break
            sleep 0.05
        done
        kill "$xvfb_pid" 2>/dev/null || true; wait "$xvfb_pid" 2>/dev/null || true; xvfb_pid=""
    done
    echo "could not start Xvfb" >&2; exit 1
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores${REALTIME:+; Xvfb and the player SCHED_FIFO}"
printf "%-5s %-8s %-8s %9s %6s %7s %7s %7s %9s %9s %9s %9s %9s %9s %s\n" Hz vsync source refresh frames drops '(other)' 'srv gap' 'int p50' 'int p99' 'late p50' 'late p99' 'log p50' 'log p99' load
for fps in "${rates[@]}"; do
    start_xvfb "$fps"
    for vsync in present timer; do
        DISPLAY="$display" ${REALTIME:+chrt -f 40} "$out/vblank-log" "$work/vblanks" &
        log_pid=$!
        sleep 0.5
        load=$(cut -d' ' -f1 /proc/loadavg)
        args=(arrow --autoplay --frames $((seconds * fps)) --stats "$work/stats.json" --vsync "$vsync")
        [[ -n "$size" ]] && args+=(--size "$size")
        [[ -n "${REALTIME:-}" ]] && args+=(--priority realtime)
        # shellcheck disable=SC2206
        [[ -n "${EXTRA:-}" ]] && args+=($EXTRA)
        DISPLAY="$display" "$player" "${args[@]}" > "$work/summary" 2> "$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
        kill "$log_pid"; wait "$log_pid" 2>/dev/null || true; log_pid=""
        python3 - "$fps" "$vsync" "$work/stats.json" "$work/vblanks" "$load" <<'PY'
import bisect, json, sys
fps, vsync, stats_path, log_path, load = sys.argv[1:]
stats = json.load(open(stats_path))
log = sorted(tuple(map(int, line.split())) for line in open(log_path) if line.strip())
vblanks = [ust * 1e-6 for _, ust in log]
# Vblanks the server itself skipped while the run went on: MSC gaps in vblank-log's chain, which
# draws nothing and asks only for the next vblank each time (its first half second left out).
log_start = log[0][1] + 500_000 if log else 0
chain = [msc for msc, ust in log if ust >= log_start]
server_gaps = sum(b - a - 1 for a, b in zip(chain, chain[1:]) if b - a > 1)
def pct(values, p):
    if not values: return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, max(0, int(-(-p * len(values) // 1)) - 1))]
# The first frames wait for the window and the first vblanks: leave out the first half second.
frames = [f for f in stats["frames"] if "tickTime" in f]
start = frames[0]["tickTime"] + 0.5 if frames else 0
frames = [f for f in frames if f["tickTime"] >= start]
own = [(f["tickTime"] - f["vblankUST"]) * 1000 for f in frames if "vblankUST" in f]
logged = []
for f in frames:
    i = bisect.bisect_right(vblanks, f["tickTime"]) - 1
    if i >= 0 and i + 1 < len(vblanks): logged.append((f["tickTime"] - vblanks[i]) * 1000)
late = own if vsync == "present" else logged
clock = stats.get("clock", {})
other = stats["dropsByStage"]["unattributed"]
print(f"{fps:<5} {vsync:<8} {clock.get('source', '?'):<8} {clock.get('refreshRate', 0):9.3f} {stats['frameCount']:6d} {stats['framesDropped']:7d} {other:7d} {server_gaps:7d} "
      f"{stats['frameIntervalMs']['p50']:9.3f} {stats['frameIntervalMs']['p99']:9.3f} {pct(late, .5):9.3f} {pct(late, .99):9.3f} "
      f"{pct(logged, .5):9.3f} {pct(logged, .99):9.3f} {load}")
PY
    done
    kill "$xvfb_pid"; wait "$xvfb_pid" 2>/dev/null || true; xvfb_pid=""
done
echo "late: tick time - UST of the vblank that ran it (present) or of the last vblank vblank-log saw before it (timer), ms;"
echo "srv gap: vblanks the server skipped in vblank-log's own NotifyMSC chain during the run (a client that draws nothing);"
echo "log: both against vblank-log's vblanks; int: frame interval (--stats frameIntervalMs), ms; load: 1-minute load average at the start"
