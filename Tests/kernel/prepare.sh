#!/usr/bin/env bash
# Prepares the kernel test lane (README.md beside this file): Debian's own kernel, which has
# uinput, with gpio-sim and irq_sim built out of tree for it, a copy of its module tree holding
# them, and a busybox initramfs whose /init is guest-init.sh, all for run-in-guest.sh to boot
# under QEMU. Each step runs only when its output is missing (the initramfs also when
# guest-init.sh is newer), so once done a run takes a fraction of a second.
#
# Usage: Tests/kernel/prepare.sh
# Cache: $FLYWHEEL_KERNEL_CACHE, else ~/.cache/flywheel-kernel. It keeps the kernel it was first
#        prepared with; delete it to move to Debian's current one.
# Needs: Debian 12 on x86_64 with apt, as root or with sudo. Installs qemu-system-x86,
#        busybox-static, kmod, cpio, xz-utils, build-essential, bc, flex, bison, libelf-dev,
#        gpiod, alsa-utils (aseqdump, for the MIDI test) and the kernel's linux-headers package; downloads (never installs) the kernel's
#        linux-image and the matching linux-source package, about 210 MB.
set -euo pipefail

PATH=$PATH:/usr/sbin:/sbin
here=$(cd "$(dirname "$0")" && pwd)
cache=${FLYWHEEL_KERNEL_CACHE:-$HOME/.cache/flywheel-kernel}
mkdir -p "$cache"
exec 9> "$cache/.lock"
flock 9

# say, die, timed, apt_update, install_missing, sudo and the failure report.
script_name=prepare
source "$here/../scripts/prepare-steps.sh"

pick_kernel() {
    apt_update
    local image
    image=$(apt-cache depends linux-image-amd64 | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -n 1)
    [ -n "$image" ] || die "apt-cache depends linux-image-amd64 names no linux-image-N package"
    printf '%s %s\n' "${image#linux-image-}" \
        "$(apt-cache show --no-all-versions "$image" | sed -n 's/^Version: //p')" > "$cache/version"
}

download() {
    apt_update
    rm -rf "$cache/debs.tmp"
    mkdir "$cache/debs.tmp"
    (cd "$cache/debs.tmp" &&
        apt-get download -qq -o APT::Sandbox::User=root "linux-image-$kver=$pkgver" "linux-source-$series=$pkgver")
    mv "$cache/debs.tmp" "$cache/debs"
}

unpack_image() {
    rm -rf "$cache/image.tmp"
    dpkg-deb -x "$cache/debs/linux-image-${kver}_${pkgver}_amd64.deb" "$cache/image.tmp"
    mv "$cache/image.tmp" "$cache/image"
}

# The uncompressed vmlinux boots straight into the kernel (PVH), under TCG about 1.5 s sooner
# than vmlinuz, which first decompresses itself.
extract_vmlinux() {
    local vmlinuz=$cache/image/boot/vmlinuz-$kver offset
    offset=$(LC_ALL=C grep -m 1 -obUaP '\xfd7zXZ\x00' "$vmlinuz" | cut -d: -f1 || true)
    if [ -n "$offset" ] &&
        xz -dc --single-stream < <(tail -c "+$((offset + 1))" "$vmlinuz") > "$cache/kernel.tmp" &&
        [ "$(head -c 4 "$cache/kernel.tmp")" = $'\x7fELF' ]; then
        say "extracted vmlinux from vmlinuz-$kver: it boots directly (PVH)"
    else
        say "could not extract vmlinux from vmlinuz-$kver: booting vmlinuz, which is slower"
        cp "$vmlinuz" "$cache/kernel.tmp"
    fi
    mv "$cache/kernel.tmp" "$cache/kernel"
}

# gpio-sim is not enabled in Debian's 6.1 kernel, nor irq_sim, which it needs. Both build out of
# tree from linux-source; irq_sim becomes a module of its own, which must not call irq_to_desc
# (not exported in 6.1) and must declare its licence.
build_gpio_sim() {
    local dir=$cache/gpio-sim.tmp top=linux-source-$series
    rm -rf "$dir"
    mkdir "$dir"
    dpkg-deb --fsys-tarfile "$cache/debs/linux-source-${series}_${pkgver}_all.deb" |
        tar -xO "./usr/src/$top.tar.xz" > "$dir/source.tar.xz"
    tar -xJf "$dir/source.tar.xz" -C "$dir" --strip-components=3 --occurrence \
        "$top/drivers/gpio/gpio-sim.c" "$top/drivers/gpio/gpiolib.h" "$top/kernel/irq/irq_sim.c"
    rm "$dir/source.tar.xz"
    sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq_safe(irqnum);/' "$dir/irq_sim.c"
    grep -q 'generic_handle_irq_safe(irqnum)' "$dir/irq_sim.c" ||
        die "irq_sim.c in linux-source-$series $pkgver no longer has the irq_to_desc call this patches"
    echo 'MODULE_LICENSE("GPL");' >> "$dir/irq_sim.c"
    echo 'obj-m := irq_sim.o gpio-sim.o' > "$dir/Kbuild"
    make -C "/lib/modules/$kver/build" M="$dir" -j2 modules > "$dir/build.log" 2>&1 ||
        { cat "$dir/build.log" >&2; die "building gpio-sim and irq_sim failed"; }
    mv "$dir" "$cache/gpio-sim"
}

# A copy (hard links) of the kernel's module tree with the two modules in extra/ and depmod run
# over it, so that modprobe finds them all in the guest, where it is shared as /lib/modules.
make_module_tree() {
    local tree=$cache/modules.tmp/lib/modules/$kver
    rm -rf "$cache/modules.tmp"
    mkdir -p "$(dirname "$tree")"
    cp -al "$cache/image/lib/modules/$kver" "$tree"
    mkdir "$tree/extra"
    cp "$cache/gpio-sim/gpio-sim.ko" "$cache/gpio-sim/irq_sim.ko" "$tree/extra/"
    depmod -b "$cache/modules.tmp" "$kver"
    mv "$cache/modules.tmp" "$cache/modules"
}

# busybox, guest-init.sh as /init and the modules it loads before it can reach the host's files:
# virtio-pci, 9p (with netfs and fscache), overlay and configfs, in modprobe's order.
make_initramfs() {
    "$here/make-initramfs.sh" "$here/guest-init.sh" "$cache/initramfs.cpio" "$cache/modules" "$kver" \
        virtio_pci 9pnet_virtio 9p overlay configfs
}

started=$EPOCHREALTIME
[ "$(uname -m)" = x86_64 ] || die "the kernel test lane needs an x86_64 host, this is $(uname -m)"
[ -s "$cache/version" ] || timed "pick the kernel" pick_kernel
read -r kver pkgver < "$cache/version"
series=$(cut -d. -f1,2 <<< "$kver")

timed "host packages" install_missing qemu-system-x86 busybox-static kmod cpio xz-utils \
    build-essential bc flex bison libelf-dev gpiod alsa-utils "linux-headers-$kver=$pkgver"
[ -d "$cache/debs" ] || timed "download linux-image, linux-source" download
[ -d "$cache/image" ] || timed "unpack linux-image-$kver" unpack_image
[ -f "$cache/kernel" ] || timed "extract vmlinux" extract_vmlinux
[ -d "$cache/gpio-sim" ] || timed "build gpio-sim, irq_sim" build_gpio_sim
[ -d "$cache/modules" ] || timed "module tree and depmod" make_module_tree
[ "$cache/initramfs.cpio" -nt "$here/guest-init.sh" ] || timed "initramfs" make_initramfs
echo "$kver" > "$cache/ready"
say "kernel $kver ($pkgver) ready in $cache, $(awk -v s="$started" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.1f", e - s }') s"
