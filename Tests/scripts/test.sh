#!/usr/bin/env bash
# Builds Flywheel with warnings as errors and runs every test. Installs what is missing first:
# libevdev-dev, libgpiod-dev and pkg-config to build; mpd and sox for the MPD bridge test (which
# skips, saying so, only where they cannot be installed).
set -euo pipefail
cd "$(dirname "$0")/../.."
source Tests/scripts/deps.sh
flywheel_install mpd sox || echo "Could not install mpd and sox: the MPD bridge test will be skipped." >&2
swift build -Xswiftc -warnings-as-errors
swift test -Xswiftc -warnings-as-errors "$@"
