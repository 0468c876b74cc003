#!/usr/bin/env bash
# Lets this machine run another CPU's Linux programs under qemu-user (Debian's qemu-user-static,
# registered by binfmt-support): mounts binfmt_misc when it is not mounted, enables the handler for
# ARCH (a Debian architecture: arm64) and checks that it is enabled with the F flag, so that the
# kernel opens the interpreter at registration and programs run inside a chroot too.
#
# Usage: Tests/scripts/binfmt.sh ARCH   (as root or with sudo; exit status 1 when it cannot be done)
set -euo pipefail
PATH=$PATH:/usr/sbin:/sbin
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
case ${1:?usage: binfmt.sh ARCH} in
    arm64) cpu=aarch64 ;;
    armhf) cpu=arm ;;
    *) echo "binfmt: no qemu-user handler known for Debian architecture $1" >&2; exit 1 ;;
esac
entry=/proc/sys/fs/binfmt_misc/qemu-$cpu
if ! [ -e /proc/sys/fs/binfmt_misc/status ]; then
    "${sudo[@]}" mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
        { echo "binfmt: binfmt_misc cannot be mounted at /proc/sys/fs/binfmt_misc" >&2; exit 1; }
fi
[ -e "$entry" ] && grep -qx enabled "$entry" || "${sudo[@]}" update-binfmts --enable "qemu-$cpu" ||
    { echo "binfmt: update-binfmts --enable qemu-$cpu failed (is qemu-user-static installed?)" >&2; exit 1; }
grep -qx enabled "$entry" && grep -q '^flags:.*F' "$entry" ||
    { echo "binfmt: $entry is not enabled with the F flag:" >&2; cat "$entry" >&2; exit 1; }
