#!/usr/bin/env bash
# The system lane as CI runs it, after the kernel lane: Flywheel's Debian package installed with apt
# on a minimal Debian 12 booted under QEMU with systemd as init and udev (prepare.sh makes the image,
# cached; the kernel is the kernel lane's). In the guest, Tests/system/tests/system_lane.py plugs in
# a ShuttleXpress made with uinput and checks, through a client in the audio group, that udev tags it,
# systemd starts flywheeld and tempo and scrub events arrive; unplug and replug; socket activation;
# `systemctl reload`; the unit's sandbox (no AF_INET socket, nothing written outside its runtime
# directory); the OSC bridge's unit, flywheel-osc@, sending a set tempo to a UDP receiver; the web
# feed's unit (websocketd, loopback only) serving the page and the protocol over a WebSocket; the
# keys unit's virtual keyboard (the uinput group, /dev/uinput 0660); flywheel-alsa@ on snd-dummy's
# mixer; the PipeWire bridge's user unit in a user's own manager; then it
# reboots the guest and checks that the configuration and the enabled socket
# survived, and that removing and purging the package undo the installation. Each run starts from
# the pristine image (a copy-on-write overlay, discarded afterwards). The times are reported; the
# lane skips with a message only where QEMU cannot run.
#
# With --arch arm64 the same journey runs on the Raspberry Pi's CPU: the arm64 package installed on a
# minimal Debian 13 arm64 booted under qemu-system-aarch64 (TCG) with Debian's own arm64 kernel
# (prepare.sh --arch arm64).
#
# Usage: Tests/system/lane.sh [--arch arm64] [PACKAGE.deb]   (default: the one udev/build-deb.sh left in .build/deb)
# Exit status: 0 passed or skipped, 1 failed.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=$PWD/Tests/system
arch=amd64
if [ "${1:-}" = --arch ]; then
    [ "${2:-}" = arm64 ] || { echo "usage: Tests/system/lane.sh [--arch arm64] [PACKAGE.deb]" >&2; exit 2; }
    arch=arm64
    shift 2
fi
cache=${FLYWHEEL_SYSTEM_CACHE:-$HOME/.cache/flywheel-system}
[ "$arch" = amd64 ] || cache=$HOME/.cache/flywheel-system-$arch
kernel_cache=${FLYWHEEL_KERNEL_CACHE:-$HOME/.cache/flywheel-kernel}
say() { echo "system lane: $*" >&2; }
seconds_since() { awk -v s="$1" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.1f", e - s }'; }
qemu_value() { printf '%s' "${1//,/,,}"; }

deb=${1:-$(ls .build/deb/flywheel_*_"$arch".deb 2> /dev/null | head -n 1)}
[ -n "$deb" ] && [ -f "$deb" ] || { say "no package: run udev/build-deb.sh first"; exit 1; }
[ "$(uname -m)" = x86_64 ] || { say "skipped: the lane needs an x86_64 host, this is $(uname -m)."; exit 0; }

qemu=qemu-system-x86_64
[ "$arch" = amd64 ] || qemu=qemu-system-aarch64
start=$EPOCHREALTIME
if ! "$here/prepare.sh" --arch "$arch"; then
    command -v "$qemu" > /dev/null || { say "skipped: $qemu cannot be installed here."; exit 0; }
    say "prepare.sh failed"; exit 1
fi
"$qemu" --version > /dev/null 2>&1 || { say "skipped: $qemu does not run on this machine."; exit 0; }
prepared=$EPOCHREALTIME
say "image prepared in $(seconds_since "$start") s"

job=$(mktemp -d "${TMPDIR:-/tmp}/flywheel-system.XXXXXX")
guest=""
clean_up() {
    if [ -n "$guest" ]; then kill "$guest" 2> /dev/null || true; wait "$guest" || true; fi
    rm -rf "$job"
}
trap clean_up EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
cp "$deb" "$job/"
cp "$here/tests/system_lane.py" Tests/kernel/tests/kernel_lane.py "$job/"
printf 'cd /job\nexec python3 /job/system_lane.py %s\n' "$(basename "$deb")" > "$job/run"
qemu-img create -q -f qcow2 -b "$cache/root.img" -F raw "$job/disk.qcow2"

# As the kernel lane: TCG where KVM cannot run a stock kernel (a paravirtual KVM) or is missing.
if [ "$arch" = arm64 ]; then
    # Another CPU: TCG always. The image's own kernel and Debian's initramfs (root=/dev/vda), its
    # modules on its own disk.
    machine=(-machine virt -accel tcg,thread=multi -cpu max
        -kernel "$(qemu_value "$cache/vmlinuz")" -initrd "$(qemu_value "$cache/initrd.img")"
        -append "console=ttyAMA0 root=/dev/vda rw panic=-1 quiet loglevel=3 systemd.show_status=error net.ifnames=0")
elif [ -e /sys/module/kvm_pvm ] || ! [ -r /dev/kvm ] || ! [ -w /dev/kvm ]; then
    machine=(-machine q35 -accel tcg,thread=multi -cpu max)
else
    machine=(-machine q35 -accel kvm -cpu host)
fi
if [ "$arch" = amd64 ]; then
    machine+=(-kernel "$(qemu_value "$kernel_cache/kernel")" -initrd "$(qemu_value "$cache/initramfs.cpio")"
        -append "console=ttyS0 panic=-1 quiet loglevel=3 systemd.show_status=error net.ifnames=0"
        -virtfs "local,path=$(qemu_value "$kernel_cache/modules/lib/modules"),mount_tag=modules,security_model=none,readonly=on")
fi
# No -no-reboot: the test reboots the guest once, and powers it off at the end.
status=0
timeout -k 5 "${FLYWHEEL_SYSTEM_TIMEOUT:-900}" "$qemu" -nodefaults -no-user-config \
    "${machine[@]}" -smp 2 -m 2048 -display none -monitor none \
    -serial "file:$(qemu_value "$job/console.log")" \
    -drive "file=$(qemu_value "$job/disk.qcow2"),if=virtio,format=qcow2,cache=unsafe" \
    -virtfs "local,path=$(qemu_value "$job"),mount_tag=job,security_model=none" \
    < /dev/null > "$job/qemu.log" 2>&1 &
guest=$!
wait "$guest" || status=$?
guest=""
finished=$EPOCHREALTIME

[ -f "$job/output" ] && cat "$job/output"
if [ $status -eq 124 ] || [ $status -eq 137 ]; then
    say "timed out: killed the guest. The end of its console:"
    tail -n 40 "$job/console.log" >&2
    exit 1
fi
if ! [ -e "$job/output" ] && [ $status -ne 0 ]; then
    say "skipped: $qemu could not run the guest here: $(head -n 1 "$job/qemu.log")"
    exit 0
fi
say "$arch: two boots and the tests took $(seconds_since "$prepared") s; the lane $(seconds_since "$start") s in all"
if ! [ -s "$job/status" ] || [ "$(cat "$job/status")" != 0 ]; then
    say "failed (status $(cat "$job/status" 2> /dev/null || echo none)). The end of the guest's console:"
    tail -n 40 "$job/console.log" >&2
    exit 1
fi
