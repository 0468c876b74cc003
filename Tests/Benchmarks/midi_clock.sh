#!/usr/bin/env bash
# The MIDI clock's timing (on demand, not in CI; BENCHMARKS.md, "flywheel midi"):
#
#   bash Tests/Benchmarks/midi_clock.sh [--seconds S] [--bpm "120 200"] [--rt-priority N] [BIN_DIR]
#
# For each tempo, flywheeld (no devices, the tempo from its configuration) and `flywheel midi --clock`
# writing to a FIFO, read by midi_clock_reader.c (cc -O2), which stamps every read with
# CLOCK_MONOTONIC for S seconds (default 60) from the first tick and prints one JSON line: ticks,
# mean interval against the ideal (drift in ppm), jitter (each interval minus the ideal period)
# and lateness (each tick after its place on the ideal grid) at p50, p99 and max. --rt-priority N
# passes the same option to the bridge (SCHED_FIFO) and runs the reader at that priority too (chrt),
# so that neither waits behind other processes. BIN_DIR holds
# flywheeld and flywheel (default: the release build, made with swift build -c release when missing).
# Runs in the kernel lane's idle guest too:
#   Tests/kernel/run-in-guest.sh --timeout 600 --share "$PWD" -- bash Tests/Benchmarks/midi_clock.sh BIN_DIR
set -euo pipefail
seconds=60
tempos="120 200"
bridge_options=()
reader=()
while [ $# -gt 0 ]; do
    case $1 in
        --seconds) seconds=$2; shift 2 ;;
        --bpm) tempos=$2; shift 2 ;;
        --rt-priority) bridge_options=(--rt-priority "$2"); reader=(chrt -f "$2"); shift 2 ;;
        *) break ;;
    esac
done
cd "$(dirname "$0")/../.."
bin=${1:-}
if [ -z "$bin" ]; then
    bin=.build/release
    [ -x "$bin/flywheeld" ] && [ -x "$bin/flywheel" ] || swift build -c release >&2
fi
bin=$(cd "$bin" && pwd)
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
    wait || true
    rm -rf "$work"
}
trap cleanup EXIT
cc -O2 -o "$work/reader" Tests/Benchmarks/midi_clock_reader.c -lm
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), kernel $(uname -r); bridge options: ${bridge_options[*]:-none}" >&2
for bpm in $tempos; do
    dir=$work/$bpm
    mkdir "$dir"
    echo "{ controls: { tempo: { range: [1, 1000], bpm: $bpm } } }" > "$dir/config.json5"
    "$bin/flywheeld" --config "$dir/config.json5" --socket "$dir/sock" --frames 0 --no-devices 2> "$dir/daemon.err" &
    daemon=$!
    pids+=("$daemon")
    for _ in $(seq 100); do [ -S "$dir/sock" ] && break; sleep 0.05; done
    [ -S "$dir/sock" ] || { cat "$dir/daemon.err" >&2; echo "midi_clock: flywheeld did not start" >&2; exit 1; }
    mkfifo "$dir/midi"
    "${reader[@]}" "$work/reader" "$dir/midi" "$bpm" "$seconds" &
    reading=$!
    "$bin/flywheel" midi --socket "$dir/sock" --device "$dir/midi" --clock "${bridge_options[@]}" 2> "$dir/bridge.err" &
    bridge=$!
    pids+=("$bridge")
    wait "$reading"
    # A bridge writing to the FIFO its reader closed may have ended already (SIGPIPE).
    kill "$bridge" "$daemon" 2> /dev/null || true
    wait "$bridge" "$daemon" || true
done
