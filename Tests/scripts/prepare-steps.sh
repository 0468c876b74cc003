# Sourced by the lanes' prepare.sh scripts (Tests/kernel, Tests/distro), with $cache set: takes the
# cache's lock (one preparation at a time), and gives say, die and timed, which names the step
# that failed when the script exits with an error.
mkdir -p "$cache"
exec 9> "$cache/.lock"
flock 9

say() { echo "prepare: $*" >&2; }
die() { say "$*"; exit 1; }
step="start"
report_failure() {
    local status=$?
    [ $status -eq 0 ] || say "FAILED in step \"$step\" (exit status $status)"
}
trap report_failure EXIT

# timed NAME COMMAND...: runs COMMAND as step NAME and prints how long it took.
timed() {
    local name=$1 start=$EPOCHREALTIME
    shift
    step=$name
    "$@"
    say "$(awk -v name="$name" -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN { printf "%-34s %5.1f s", name, e - s }')"
}
