#!/usr/bin/env bash
# Runs COMMAND in the checkout inside a Debian root made by prepare.sh, the way the distro lane and
# the arm64 lane do: chroot in a mount namespace of this run's own (the mounts vanish with it) with
# /proc, /sys, the host's /dev, a fresh /tmp, the checkout at /build/flywheel and ../shared, when it
# is there, read-only at /build/shared; with --sysroot DIR, DIR (another root) read-only at
# /build/sysroot, for a cross build. The environment is plain (PATH, HOME, LANG, TERM, CI,
# FLYWHEEL_LANE, and PKG_CONFIG_PATH and PKG_CONFIG_SYSROOT_DIR when set). The build folders the
# command leaves in the checkout are given the checkout's owner.
#
# Usage: Tests/distro/enter.sh ROOT [--sysroot DIR] [--lane NAME] -- COMMAND [ARGS...]
set -euo pipefail
cd "$(dirname "$0")/../.."
checkout=$PWD
root=${1:?usage: enter.sh ROOT [--sysroot DIR] [--lane NAME] -- COMMAND [ARGS...]}
shift
sysroot="" lane=distro
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case $1 in
        --sysroot) sysroot=$2; shift 2 ;;
        --lane) lane=$2; shift 2 ;;
        *) echo "usage: enter.sh ROOT [--sysroot DIR] [--lane NAME] -- COMMAND [ARGS...]" >&2; exit 2 ;;
    esac
done
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "enter.sh: no COMMAND" >&2; exit 2; }
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
"${sudo[@]}" unshare --mount --propagation private sh -euc '
    root=$1 checkout=$2 sysroot=$3 lane=$4
    shift 4
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount --make-rslave "$root/dev"
    mount -t sysfs sysfs "$root/sys"
    mount -t tmpfs tmpfs "$root/tmp"
    mkdir -p "$root/build/flywheel" "$root/build/shared" "$root/build/sysroot"
    mount --bind "$checkout" "$root/build/flywheel"
    [ ! -d "$checkout/../shared" ] || mount --bind -o ro "$checkout/../shared" "$root/build/shared"
    [ -z "$sysroot" ] || mount --bind -o ro "$sysroot" "$root/build/sysroot"
    status=0
    # FLYWHEEL_LANE: the tests CI requires on the host (a browser among them) may skip in a lane.
    chroot "$root" env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root LANG=C.UTF-8 TERM=dumb \
        CI="${CI:-}" FLYWHEEL_LANE="$lane" ${PKG_CONFIG_PATH:+PKG_CONFIG_PATH="$PKG_CONFIG_PATH"} \
        ${PKG_CONFIG_SYSROOT_DIR:+PKG_CONFIG_SYSROOT_DIR="$PKG_CONFIG_SYSROOT_DIR"} \
        sh -c "cd /build/flywheel && exec \"\$@\"" sh "$@" || status=$?
    for scratch in "$checkout"/.build-*; do
        [ ! -d "$scratch" ] || chown -R "$(stat -c %u:%g "$checkout")" "$scratch"
    done
    exit $status
' sh "$root" "$checkout" "$sysroot" "$lane" "$@" < /dev/null
