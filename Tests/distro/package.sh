#!/usr/bin/env bash
# Run inside the Debian 13 root by the distro lane (Tests/distro/run.sh -- bash Tests/distro/package.sh):
# builds Flywheel's Debian package for Debian 13 with Debian's own Swift (udev/build-deb.sh, in the
# root's own build folder), and checks that its Depends name Debian 13's libraries — libgpiod3, not
# Debian 12's libgpiod2 — and that the package needs no Swift toolchain. Prints the package's path last.
# The arm64 lane runs it in its arm64 root with `--no-build --scratch-path .build-arm64`, on the
# release build it cross-compiled (Tests/arm64/package.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
scratch=.build-debian13
build=()
while [ $# -gt 0 ]; do
    case $1 in
        --no-build) build=(--no-build); shift ;;
        --scratch-path) scratch=$2; shift 2 ;;
        *) echo "usage: Tests/distro/package.sh [--no-build] [--scratch-path DIR]" >&2; exit 2 ;;
    esac
done
if ! command -v dpkg-shlibdeps > /dev/null || ! command -v strip > /dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends dpkg-dev binutils > /dev/null
fi
deb=$(FLYWHEEL_DEB_REVISION=1+deb13 bash udev/build-deb.sh "${build[@]}" --scratch-path "$scratch" --output "$scratch/deb" | tail -n 1)
depends=$(dpkg-deb -f "$deb" Depends)
echo "distro package: $(basename "$deb"): Depends: $depends" >&2
fail() { echo "distro package: $*" >&2; exit 1; }
case $depends in *libgpiod3*) ;; *) fail "Depends does not name libgpiod3 (Debian 13's libgpiod 2.x)." ;; esac
case $depends in *"libgpiod2 "* | *"libgpiod2,"* | *libgpiod2) fail "Depends names Debian 12's libgpiod2." ;; esac
case $depends in *libswift*) fail "Depends names the Swift runtime: the runtime should be linked in statically." ;; esac
case $depends in *libstdc++*) fail "Depends names the C++ library: it should be linked in statically (udev/release-build.sh)." ;; esac
rm -rf /tmp/flywheel-unpacked
dpkg-deb -x "$deb" /tmp/flywheel-unpacked
/tmp/flywheel-unpacked/usr/bin/flywheel --version | grep -q "v2 API" || fail "the packaged flywheel does not use libgpiod's v2 API."
# The packaged daemon starts and reads the shipped configuration and device profiles (its link
# keeps only the functions it reaches, each in its own section: udev/release-build.sh).
/tmp/flywheel-unpacked/usr/bin/flywheeld --check-config --config udev/flywheel.json5 > /dev/null \
    || fail "the packaged flywheeld did not check the shipped configuration."
echo "$deb"
