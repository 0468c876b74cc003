#!/usr/bin/env bash
# The suites of the code that ships unchecked, run against a release build: in a release build
# `@exclusivity(unchecked)` and the unchecked buffer writes are the ones that ship, while a debug
# build checks what they skip. The socket server, the client connections and their wire, the event
# loop, the line readers, the outbox (its lending trap, in every build), the pipeline, the protocol's
# encoders and parser, the daemon serving clients in the tests' own process (their lines, their
# pace, reloads), and its end-to-end and hostile-peer suites against the release flywheeld. In its own build folder (.build-release-tests): the package's release build
# (udev/release-build.sh) is linked otherwise and has no testable imports.
#
#   Tests/scripts/release-tests.sh [--build-only] [swift test options ...]
#
# (--build-only builds the tests without running them, so that a later run can be given --skip-build.)
set -euo pipefail
cd "$(dirname "$0")/../.."
source Tests/scripts/deps.sh
options=(-c release --scratch-path .build-release-tests -Xswiftc -warnings-as-errors)
if [ "${1:-}" = --build-only ]; then
    swift test "${options[@]}" --list-tests > /dev/null  # builds as the run does, then only lists
    exit 0
fi
suites='^(FlywheelIOTests\.(Client|SeqDigits|Broadcast|SocketServer|UnixListener|EventLoop|LineReader|StreamBounds)'
suites+='|FlywheelCoreTests\.(Outbox|Pipeline|Playback|TurnBuffer|ServerMessageWire|MessageClass|DaemonCore|ClientCommand|JSON)'
suites+='|FlywheelDaemonTests\.(ClientLines|ClientPace|ScenarioClients|DaemonServing)'
suites+='|FlywheelCLITests\.(DaemonEndToEnd|HostilePeerTests))'
swift test "${options[@]}" --filter "$suites" "$@"
