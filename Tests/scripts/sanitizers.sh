#!/usr/bin/env bash
# Runs the tests under AddressSanitizer (+ LeakSanitizer) and under ThreadSanitizer, each in its own
# build folder (.build-address, .build-thread); .ci/run runs both.
#
#   Tests/scripts/sanitizers.sh [--build-only] [address|thread ...] [-- swift test options ...]
#
# (default: both; --build-only builds the tests without running them, so that a later run can be
# given -- --skip-build.) What each runs:
# - address: every suite. The unsafe code (the outbox's and the writers' buffers, the socket
#   server's and the bridges' queues, readdir's records, the JSON parser's bytes) is checked in the
#   suite's own process and in the flywheeld and flywheel programs the CLI tests start, which are
#   built with it too. LeakSanitizer checks every such program as it exits: a report goes to the
#   program's standard error and makes its exit status 1, which fails the test that started it.
# - thread: every suite but FlywheelCLITests. Flywheel's programs are single-threaded (no threads,
#   no Dispatch, nothing `@unchecked Sendable` or `nonisolated(unsafe)` in Sources; the Swift 6
#   language mode rules out data races in what they share), so what ThreadSanitizer can see is the
#   libraries' code and shared state as the test runner calls them from parallel tasks: the
#   in-process suites. The CLI suites mostly start single-threaded programs and wait on them (their
#   longest tests take minutes of waiting), where it has nothing to look at.
# The only suppression is XCTest's own harness leak (Tests/Sanitizers/lsan.supp says why). The tests
# are told which sanitizer they run under (FLYWHEEL_SANITIZER): its shadow memory is most of a
# program's RSS, so the bridges' 20 MB bound is not checked then, valgrind cannot run such a build
# (the callgrind counts are skipped), and LeakSanitizer cannot run under strace (the one traced
# daemon runs without its leak check).
set -euo pipefail
cd "$(dirname "$0")/../.."
source Tests/scripts/deps.sh
build_only=no
kinds=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case $1 in
        --build-only) build_only=yes ;;
        thread | address) kinds+=("$1") ;;
        *) echo "usage: Tests/scripts/sanitizers.sh [--build-only] [address|thread ...] [-- swift test options ...]" >&2; exit 2 ;;
    esac
    shift
done
[ $# -eq 0 ] || shift
[ ${#kinds[@]} -gt 0 ] || kinds=(address thread)
for kind in "${kinds[@]}"; do
    options=(--sanitize="$kind" --scratch-path ".build-$kind" -Xswiftc -warnings-as-errors)
    started=$(date +%s)
    if [ "$build_only" = yes ]; then
        echo "== building the tests with --sanitize=$kind" >&2
        swift test "${options[@]}" --list-tests > /dev/null  # builds as the run does, then only lists
        echo "== the $kind sanitizer's build: $(( $(date +%s) - started )) s" >&2
        continue
    fi
    scope=()
    [ "$kind" = address ] || scope=(--skip '^FlywheelCLITests\.')
    log="${TMPDIR:-/tmp}/flywheel-sanitize-$kind.log"
    echo "== swift test --sanitize=$kind ${scope[*]} (log: $log)" >&2
    FLYWHEEL_SANITIZER="$kind" \
    LSAN_OPTIONS="suppressions=$PWD/Tests/Sanitizers/lsan.supp:print_suppressions=1" \
    TSAN_OPTIONS="halt_on_error=1" \
        swift test "${options[@]}" "${scope[@]}" "$@" > "$log" 2>&1 || {
        grep -E "^✘|error:" "$log" | head -n 40 >&2 || true
        tail -n 20 "$log" >&2
        echo "The tests failed under the $kind sanitizer: see $log" >&2
        exit 1
    }
    if grep -qE "WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer" "$log"; then
        grep -E -A 20 "WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer" "$log" | head -n 60 >&2
        echo "The $kind sanitizer reported a problem: see $log" >&2
        exit 1
    fi
    grep -E "^(✔|✘) Test run" "$log" >&2 || true
    echo "== the $kind sanitizer: no findings, every test passed ($(( $(date +%s) - started )) s)" >&2
done
