#!/usr/bin/env bash
# Builds Flywheel with warnings as errors and runs every test. Installs what is missing first:
# libevdev-dev, libgpiod-dev and pkg-config to build; mpd and sox for the MPD bridge tests, and
# liblo-tools (oscdump), klick and jackd2 for the OSC bridge tests, mosquitto and mosquitto-clients
# for the MQTT bridge tests, pipewire, pipewire-bin, wireplumber and dbus-daemon for the PipeWire bridge
# test, python3 for the Volumio and moOde bridge tests' stand-in player, and
# websocketd and chromium for
# the web page's test, and strace for the socket permission trace test (which skip, saying so, only where they cannot be installed; never with CI=true).
set -euo pipefail
cd "$(dirname "$0")/../.."
source Tests/scripts/deps.sh
flywheel_install mpd sox || echo "Could not install mpd and sox: the MPD bridge test will be skipped." >&2
flywheel_install liblo-tools klick jackd2 ||
    echo "Could not install liblo-tools, klick and jackd2: the OSC receiver tests will be skipped." >&2
flywheel_install mosquitto mosquitto-clients ||
    echo "Could not install mosquitto and mosquitto-clients: the MQTT bridge tests will be skipped." >&2
flywheel_install pipewire pipewire-bin wireplumber dbus-daemon ||
    echo "Could not install pipewire, pipewire-bin, wireplumber and dbus-daemon: the PipeWire bridge test will be skipped." >&2
flywheel_install python3 || echo "Could not install python3: the Volumio and moOde bridge tests will be skipped." >&2
flywheel_install strace || echo "Could not install strace: the socket permission trace test will be skipped." >&2
flywheel_install websocketd chromium ||
    echo "Could not install websocketd and chromium: the web page's test will be skipped." >&2
swift build -Xswiftc -warnings-as-errors
# The run, then a closing line that counts the skipped tests and says which (Swift Testing marks each
# with "➜ Test … skipped"), so a skip is never read as a pass.
log=$(mktemp "${TMPDIR:-/tmp}/flywheel-tests.XXXXXX")
trap 'rm -f "$log"' EXIT
status=0
swift test -Xswiftc -warnings-as-errors "$@" 2>&1 | tee "$log" || status=$?
skipped=$(grep -c '^➜ Test .* skipped' "$log" || true)
if [ "$skipped" -eq 0 ]; then
    echo "test.sh: no test skipped."
else
    echo "test.sh: $skipped tests skipped:"
    grep '^➜ Test .* skipped' "$log" | sed 's/^➜ /    /'
fi
exit "$status"
