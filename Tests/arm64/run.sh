#!/usr/bin/env bash
# The arm64 lane as CI runs it (README.md beside this file): Flywheel for the Raspberry Pi's CPU.
# Built natively on this x86_64 machine by Debian 13's own Swift 6.0.3 (the distro lane's root),
# cross-compiling to aarch64-unknown-linux-gnu against a Debian 13 arm64 root (the same packages,
# arm64: Debian's arm64 swiftlang, libgpiod-dev, libevdev-dev, libc6-dev) with warnings as errors;
# then the whole test suite runs inside the arm64 root under qemu-user, through SwiftPM's own
# `swift test` there. Both roots are prepared once (Tests/distro/prepare.sh [--arch arm64], cached).
# The build goes to the checkout's .build-arm64. Prints how long each part took; skips with a
# message only where a root cannot be made or entered at all, fails on anything else.
#
# Usage: Tests/arm64/run.sh [-- COMMAND [ARGS...]]   (COMMAND runs in the checkout inside the arm64
#        root, under emulation, instead of the tests, e.g. -- .build-arm64/debug/flywheel --version)
set -euo pipefail
cd "$(dirname "$0")/../.."
name="arm64 lane"
source Tests/arm64/common.sh
skip() { say "skipped: $*"; exit 0; }
[ "${1:-}" != "--" ] || shift

if [ "$(id -u)" -ne 0 ]; then
    command -v sudo > /dev/null && sudo -n true 2> /dev/null || skip "it needs root or password-less sudo (debootstrap, chroot, binfmt_misc)."
fi
[ "$(uname -m)" = x86_64 ] || skip "it cross-builds from x86_64, this is $(uname -m) (on an arm64 machine the distro lane is the arm64 lane)."
unshare --mount --propagation private true 2> /dev/null || sudo -n unshare --mount --propagation private true 2> /dev/null ||
    skip "this machine does not allow a mount namespace (unshare --mount), so the roots cannot be entered."

start=$(milliseconds)
Tests/distro/prepare.sh
Tests/distro/prepare.sh --arch arm64
Tests/scripts/binfmt.sh arm64
prepared=$(milliseconds)
say "Debian $(cat "$host_root/etc/debian_version") amd64 and arm64 roots ready in $(seconds "$start" "$prepared") s"

# The cross build, in the amd64 root with the arm64 root at /build/sysroot.
status=0
Tests/distro/enter.sh "$host_root" --sysroot "$arm_root" -- bash -euo pipefail -c '
    . Tests/scripts/cross.sh
    cross_options /build/sysroot
    swift --version 2>&1 | sed -n 1p
    swift build --scratch-path "$1" "${cross[@]}" -Xswiftc -warnings-as-errors --build-tests 2>&1 |
        grep -v "warning: Could not read SDKSettings.json for SDK at: /build/sysroot"
    test "$(head -c 20 "$1/aarch64-unknown-linux-gnu/debug/flywheeld" | od -An -tx1 -j18 -N2 | tr -d " ")" = b700 ||
        { echo "arm64 lane: $1/aarch64-unknown-linux-gnu/debug/flywheeld is not an AArch64 executable" >&2; exit 1; }
' sh "$scratch" || status=$?
built=$(milliseconds)
say "cross-built for arm64 (tests included) in $(seconds "$prepared" "$built") s"
[ "$status" -eq 0 ] || { say "failed: the cross build (status $status)."; exit 1; }

# The tests (or COMMAND) in the arm64 root, under qemu-user; the build's runtime path is the root's own.
[ $# -gt 0 ] || set -- sh -euc '
    swift --version 2>&1 | head -n 1
    "$1/debug/flywheel" --version
    swift test --skip-build --scratch-path "$1"' sh "$scratch"
Tests/distro/enter.sh "$arm_root" --lane arm64 -- "$@" || status=$?
finished=$(milliseconds)
say "ran in the arm64 root under qemu-user in $(seconds "$built" "$finished") s"
[ "$status" -eq 0 ] || { say "failed (status $status)."; exit 1; }
