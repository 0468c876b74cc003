#!/bin/busybox sh
# PID 1 of the kernel test lane's guest: prepare.sh copies this file to /init in the busybox
# initramfs and run-in-guest.sh boots it. Not for running by hand.
#
# It loads the virtio, 9p, overlay and configfs modules listed in /modules/load-order, mounts the
# run's job directory (9p tag "job", read-write) and the host's / (tag "hostroot", read-only)
# under a tmpfs overlay, puts fresh proc, sysfs, configfs, devtmpfs, devpts, /run and /tmp in it,
# the lane's module tree (tag "modules") at /lib/modules and each --share directory (tags
# share0, share1, ..., paths in the job's "shares" file) at its own path. Then it runs the job's
# "cmd" script with /bin/sh in that root, its standard output and error going to the job's "stdout"
# and "stderr" files, writes its exit status to "status" and powers off. When a step before that
# fails, its message is on the console (the job's console.log) and the guest powers off at once.
set -eu
/bin/busybox --install -s /bin
export PATH=/bin
trap 'echo "guest-init: setting up the guest failed" >&2; sync; poweroff -f' EXIT
ninep() { mount -t 9p -o "trans=virtio,version=9p2000.L,$1" "$2" "$3"; }

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec < /dev/console > /dev/console 2>&1
while read -r module; do
    insmod "/modules/$module"
done < /modules/load-order

ninep rw job /job
: > /job/started

ninep ro,cache=loose hostroot /mnt/host
mount -t tmpfs -o mode=0755 overlay-rw /mnt/rw
mkdir /mnt/rw/upper /mnt/rw/work
mount -t overlay -o lowerdir=/mnt/host,upperdir=/mnt/rw/upper,workdir=/mnt/rw/work overlay /newroot

root=/newroot
mount -t proc proc $root/proc
mount -t sysfs sysfs $root/sys
mount -t configfs configfs $root/sys/kernel/config
mount -t devtmpfs devtmpfs $root/dev
mkdir -p $root/dev/pts $root/dev/shm
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts $root/dev/pts
mount -t tmpfs -o mode=1777 shm $root/dev/shm
mount -t tmpfs -o mode=0755 run $root/run
mount -t tmpfs -o mode=1777 tmp $root/tmp
mkdir -p $root/lib/modules
ninep ro modules $root/lib/modules
if [ -f /job/shares ]; then
    while read -r tag path; do
        mkdir -p "$root$path"
        ninep rw "$tag" "$root$path"
    done < /job/shares
fi
ip link set lo up

trap - EXIT
set +e
env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    TERM=dumb /bin/chroot $root /bin/sh -c "$(cat /job/cmd)" < /dev/null > /job/stdout 2> /job/stderr
echo $? > /job/status
sync
poweroff -f
