#!/usr/bin/env bash
# The distro lane as CI runs it: Flywheel built with warnings as errors and its tests run in a
# Debian 13 (trixie) root with Debian's own Swift 6.0.3 and libgpiod 2 (README.md beside this
# file). The root is prepared once (prepare.sh, cached); the checkout is bind-mounted into it at
# /build/flywheel (and ../shared, when there, at /build/shared), in a mount namespace of this run's
# own. The build goes to the checkout's .build-debian13 (ignored by git, owned like the checkout),
# beside and apart from the host's .build. Prints how long each part took, skips with a message
# only where a root cannot be made or entered at all, fails on anything else.
#
# Usage: Tests/distro/run.sh [-- COMMAND [ARGS...]]   (COMMAND runs in the checkout inside the root
#        instead of the build and tests, e.g. -- swift build --scratch-path .build-debian13)
# Cache: as prepare.sh ($FLYWHEEL_DISTRO_CACHE, else ~/.cache/flywheel-distro).
# After a default run that passed, .build-debian13/bin holds flywheel and flywheeld runners: the
# root's build, run outside it with the root's dynamic loader and libraries (libgpiod 2, Debian's
# Swift runtime). The kernel lane runs its gpio-sim tests with them too (Tests/kernel/lane.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
checkout=$PWD
cache=${FLYWHEEL_DISTRO_CACHE:-$HOME/.cache/flywheel-distro}
root=$cache/root
scratch=.build-debian13
milliseconds() { echo $(( $(date +%s%N) / 1000000 )); }
seconds() { local ms=$(( $2 - $1 )); echo "$(( ms / 1000 )).$(( ms % 1000 / 100 ))"; }
skip() { echo "distro lane: skipped: $*" >&2; exit 0; }
[ "${1:-}" != "--" ] || shift
default_run=no
[ $# -gt 0 ] || default_run=yes

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo > /dev/null && sudo -n true 2> /dev/null || skip "it needs root or password-less sudo (debootstrap, chroot)."
    sudo=(sudo)
fi
case $(uname -m) in x86_64 | aarch64) ;; *) skip "Debian 13's swiftlang is built for amd64 and arm64 only, this is $(uname -m)." ;; esac
"${sudo[@]}" unshare --mount --propagation private true 2> /dev/null ||
    skip "this machine does not allow a mount namespace (unshare --mount), so the root cannot be entered."

start=$(milliseconds)
Tests/distro/prepare.sh
prepared=$(milliseconds)
echo "distro lane: Debian $(cat "$root/etc/debian_version") root ready in $(seconds "$start" "$prepared") s" >&2

if [ "$default_run" = yes ]; then
    rm -rf "$scratch/bin"
    set -- sh -euc "
        swift --version 2>&1 | head -n 1
        pkg-config --print-errors --modversion libgpiod | sed 's/^/libgpiod-dev /'
        swift build --scratch-path $scratch -Xswiftc -warnings-as-errors
        $scratch/debug/flywheel --version
        swift test --scratch-path $scratch -Xswiftc -warnings-as-errors"
fi

# write_runners: .build-debian13/bin/flywheel and flywheeld, the root's build run with its loader.
write_runners() {
    local triplet loader name
    triplet=$(uname -m)-linux-gnu
    loader=$(cd "$root" && ls lib64/ld-linux-*.so.* lib/"$triplet"/ld-linux-*.so.* 2> /dev/null | head -n 1)
    [ -n "$loader" ] || { echo "distro lane: no dynamic loader in $root" >&2; return 1; }
    rm -rf "$scratch/bin.tmp"
    mkdir "$scratch/bin.tmp"
    for name in flywheel flywheeld; do
        cat > "$scratch/bin.tmp/$name" << EOF
#!/bin/sh
# $name built in the Debian 13 root $root (Tests/distro/run.sh), run with its loader and libraries.
exec "$root/$loader" --library-path "$root/usr/libexec/swift/lib/swift/linux:$root/usr/lib/$triplet:$root/lib/$triplet" "$checkout/$scratch/debug/$name" "\$@"
EOF
        chmod 755 "$scratch/bin.tmp/$name"
    done
    mv "$scratch/bin.tmp" "$scratch/bin"
}

status=0
Tests/distro/enter.sh "$root" -- "$@" || status=$?
finished=$(milliseconds)
echo "distro lane: built and tested in the Debian 13 root in $(seconds "$prepared" "$finished") s" >&2
[ "$status" -eq 0 ] || { echo "distro lane: failed (status $status)." >&2; exit 1; }
[ "$default_run" = no ] || write_runners
