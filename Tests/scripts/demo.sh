#!/usr/bin/env bash
# The demo: simulate a bouncy EC11 knob (contact bounce, part-step wiggles, a flick) and decode it.
set -euo pipefail
cd "$(dirname "$0")/../.."
source Tests/scripts/deps.sh
swift build -c release --product flywheel >&2
flywheel=$(swift build -c release --show-bin-path)/flywheel
scenario=hardware/scenarios/bouncy-knob.sim
echo "== $scenario: the simulator's ground truth (net detents)"
"$flywheel" sim "$scenario" --truth
echo "== the GPIO edges it produces (first lines of $("$flywheel" sim "$scenario" --emit edges | wc -l))"
"$flywheel" sim "$scenario" --emit edges | head -8
echo "== every detent Flywheel decodes from them"
"$flywheel" sim "$scenario" --emit edges | "$flywheel" decode - --steps-per-detent 4
echo "== summary"
"$flywheel" sim "$scenario" --emit edges | "$flywheel" decode - --steps-per-detent auto --summary
scenario=hardware/scenarios/kernel-false-step.sim
echo "== $scenario: part-step wiggles with bounce, truth $("$flywheel" sim "$scenario" --truth) detents"
echo -n "   the kernel rotary-encoder driver (full period) reports: "
"$flywheel" sim "$scenario" --emit evemu | "$flywheel" decode - --summary
echo -n "   Flywheel from the same contacts' GPIO edges:             "
"$flywheel" sim "$scenario" --emit edges | "$flywheel" decode - --summary
