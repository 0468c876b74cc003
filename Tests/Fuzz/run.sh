#!/usr/bin/env bash
# Builds the libFuzzer targets (FLYWHEEL_FUZZ=1, --sanitize=fuzzer, in .build-fuzz; a normal build
# has none) and runs each for RUNS executions (default 10,000,000) on a copy of its committed seed
# corpus, with a memory bound. Prints one line per target: runs, executions a second, coverage, and
# FAILED with the saved input (Tests/Fuzz/crashes/NAME/) if an invariant broke; exits 1 then.
#
#   Tests/Fuzz/run.sh [RUNS] [NAME ...]    e.g. Tests/Fuzz/run.sh 10000000 EvdevStream
#   Tests/Fuzz/run.sh --smoke              20,000 runs of each target, at most 15 s each (for CI)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=0
if [ "${1:-}" = "--smoke" ]; then
    runs=20000; seconds=15; shift
else
    runs=${1:-10000000}; shift || true
fi
targets=("$@"); [ ${#targets[@]} -gt 0 ] || targets=(ClientCommand Config Evemu VCD EdgeLog Scenario EvdevStream ClientSession BridgeSession)
for name in "${targets[@]}"; do
    FLYWHEEL_FUZZ=1 swift build --sanitize=fuzzer --scratch-path .build-fuzz -c release --product "fuzz-$name" >&2
done
bin=.build-fuzz/release
# The longest input: a parsed file's head (4 KiB), an event stream of 54 events (600 bytes: a
# report's worth of extremes and the time between them, at thousands of runs a second), a session of
# 1 KiB (sent once, or 2 to 16 times as its header says, or once followed by a line over the 64 KiB
# limit; a session costs what its commands cost, 10-15 µs of CPU each: 600-750 sessions per
# CPU-second, 4 KiB sessions 300-350).
declare -A maxLength=([EvdevStream]=600 [ClientSession]=1024)
failed=0
for name in "${targets[@]}"; do
    work=$(mktemp -d); cp -r Tests/Fuzz/corpus/"$name"/. "$work"/
    mkdir -p Tests/Fuzz/crashes/"$name"
    log=$(mktemp)
    status=0
    SWIFT_BACKTRACE=enable=no "$bin/fuzz-$name" -runs="$runs" -max_total_time="$seconds" -max_len="${maxLength[$name]:-4096}" \
        -timeout=20 -malloc_limit_mb=512 -rss_limit_mb=1024 -print_final_stats=1 \
        -artifact_prefix=Tests/Fuzz/crashes/"$name"/ "$work" >"$log" 2>&1 || status=$?
    executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    coverage=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1)
    if [ "$status" -ne 0 ]; then
        failed=1
        echo "$name: FAILED after ${executed:-?} runs: $(grep -E '^fuzz-|ERROR|Test unit written' "$log" | head -n 3 | tr '\n' ' ')"
    else
        echo "$name: ${executed} runs, ${rate} exec/s, ${coverage}"
    fi
    rm -rf "$work" "$log"
done
exit "$failed"
