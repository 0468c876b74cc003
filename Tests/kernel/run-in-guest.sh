#!/usr/bin/env bash
# Runs a command as root inside a throwaway QEMU guest booted from Debian's own kernel (the kernel
# test lane, README.md beside this file), where uinput, evdev, configfs and gpio-sim load with
# modprobe. The guest sees the host's / read-only under a tmpfs overlay (writes vanish with the
# guest), with fresh /tmp, /run and /dev, configfs at /sys/kernel/config and the lane's modules at
# /lib/modules; each --share DIR is the host's DIR, read-write, at the same path. The command
# starts in the caller's directory when the guest has it (else /), with standard input empty and a
# plain environment (PATH, HOME=/root, LANG=C.UTF-8, TERM=dumb). Its standard output and error are
# printed, each to its own stream, when the guest has stopped.
#
# Usage: Tests/kernel/run-in-guest.sh [--timeout SECONDS] [--share DIR]... -- COMMAND [ARGS...]
# Exit status: COMMAND's; 124 when the run took longer than SECONDS (default 300) and the guest
#              was killed; 77, with a line starting "SKIP:", when QEMU cannot run on this machine;
#              125, with a message, when the lane itself fails.
# Needs: what prepare.sh puts in its cache ($FLYWHEEL_KERNEL_CACHE, else ~/.cache/flywheel-kernel);
#        runs prepare.sh first when that is incomplete.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${FLYWHEEL_KERNEL_CACHE:-$HOME/.cache/flywheel-kernel}

say() { echo "run-in-guest: $*" >&2; }
die() { say "$*"; exit 125; }
skip() { echo "SKIP: $*" >&2; exit 77; }
usage() { echo "usage: $0 [--timeout SECONDS] [--share DIR]... -- COMMAND [ARGS...]" >&2; exit 2; }
# QEMU option values escape a comma by doubling it.
qemu_value() { printf '%s' "${1//,/,,}"; }
# A word quoted for sh: in single quotes, each ' as '\''.
sh_quote() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

timeout=300
shares=()
while [ $# -gt 0 ]; do
    case $1 in
        --timeout)
            [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || usage
            timeout=$2
            shift 2 ;;
        --share)
            [ $# -ge 2 ] && [ -d "$2" ] || die "--share needs an existing directory"
            shares+=("$(cd "$2" && pwd -P)")
            shift 2 ;;
        --) shift; break ;;
        *) usage ;;
    esac
done
[ $# -gt 0 ] || usage

[ "$(uname -m)" = x86_64 ] || skip "the kernel test lane needs an x86_64 host, this is $(uname -m)"
if ! [ -f "$cache/ready" ] || ! [ "$cache/initramfs.cpio" -nt "$here/guest-init.sh" ] ||
    ! command -v qemu-system-x86_64 > /dev/null; then
    say "the lane's cache is incomplete: running prepare.sh"
    if ! "$here/prepare.sh"; then
        command -v qemu-system-x86_64 > /dev/null ||
            skip "qemu-system-x86_64 is not installed and could not be installed"
        die "prepare.sh failed"
    fi
fi
qemu-system-x86_64 --version > /dev/null 2>&1 || skip "qemu-system-x86_64 does not run on this machine"

# A paravirtual KVM (kvm_pvm) cannot run a stock kernel: QEMU aborts or the guest hangs.
if [ -e /sys/module/kvm_pvm ] || ! [ -r /dev/kvm ] || ! [ -w /dev/kvm ]; then
    accel=(-accel tcg,thread=multi -cpu max)
else
    accel=(-accel kvm -cpu host)
fi

job=$(mktemp -d "${TMPDIR:-/tmp}/flywheel-guest.XXXXXX")
guest=""
stop_guest_and_clean_up() {
    if [ -n "$guest" ]; then
        kill "$guest" 2> /dev/null || true
        wait "$guest" || true
    fi
    rm -rf "$job"
}
trap stop_guest_and_clean_up EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
{
    echo "cd $(sh_quote "$PWD") 2> /dev/null || cd /"
    printf 'exec'
    for word in "$@"; do printf ' %s' "$(sh_quote "$word")"; done
    echo
} > "$job/cmd"
share_options=()
for i in "${!shares[@]}"; do
    echo "share$i ${shares[$i]}" >> "$job/shares"
    share_options+=(-virtfs "local,path=$(qemu_value "${shares[$i]}"),mount_tag=share$i,security_model=none,multidevs=remap")
done

timeout -k 5 "$timeout" qemu-system-x86_64 -nodefaults -no-user-config \
    -machine q35 "${accel[@]}" -smp 2 -m 2048 -display none -monitor none -no-reboot \
    -serial "file:$(qemu_value "$job/console.log")" \
    -kernel "$(qemu_value "$cache/kernel")" -initrd "$(qemu_value "$cache/initramfs.cpio")" \
    -append "console=ttyS0 quiet panic=-1" \
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
    -virtfs "local,path=$(qemu_value "$cache/modules/lib/modules"),mount_tag=modules,security_model=none,readonly=on" \
    -virtfs "local,path=$(qemu_value "$job"),mount_tag=job,security_model=none" \
    "${share_options[@]}" < /dev/null > "$job/qemu.log" 2>&1 &
guest=$!
qemu_status=0
wait "$guest" || qemu_status=$?
guest=""

[ -f "$job/stdout" ] && cat "$job/stdout"
[ -f "$job/stderr" ] && cat "$job/stderr" >&2
if [ $qemu_status -eq 124 ] || [ $qemu_status -eq 137 ]; then
    say "timed out after $timeout s: killed the guest (--timeout SECONDS allows more)"
    exit 124
fi
[ -s "$job/status" ] && exit "$(cat "$job/status")"
[ $qemu_status -eq 0 ] || [ -e "$job/started" ] ||
    skip "qemu-system-x86_64 could not run the guest here: $(head -n 1 "$job/qemu.log")"
say "the guest stopped without the command's exit status (qemu exit status $qemu_status); the end of its console:"
tail -n 40 "$job/console.log" >&2
[ -s "$job/qemu.log" ] && { say "qemu said:"; cat "$job/qemu.log" >&2; }
exit 125
