# The steps' helpers of the lanes' prepare.sh scripts (Tests/kernel, Tests/distro, Tests/system;
# sourced, not run, after the script takes its cache's lock): say and die with the script's
# $script_name (default prepare), a failure report naming the step, timed steps, and apt-get installing what is
# missing (as root or with sudo), logged to $cache/apt-install.log.
# shellcheck shell=bash
: "${script_name:=prepare}"
say() { echo "$script_name: $*" >&2; }
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

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
apt_updated=no
apt_update() {
    [ "$apt_updated" = yes ] || "${sudo[@]}" apt-get update -qq
    apt_updated=yes
}

# install_missing PACKAGE[=VERSION]...: apt-get installs those that are not installed.
install_missing() {
    local missing=() package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "${package%%=*}" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    apt_update
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" > "$cache/apt-install.log" 2>&1 ||
        { cat "$cache/apt-install.log" >&2; die "apt-get install ${missing[*]} failed"; }
}
