# What the arm64 lane's scripts share (sourced by run.sh and package.sh, from the checkout's top):
# the two roots Tests/distro/prepare.sh makes, the build folder, and the timing and message helpers.
# `say` prefixes its message with $name.
# shellcheck shell=bash
host_root=${FLYWHEEL_DISTRO_CACHE:-$HOME/.cache/flywheel-distro}/root
arm_root=${FLYWHEEL_ARM64_CACHE:-$HOME/.cache/flywheel-distro-arm64}/root
scratch=.build-arm64
milliseconds() { echo $(( $(date +%s%N) / 1000000 )); }
seconds() { local ms=$(( $2 - $1 )); echo "$(( ms / 1000 )).$(( ms % 1000 / 100 ))"; }
say() { echo "$name: $*" >&2; }
