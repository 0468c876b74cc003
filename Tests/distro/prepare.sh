#!/usr/bin/env bash
# Prepares the distro lane (README.md beside this file): a Debian 13 (trixie) root made with
# debootstrap, the base of current Raspberry Pi OS, with Debian's own Swift (swiftlang 6.0.3),
# libgpiod 2 (libgpiod-dev 2.2.1), libevdev-dev and pkg-config installed in it, as a new user on a
# current Pi would build Flywheel, and the C++ library's static archive, which the package's release
# build links in. Each step runs only when its output is missing, so once done a run takes a
# fraction of a second.
#
# With --arch arm64 on an x86_64 machine it makes the same root for the Raspberry Pi's CPU (a
# foreign root: its programs run under qemu-user through binfmt_misc, which it sets up), with what
# the arm64 lane needs besides (Tests/arm64/README.md): python3 for the tests' helpers, and
# dpkg-dev and binutils to build and check the arm64 package there (lintian runs on the host).
#
# Usage: Tests/distro/prepare.sh [--arch arm64]
# Cache: $FLYWHEEL_DISTRO_CACHE, else ~/.cache/flywheel-distro: the root (about 2.7 GB, most of it
#        the Swift toolchain); for --arch arm64, $FLYWHEEL_ARM64_CACHE, else
#        ~/.cache/flywheel-distro-arm64. Delete it to start afresh (there is nothing to unmount:
#        run.sh's mounts live in a mount namespace that ends with it).
# Mirror: $FLYWHEEL_DISTRO_MIRROR, else http://deb.debian.org/debian.
# Needs: Debian on x86_64 or arm64 with apt, as root or with sudo. Installs debootstrap (and for a
#        foreign root qemu-user-static and binfmt-support).
set -euo pipefail

PATH=$PATH:/usr/sbin:/sbin
arch=$(dpkg --print-architecture)
native=$arch
case ${1:-} in
    --arch) [ $# -ge 2 ] || { echo "usage: Tests/distro/prepare.sh [--arch arm64]" >&2; exit 2; }; arch=$2 ;;
    "") ;;
    *) echo "usage: Tests/distro/prepare.sh [--arch arm64]" >&2; exit 2 ;;
esac
cache=${FLYWHEEL_DISTRO_CACHE:-$HOME/.cache/flywheel-distro}
[ "$arch" = "$native" ] || cache=${FLYWHEEL_ARM64_CACHE:-$HOME/.cache/flywheel-distro-$arch}
mirror=${FLYWHEEL_DISTRO_MIRROR:-http://deb.debian.org/debian}
suite=trixie
# What a new user installs to build Flywheel, plus the C library's headers the toolchain needs
# (Debian's swiftlang depends on gcc but not on libc6-dev).
packages=(swiftlang libgpiod-dev libevdev-dev pkg-config libc6-dev)
# The arm64 lane runs the tests and checks the package in the foreign root.
[ "$arch" = "$native" ] || packages+=(python3 dpkg-dev binutils)
mkdir -p "$cache"
exec 9> "$cache/.lock"
flock 9
source "$(dirname "$0")/../scripts/prepare-steps.sh"

host_packages() {
    if [ "$arch" = "$native" ]; then
        install_missing debootstrap
    else
        install_missing debootstrap qemu-user-static binfmt-support
        "$(dirname "$0")/../scripts/binfmt.sh" "$arch"
    fi
}

debootstrap_root() {
    "${sudo[@]}" rm -rf "$cache/root.tmp"
    "${sudo[@]}" debootstrap --arch="$arch" --variant=minbase "$suite" "$cache/root.tmp" "$mirror" > "$cache/debootstrap.log" 2>&1 ||
        { tail -n 30 "$cache/debootstrap.log" >&2; die "debootstrap $suite from $mirror failed (log: $cache/debootstrap.log)"; }
    "${sudo[@]}" mv "$cache/root.tmp" "$cache/base"
}

# apt-get in the root, in a mount namespace of its own so its /proc goes away with it.
# in_root ROOT COMMAND: runs the shell COMMAND in ROOT with /proc mounted, in a mount namespace of
# its own so its /proc goes away with it.
in_root() {
    "${sudo[@]}" unshare --mount --propagation private sh -euc 'mount -t proc proc "$1/proc"; chroot "$1" sh -c "$2"' sh "$1" "$2"
}

install_packages() {
    in_root "$cache/base" "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${packages[*]} && apt-get clean" \
        > "$cache/apt-root.log" 2>&1 ||
        { tail -n 30 "$cache/apt-root.log" >&2; die "apt-get install ${packages[*]} in the $suite root failed (log: $cache/apt-root.log)"; }
    "${sudo[@]}" mv "$cache/base" "$cache/root"
}

# The packages a root made before the list grew lacks.
missing_packages() {
    in_root "$cache/root" "for p in ${packages[*]}; do dpkg-query -W -f='\${Status}' \$p 2> /dev/null | grep -q 'install ok installed' || echo \$p; done"
}
install_missing_packages() {
    in_root "$cache/root" "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $* && apt-get clean" \
        > "$cache/apt-root.log" 2>&1 ||
        { tail -n 30 "$cache/apt-root.log" >&2; die "apt-get install $* in the $suite root failed (log: $cache/apt-root.log)"; }
}

# The C++ library's static archive, which the release build links in (udev/release-build.sh): the
# development package of the root's own GCC (Debian's swiftlang depends on gcc, which does not
# bring it). Installed when the root lacks it, so a root made before it was needed gets it too.
cxx_archive() {
    in_root "$cache/root" "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libstdc++-\$(gcc -dumpversion)-dev && apt-get clean" \
        > "$cache/apt-cxx.log" 2>&1 ||
        { tail -n 30 "$cache/apt-cxx.log" >&2; die "apt-get install of the C++ library's development package in the $suite root failed (log: $cache/apt-cxx.log)"; }
}

started=$EPOCHREALTIME
timed "host packages" host_packages
[ -d "$cache/root" ] || [ -d "$cache/base" ] || timed "debootstrap $suite" debootstrap_root
[ -d "$cache/root" ] || timed "install ${packages[0]} and the rest" install_packages
missing=$(missing_packages)
# shellcheck disable=SC2086 # one package a word
[ -z "$missing" ] || timed "install $(echo $missing)" install_missing_packages $missing
compgen -G "$cache/root/usr/lib/gcc/*/*/libstdc++.a" > /dev/null || timed "install the C++ library's static archive" cxx_archive
say "Debian $(cat "$cache/root/etc/debian_version") $arch root ready in $cache/root, $(awk -v s="$started" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.1f", e - s }') s"
