#!/usr/bin/env bash
# The shipped release build, in one place for the package (udev/build-deb.sh) and the benchmarks
# (Tests/Benchmarks/run.sh): builds PRODUCTs and prints the folder holding them as its last line.
#
#   udev/release-build.sh [--scratch-path DIR] [--cross-sysroot DIR] [PRODUCT ...]
#
# --cross-sysroot DIR builds for another CPU: DIR is a Debian root of that CPU (the arm64 lane's,
# Tests/arm64/README.md) with Debian's swiftlang of the same version as this machine's, whose
# standard library, C library and libgpiod/libevdev the build uses and links (lld, the toolchain's).
#
# How it links:
# - the Swift runtime statically (--static-swift-stdlib), so the package needs no Swift toolchain;
# - full RELRO (-z relro -z now): the dynamic linker resolves every symbol at start, then the table
#   is read-only;
# - the C++ library statically too: the runtime's `-lstdc++` finds, in a folder searched first
#   (DIR/static-libstdc++), only the toolchain's libstdc++.a. Mapping the shared libstdc++ and
#   running its start-up (iostreams, locales) cost the daemon about 1 MiB of RSS at rest and
#   400 KiB of PSS for the few functions the runtime calls; linked in, they cost their own size.
#   The symbols stay private (the runtime links with --exclude-libs ALL);
# - each function in its own section (-function-sections), so that the daemon's link can place
#   the functions it runs together (Package.swift, udev/flywheeld.order). Not with cross-module
#   optimisation (-cross-module-optimization): Debian 13's Swift 6.0.3 stops with a SIL
#   verification failure on it (a key path in a serialised function), and the package is built
#   with that compiler.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build
sysroot=""
products=()
while [ $# -gt 0 ]; do
    case $1 in
        --scratch-path) [ $# -ge 2 ] || { echo "release-build: --scratch-path needs a folder" >&2; exit 2; }; scratch=$2; shift 2 ;;
        --cross-sysroot) [ $# -ge 2 ] || { echo "release-build: --cross-sysroot needs a folder" >&2; exit 2; }; sysroot=$2; shift 2 ;;
        -*) echo "usage: udev/release-build.sh [--scratch-path DIR] [--cross-sysroot DIR] [PRODUCT ...]" >&2; exit 2 ;;
        *) products+=("$1"); shift ;;
    esac
done

options=(--scratch-path "$scratch" -c release --static-swift-stdlib -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now
    -Xswiftc -Xfrontend -Xswiftc -function-sections)
if [ -n "$sysroot" ]; then
    source "$(dirname "$0")/../Tests/scripts/cross.sh"
    cross_options "$sysroot" static || exit 1
    options+=("${cross[@]}")
fi
bin=$(swift build "${options[@]}" --show-bin-path)
if [ ${#products[@]} -gt 0 ]; then
    # The C++ library's archive, as the C compiler finds it (g++'s folder for this Debian release).
    archive=""
    [ -z "$sysroot" ] || archive=$(ls "$sysroot"/usr/lib/gcc/"$cross_gnu_triplet"/*/libstdc++.a 2> /dev/null | sort -V | tail -n 1)
    for compiler in "${CC:-cc}" clang gcc; do
        [ -z "$archive" ] || break
        command -v "$compiler" > /dev/null || continue
        found=$("$compiler" -print-file-name=libstdc++.a 2> /dev/null || true)
        if [[ $found == /* && -f $found ]]; then archive=$(readlink -f "$found"); break; fi
    done
    [ -n "$archive" ] || { echo "release-build: libstdc++.a was not found (apt-get install libstdc++-dev, e.g. libstdc++-12-dev)" >&2; exit 1; }
    mkdir -p "$scratch/static-libstdc++"
    static=$(cd "$scratch/static-libstdc++" && pwd)
    ln -sfn "$archive" "$static/libstdc++.a"
    for product in "${products[@]}"; do
        # The order file is a link input SwiftPM does not track: a daemon older than it is relinked.
        if [ "$product" = flywheeld ] && [ udev/flywheeld.order -nt "$bin/flywheeld" ]; then rm -f "$bin/flywheeld"; fi
        swift build "${options[@]}" -Xlinker -L"$static" --product "$product" >&2
        needed=$(readelf -d "$bin/$product") || { echo "release-build: readelf -d $bin/$product failed" >&2; exit 1; }
        if grep -q 'NEEDED.*libstdc++' <<< "$needed"; then
            echo "release-build: $bin/$product links the shared libstdc++ (the archive in $static was not used)" >&2
            exit 1
        fi
        # With lld (Package.swift), the daemon's text starts with the first function of the order
        # that this build has (a name the code no longer has is skipped, as the linker skips it).
        if [ "$product" = flywheeld ] && command -v ld.lld > /dev/null; then
            symbols=$(nm "$bin/flywheeld") || { echo "release-build: nm $bin/flywheeld failed" >&2; exit 1; }
            placed=$(awk 'NR == FNR { if (NF == 3 && !($3 in at)) at[$3] = $1; next } ($1 in at) { print $1, at[$1]; exit }' \
                <(printf '%s\n' "$symbols") udev/flywheeld.order)
            text=$(readelf -SW "$bin/flywheeld" | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 == ".text" { print $3 }')
            first=${placed% *} at=${placed#* }
            if [ -z "$placed" ] || [ -z "$text" ] || [ "$((16#$at))" -ne "$((16#$text))" ]; then
                echo "release-build: $bin/flywheeld was not linked in udev/flywheeld.order's order (${first:-no listed function} at ${at:-nowhere}, .text at ${text:-nowhere})" >&2
                exit 1
            fi
        fi
    done
fi
echo "$bin"
