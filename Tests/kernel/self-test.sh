#!/usr/bin/env bash
# Checks the kernel test lane itself (README.md beside this file), each check in a guest of its
# own: uinput, evdev and gpio-sim load; a gpio-sim chip made through configfs is read and watched
# with gpioget and gpiomon while its line is pulled up and down; a binary built on the host runs
# (.build/debug/flywheel, when it has been built); a --share directory carries a file out; the
# command's exit status comes back; --timeout stops a guest that does not finish.
#
# Usage: Tests/kernel/self-test.sh
# Exit status: 0 when every check passed, 1 when one failed, 77 when run-in-guest.sh skips
#              (QEMU cannot run here). Ends with the line "N passed, N failed".
# Needs: what run-in-guest.sh needs (it runs prepare.sh when the lane's cache is incomplete).
set -euo pipefail
cd "$(dirname "$0")/../.."
run=Tests/kernel/run-in-guest.sh
passed=0
failed=0

pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }
seconds_since() { awk -v s="$1" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.1f s", e - s }'; }

# check NAME EXPECTED-STATUS EXPECTED-OUTPUT RUN-IN-GUEST-ARGUMENTS...: runs run-in-guest.sh and
# passes when it exits with EXPECTED-STATUS and its standard output is EXPECTED-OUTPUT.
check() {
    local name=$1 want_status=$2 want_output=$3 output status=0 start=$EPOCHREALTIME
    shift 3
    output=$("$run" "$@") || status=$?
    [ "$status" -ne 77 ] || exit 77
    if [ "$status" -eq "$want_status" ] && [ "$output" = "$want_output" ]; then
        pass "$name ($(seconds_since "$start"))"
    else
        fail "$name ($(seconds_since "$start")): exit status $status, wanted $want_status"
        printf 'output:\n%s\nwanted:\n%s\n' "$output" "$want_output" | sed 's/^/    /'
    fi
}

check "uinput, evdev, gpio-sim and configfs" 0 "modules for the running kernel
/dev/uinput
configfs /sys/kernel/config
gpio-sim" -- sh -c '
    [ -f /lib/modules/$(uname -r)/extra/gpio-sim.ko ] && echo "modules for the running kernel"
    modprobe uinput && modprobe evdev && [ -c /dev/uinput ] && echo /dev/uinput
    modprobe gpio-sim && grep -o "^configfs /sys/kernel/config" /proc/mounts && ls /sys/kernel/config'

check "a gpio-sim line read and watched" 0 "gpio-sim.0 gpiochip0
1
0
RISING
FALLING
torn down" -- sh -c '
    set -e
    modprobe gpio-sim
    sim=/sys/kernel/config/gpio-sim/selftest
    mkdir -p $sim/bank0/line0 $sim/bank0/line1
    echo 2 > $sim/bank0/num_lines
    echo selftest > $sim/bank0/label
    echo 1 > $sim/live
    chip=$(cat $sim/bank0/chip_name)
    echo "$(cat $sim/dev_name) $chip"
    pull=/sys/devices/platform/$(cat $sim/dev_name)/$chip/sim_gpio0/pull
    echo pull-up > $pull && gpioget $chip 0
    echo pull-down > $pull && gpioget $chip 0
    gpiomon --num-events=2 $chip 0 > /tmp/events &
    sleep 1
    echo pull-up > $pull
    sleep 0.2
    echo pull-down > $pull
    wait
    grep -o "RISING\|FALLING" /tmp/events
    echo 0 > $sim/live
    rmdir $sim/bank0/line0 $sim/bank0/line1 $sim/bank0 $sim
    [ -z "$(ls /sys/kernel/config/gpio-sim)" ] && echo "torn down"'

if [ -x .build/debug/flywheel ]; then
    check "a binary built on the host" 0 "$(.build/debug/flywheel --version)" -- .build/debug/flywheel --version
else
    echo "SKIP a binary built on the host: .build/debug/flywheel is not built"
fi

share=$(mktemp -d)
trap 'rm -rf "$share"' EXIT
start=$EPOCHREALTIME
status=0
"$run" --share "$share" -- sh -c "echo from the guest > '$share/file'" || status=$?
[ "$status" -ne 77 ] || exit 77
if [ "$status" -eq 0 ] && [ "$(cat "$share/file" 2> /dev/null)" = "from the guest" ]; then
    pass "a --share directory ($(seconds_since "$start"))"
else
    fail "a --share directory ($(seconds_since "$start")): exit status $status, $share/file not as written"
fi

check "the exit status" 3 "out" -- sh -c 'echo out; exit 3'
check "a timeout" 124 "before" --timeout 15 -- sh -c 'echo before; sleep 600; echo after'

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
