#!/usr/bin/env bash
# The demo: flywheeld on a simulated EC11 knob with its push button (hardware/scenarios/demo.sim,
# played in a loop), and a client watching its events. Stops after DEMO_SECONDS (default 30) or Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/../.."
source Tests/scripts/deps.sh
swift build -c release --product flywheel >&2
swift build -c release --product flywheeld >&2
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
socket="$work/flywheel.sock"
"$bin/flywheeld" --socket "$socket" --simulate demo --loop --hold-until-clients 1 &
daemon=$!
trap 'kill $daemon 2>/dev/null; wait $daemon 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.05; done
echo "== flywheeld is serving $socket; flywheel watch shows what a client sees:" >&2
timeout "${DEMO_SECONDS:-30}" "$bin/flywheel" watch --socket "$socket" || true
