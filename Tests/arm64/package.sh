#!/usr/bin/env bash
# The arm64 package as CI builds it (README.md beside this file): the release build cross-compiled
# for arm64 by Debian 13's Swift in the distro lane's root (udev/release-build.sh --cross-sysroot,
# the Swift runtime and the C++ library linked statically from the arm64 root), then packaged and
# checked inside the arm64 root under qemu-user, where dpkg-shlibdeps, ldd and dpkg -S answer for
# arm64: udev/build-deb.sh (flywheel_VERSION-1+deb13_arm64.deb), Tests/distro/package.sh's checks
# (Depends on libgpiod3, no Swift runtime, no shared C++ library, libgpiod's v2 API, the shipped
# configuration) and Tests/system/check-package.sh (every file and its mode, Depends against what
# the binaries link, AArch64, stripped, the unpacked daemon serving the demo); lintian runs on this
# machine, as for the amd64 package. Prints the package's path last.
#
# Usage: Tests/arm64/package.sh   (after Tests/arm64/run.sh, which prepares the roots)
set -euo pipefail
cd "$(dirname "$0")/../.."
name="arm64 package"
source Tests/arm64/common.sh
[ -d "$arm_root" ] && [ -d "$host_root" ] || { say "the roots are not prepared: run Tests/arm64/run.sh first"; exit 1; }

start=$(milliseconds)
Tests/distro/enter.sh "$host_root" --sysroot "$arm_root" -- bash -euo pipefail -c '
    bash udev/release-build.sh --scratch-path "$1" --cross-sysroot /build/sysroot flywheeld flywheel 2>&1 |
        grep -v "warning: Could not read SDKSettings.json for SDK at: /build/sysroot"
' sh "$scratch" >&2
built=$(milliseconds)
say "release build cross-compiled in $(seconds "$start" "$built") s"
deb=$(Tests/distro/enter.sh "$arm_root" --lane arm64 -- sh -euc '
    deb=$(bash Tests/distro/package.sh --no-build --scratch-path "$1" | tail -n 1)
    FLYWHEEL_LINTIAN=skip bash Tests/system/check-package.sh "$deb" >&2
    echo "$deb"' sh "$scratch" | tail -n 1)
packaged=$(milliseconds)
say "packaged and checked in the arm64 root in $(seconds "$built" "$packaged") s: $deb"
case $(basename "$deb") in flywheel_*-1+deb13_arm64.deb) ;; *) say "unexpected package name: $deb"; exit 1 ;; esac
bash Tests/system/check-package.sh --lintian-only "$deb" >&2
echo "$deb"
