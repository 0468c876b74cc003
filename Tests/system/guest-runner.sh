#!/bin/sh
# The system lane's runner inside the guest (prepare.sh installs it as
# /usr/local/sbin/flywheel-lane-runner; flywheel-lane.service runs it once the guest has booted).
# It mounts the run's job folder (9p tag "job") at /job and runs /job/run with /bin/sh, its output
# added to /job/output. /job/run decides what comes next: reboot the guest, or power it off.
# Without a job folder (the image booted by hand) it does nothing.
modprobe 9pnet_virtio 2> /dev/null
mountpoint -q /job || mount -t 9p -o trans=virtio,version=9p2000.L job /job || exit 0
[ -f /job/run ] || exit 0
/bin/sh /job/run >> /job/output 2>&1
status=$?
if [ $status -ne 0 ] && ! [ -s /job/status ]; then
    echo "$status" > /job/status
    sync
    systemctl poweroff --no-block
fi
