#!/usr/bin/env bash
# The kernel test lane as CI runs it, after the unit tests: flywheeld's evdev and GPIO backends
# against a real Linux kernel (uinput and gpio-sim) in a throwaway QEMU guest, through the real
# daemon and socket (Tests/kernel/tests/kernel_lane.py). The guest is prepared once (cached; run-in-
# guest.sh does it when needed), the setup and test times are reported, the lane skips with a message
# where QEMU cannot run at all (status 77 from run-in-guest.sh) and fails on anything else. With no
# TEST named, the gpio-sim tests then run a second time with the Debian 13 build (libgpiod 2).
# Needs the debug build (Tests/scripts/test.sh makes it). Usage: Tests/kernel/lane.sh [TEST ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -x .build/debug/flywheeld ] && [ -x .build/debug/flywheel ] || { echo "lane: build first (swift build)" >&2; exit 1; }
milliseconds() { echo $(( $(date +%s%N) / 1000000 )); }
start=$(milliseconds)
status=0
Tests/kernel/run-in-guest.sh --timeout 120 -- true || status=$?
prepared=$(milliseconds)
if [ "$status" -eq 77 ]; then echo "lane: skipped: QEMU cannot run on this machine." >&2; exit 0; fi
[ "$status" -eq 0 ] || { echo "lane: the guest did not boot (status $status)." >&2; exit 1; }
echo "lane: guest prepared and booted once in $(( (prepared - start) / 1000 )).$(( (prepared - start) % 1000 / 100 )) s" >&2
status=0
# The checkout is shared into the guest (a clone under /tmp would not be seen: the guest's /tmp is its own).
Tests/kernel/run-in-guest.sh --timeout 900 --share "$PWD" -- python3 "$PWD/Tests/kernel/tests/kernel_lane.py" "$@" || status=$?
finished=$(milliseconds)
echo "lane: tests ran in $(( (finished - prepared) / 1000 )).$(( (finished - prepared) % 1000 / 100 )) s, guest boot included" >&2
[ "$status" -eq 0 ] || { echo "lane: failed (status $status)." >&2; exit 1; }
# The gpio-sim tests again through libgpiod 2's API: flywheel and flywheeld as the distro lane built
# them in its Debian 13 root (Tests/distro/run.sh, which runs before this in CI), with that root's
# libgpiod 2.2 and Swift runtime.
distro_bin=$PWD/.build-debian13/bin
[ $# -eq 0 ] || exit 0
if ! [ -x "$distro_bin/flywheeld" ]; then
    echo "lane: the gpio-sim tests with libgpiod 2 are skipped: no Debian 13 build in $distro_bin (Tests/distro/run.sh makes it)." >&2
    exit 0
fi
status=0
Tests/kernel/run-in-guest.sh --timeout 300 --share "$PWD" -- sh -c \
    '"$1/flywheel" --version && FLYWHEEL_BIN=$1 exec python3 "$2" test_bouncy_encoder_gpio_sim test_gpio_overflow_gap test_pi_header_layouts test_pi_header_named_wrong' \
    sh "$distro_bin" "$PWD/Tests/kernel/tests/kernel_lane.py" || status=$?
again=$(milliseconds)
echo "lane: the gpio-sim tests with the Debian 13 build (libgpiod 2) ran in $(( (again - finished) / 1000 )).$(( (again - finished) % 1000 / 100 )) s, guest boot included" >&2
[ "$status" -eq 0 ] || { echo "lane: failed with libgpiod 2 (status $status)." >&2; exit 1; }
