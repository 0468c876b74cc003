#!/bin/busybox sh
# /init of the system lane's initramfs (prepare.sh puts it there; not for running by hand): loads
# the modules listed in /modules/load-order (virtio, virtio-blk, ext4, 9p), mounts the Debian
# image (/dev/vda, ext4, read-write: what the guest changes lasts until the lane's run ends, across
# reboots) at /newroot and the kernel lane's module tree (9p tag "modules") at its /lib/modules,
# then hands over to systemd. A failure before that is on the console, and the guest powers off.
set -eu
/bin/busybox --install -s /bin
export PATH=/bin
trap 'echo "system-init: setting up the guest failed" >&2; sync; poweroff -f' EXIT
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec < /dev/console > /dev/console 2>&1
while read -r module; do
    insmod "/modules/$module"
done < /modules/load-order
mount -t ext4 -o rw,noatime /dev/vda /newroot
mount -t 9p -o trans=virtio,version=9p2000.L,ro modules /newroot/usr/lib/modules
umount /proc /sys
mount --move /dev /newroot/dev
trap - EXIT
exec switch_root /newroot /lib/systemd/systemd
