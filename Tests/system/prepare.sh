#!/usr/bin/env bash
# Prepares the system lane (README.md beside this file): a minimal Debian 12 root made with
# debootstrap (systemd, udev, python3 and the libraries the package depends on, so that the package
# installs offline), with the lane's runner unit in it, as an ext4 image; and an initramfs that
# mounts that image as / and starts systemd on it. The kernel and its modules are the kernel
# lane's (Tests/kernel/prepare.sh, run first). Each step runs only when its output is missing or
# older than what it is made from, so once done a run takes a fraction of a second.
#
# With --arch arm64 it prepares the arm64 system lane instead: a minimal Debian 13 arm64 root
# (debootstrap under qemu-user, Tests/scripts/binfmt.sh) with the same packages for Debian 13
# (libgpiod3) and Debian's own arm64 kernel (linux-image-arm64, 6.12, uinput a module) and the
# initramfs Debian's initramfs-tools makes for it, which mounts /dev/vda as /; qemu-system-aarch64
# boots the image's own kernel.
#
# Usage: Tests/system/prepare.sh [--arch arm64]
# Cache: $FLYWHEEL_SYSTEM_CACHE, else ~/.cache/flywheel-system (about 600 MB); for --arch arm64
#        ~/.cache/flywheel-system-arm64 (about 900 MB). Delete it to start from Debian's current packages.
# Needs: Debian on x86_64 with apt, as root or with sudo (debootstrap must own the root's files as
#        root). Installs debootstrap and e2fsprogs (and for arm64 qemu-user-static, binfmt-support
#        and qemu-system-arm); downloads about 60 MB of Debian packages (arm64: about 150 MB) from
#        the mirror the host's apt uses ($FLYWHEEL_DEBIAN_MIRROR overrides it).
set -euo pipefail

PATH=$PATH:/usr/sbin:/sbin
here=$(cd "$(dirname "$0")" && pwd)
arch=amd64
case ${1:-} in
    --arch) case ${2:-} in amd64 | arm64) arch=$2 ;; *) echo "usage: Tests/system/prepare.sh [--arch arm64]" >&2; exit 2 ;; esac ;;
    "") ;;
    *) echo "usage: Tests/system/prepare.sh [--arch arm64]" >&2; exit 2 ;;
esac
cache=${FLYWHEEL_SYSTEM_CACHE:-$HOME/.cache/flywheel-system}
[ "$arch" = amd64 ] || cache=$HOME/.cache/flywheel-system-$arch
kernel_cache=${FLYWHEEL_KERNEL_CACHE:-$HOME/.cache/flywheel-kernel}
mkdir -p "$cache"
exec 9> "$cache/.lock"
flock 9

script_name=prepare-system
source "$here/../scripts/prepare-steps.sh"

# The packages in the root: systemd as init, udev, D-Bus (systemd-run and logind need it, and a
# music box has it), python3 for the tests, and what the flywheel package depends on (an offline
# `apt install ./flywheel_*.deb` must find everything), and websocketd, which flywheel-web.service
# runs (the package suggests it). A changed list makes the root anew.
packages=systemd,systemd-sysv,udev,dbus,kmod,procps,python3,libevdev2,libgpiod2,passwd,libstdc++6,libgcc-s1,websocketd
suite=bookworm
image_size=1536M
if [ "$arch" = arm64 ]; then
    image_size=2560M
    # Debian 13, as current Raspberry Pi OS: libgpiod 2 (libgpiod3), and the image's own kernel and initramfs.
    packages=systemd,systemd-sysv,udev,dbus,kmod,procps,python3,libevdev2,libgpiod3,passwd,libstdc++6,libgcc-s1,websocketd
    packages+=,linux-image-arm64,initramfs-tools,zstd
    suite=trixie
fi

mirror() {
    [ -z "${FLYWHEEL_DEBIAN_MIRROR:-}" ] || { echo "$FLYWHEEL_DEBIAN_MIRROR"; return; }
    local found
    found=$(cat /etc/apt/sources.list.d/*.sources 2> /dev/null | awk '$1 == "URIs:" && $2 ~ /\/debian\/?$/ { print $2; exit }')
    [ -n "$found" ] || found=$(awk '$1 == "deb" && $2 !~ /^\[/ && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list 2> /dev/null)
    echo "${found:-http://deb.debian.org/debian}"
}

bootstrap() {
    "${sudo[@]}" rm -rf "$cache/root.tmp"
    "${sudo[@]}" debootstrap --arch="$arch" --variant=minbase --include="$packages" "$suite" "$cache/root.tmp" "$(mirror)" \
        > "$cache/debootstrap.log" 2>&1 || { tail -n 30 "$cache/debootstrap.log" >&2; die "debootstrap failed"; }
    "${sudo[@]}" rm -rf "$cache/root.tmp/var/cache/apt/archives/"*.deb
    "${sudo[@]}" rm -rf "$cache/root"
    "${sudo[@]}" mv "$cache/root.tmp" "$cache/root"
    echo "$packages" > "$cache/root.packages"
}

# The image: the root plus the lane's runner (a unit that runs the job the host shares over 9p)
# and a quiet, quick boot. Made anew when the runner changes.
make_image() {
    local tree=$cache/image-tree
    "${sudo[@]}" rm -rf "$tree" "$cache/root.img.tmp"
    "${sudo[@]}" cp -a "$cache/root" "$tree"
    "${sudo[@]}" sh -c "
        set -e
        echo flywheel-lane > '$tree/etc/hostname'
        echo '/dev/vda / ext4 rw,noatime 0 1' > '$tree/etc/fstab'
        : > '$tree/etc/machine-id'
        mkdir -p '$tree/usr/lib/modules' '$tree/job'
        install -m 0755 '$here/guest-runner.sh' '$tree/usr/local/sbin/flywheel-lane-runner'
        install -m 0644 '$here/flywheel-lane.service' '$tree/etc/systemd/system/flywheel-lane.service'
        ln -sf /etc/systemd/system/flywheel-lane.service '$tree/etc/systemd/system/multi-user.target.wants/flywheel-lane.service'
        # No logins, no clocks to sync, no timers: the guest only runs the lane.
        for unit in getty@tty1.service serial-getty@ttyS0.service serial-getty@ttyAMA0.service systemd-timesyncd.service apt-daily.timer \
            apt-daily-upgrade.timer dpkg-db-backup.timer e2scrub_all.timer fstrim.timer systemd-tmpfiles-clean.timer; do
            ln -sf /dev/null '$tree/etc/systemd/system/'\$unit
        done
    "
    "${sudo[@]}" mke2fs -q -t ext4 -L flywheel-lane -d "$tree" "$cache/root.img.tmp" "$image_size" > /dev/null
    "${sudo[@]}" rm -rf "$tree"
    mv "$cache/root.img.tmp" "$cache/root.img"
}

# busybox and the modules to reach the image (virtio-blk, ext4) and the kernel lane's module tree
# (9p); system-init.sh is its /init.
make_initramfs() {
    "$here/../kernel/make-initramfs.sh" "$here/system-init.sh" "$cache/initramfs.cpio" "$kernel_cache/modules" \
        "$(cat "$kernel_cache/ready")" virtio_pci virtio_blk ext4 9pnet_virtio 9p
}

# The arm64 guest boots the image's own kernel with the initramfs initramfs-tools made for it
# (taken out of the image, where nothing reads them), its modules in the image.
arm64_boot_files() {
    local kernel initrd
    kernel=$(ls "$cache/root/boot/"vmlinuz-* | sort -V | tail -n 1)
    initrd=$(ls "$cache/root/boot/"initrd.img-* | sort -V | tail -n 1)
    [ -f "$kernel" ] && [ -f "$initrd" ] || die "the arm64 root has no /boot/vmlinuz-* and initrd.img-*"
    cp "$kernel" "$cache/vmlinuz.tmp" && mv "$cache/vmlinuz.tmp" "$cache/vmlinuz"
    cp "$initrd" "$cache/initrd.img.tmp" && mv "$cache/initrd.img.tmp" "$cache/initrd.img"
}

started=$EPOCHREALTIME
[ "$(uname -m)" = x86_64 ] || die "the system lane needs an x86_64 host, this is $(uname -m)"
if [ "$arch" = arm64 ]; then
    timed "host packages" install_missing debootstrap e2fsprogs qemu-utils qemu-user-static binfmt-support qemu-system-arm
    timed "qemu-user for arm64" "$here/../scripts/binfmt.sh" arm64
else
    timed "the kernel lane's kernel" "$here/../kernel/prepare.sh"
    timed "host packages" install_missing debootstrap e2fsprogs qemu-utils busybox-static cpio kmod
fi
[ -d "$cache/root" ] && [ "$(cat "$cache/root.packages" 2> /dev/null)" = "$packages" ] || timed "debootstrap $suite $arch" bootstrap
if ! [ "$cache/root.img" -nt "$here/guest-runner.sh" ] || ! [ "$cache/root.img" -nt "$here/flywheel-lane.service" ] ||
    ! [ "$cache/root.img" -nt "$cache/root.packages" ]; then
    timed "root image" make_image
fi
if [ "$arch" = arm64 ]; then
    [ "$cache/initrd.img" -nt "$cache/root.packages" ] || timed "kernel and initramfs" arm64_boot_files
elif ! [ "$cache/initramfs.cpio" -nt "$here/system-init.sh" ] || ! [ "$cache/initramfs.cpio" -nt "$kernel_cache/kernel" ]; then
    timed "initramfs" make_initramfs
fi
say "Debian $(cat "$cache/root/etc/debian_version") $arch root image ready in $cache, $(awk -v s="$started" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.1f", e - s }') s"
