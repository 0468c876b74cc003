#!/usr/bin/env bash
# Builds Flywheel with warnings as errors and runs every test.
set -euo pipefail
cd "$(dirname "$0")/../.."
source Tests/scripts/deps.sh
swift build -Xswiftc -warnings-as-errors
swift test -Xswiftc -warnings-as-errors "$@"
