#!/usr/bin/env bash
# Runs every test under ThreadSanitizer and under AddressSanitizer (+ LeakSanitizer), each in its own
# build folder. The only suppression is XCTest's own harness leak (Tests/Sanitizers/lsan.supp says why).
# Usage: Tests/scripts/sanitizers.sh [thread|address ...]   (default: both). Not part of .ci/run: slow.
set -euo pipefail
cd "$(dirname "$0")/../.."
source Tests/scripts/deps.sh
kinds=("$@"); [ ${#kinds[@]} -gt 0 ] || kinds=(thread address)
for kind in "${kinds[@]}"; do
    echo "== swift test --sanitize=$kind" >&2
    LSAN_OPTIONS="suppressions=$PWD/Tests/Sanitizers/lsan.supp:print_suppressions=1" \
    TSAN_OPTIONS="halt_on_error=1" \
        swift test --sanitize="$kind" --scratch-path ".build-$kind" 2>&1 | tee "/tmp/flywheel-sanitize-$kind.log" | tail -5
    if grep -qE "WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer" "/tmp/flywheel-sanitize-$kind.log"; then
        echo "The $kind sanitizer reported a problem: see /tmp/flywheel-sanitize-$kind.log" >&2
        exit 1
    fi
done
