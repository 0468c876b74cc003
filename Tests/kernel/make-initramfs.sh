#!/usr/bin/env bash
# Makes a busybox initramfs for the test guests: INIT as its /init, and the kernel modules MODULE...
# with everything they depend on, copied from MODULE_TREE (a folder holding lib/modules/KVER) and
# listed in /modules/load-order in modprobe's order, for /init to insmod. Used by the kernel lane's
# prepare.sh (guest-init.sh, 9p and overlay) and the system lane's (system-init.sh, virtio-blk, ext4, 9p).
#
# Usage: Tests/kernel/make-initramfs.sh INIT OUTPUT.cpio MODULE_TREE KVER MODULE...
set -euo pipefail
init=$1 output=$2 tree=$3 kver=$4
shift 4
root=$output.tree
rm -rf "$root"
mkdir -p "$root"/{bin,dev,proc,sys,job,newroot,mnt/host,mnt/rw,modules}
cp /bin/busybox "$root/bin/busybox"
cp "$init" "$root/init"
chmod 755 "$root/init"
modprobe -d "$tree" -S "$kver" --show-depends -a "$@" |
    awk '$1 == "insmod" && !seen[$2]++ { print $2 }' > "$root/modules/paths"
while read -r ko; do
    cp "$ko" "$root/modules/"
    basename "$ko" >> "$root/modules/load-order"
done < "$root/modules/paths"
rm "$root/modules/paths"
(cd "$root" && find . | cpio -o -H newc --quiet) > "$output.tmp"
rm -r "$root"
mv "$output.tmp" "$output"
