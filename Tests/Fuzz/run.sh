#!/usr/bin/env bash
# Builds the libFuzzer targets (FLYWHEEL_FUZZ=1, --sanitize=fuzzer; a normal build has none) and runs
# each for SECONDS (default 60) on a copy of its committed seed corpus. Crashes are saved in
# Tests/Fuzz/crashes/NAME/. Usage: Tests/Fuzz/run.sh [SECONDS] [NAME ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}; shift || true
targets=("$@"); [ ${#targets[@]} -gt 0 ] || targets=(ClientCommand Config Evemu VCD EdgeLog Scenario EvdevStream ClientSession)
for name in "${targets[@]}"; do
    FLYWHEEL_FUZZ=1 swift build --sanitize=fuzzer --scratch-path .build-fuzz -c release --product "fuzz-$name" >&2
done
bin=.build-fuzz/release
for name in "${targets[@]}"; do
    work=$(mktemp -d); cp Tests/Fuzz/corpus/"$name"/* "$work"/
    mkdir -p Tests/Fuzz/crashes/"$name"
    SWIFT_BACKTRACE=enable=no "$bin/fuzz-$name" -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 \
        -artifact_prefix=Tests/Fuzz/crashes/"$name"/ "$work" 2>&1 | grep -E "stat::number_of_executed_units|ERROR|crash-" | sed "s/^/$name: /"
    rm -rf "$work"
done
