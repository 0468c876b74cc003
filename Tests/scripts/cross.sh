# Building Flywheel for another CPU with this machine's Swift (sourced, not run): cross_options
# SYSROOT [static] sets `cross` to the `swift build` options that build for the CPU of SYSROOT, a Debian root
# of that CPU with Debian's swiftlang of the same version as the one building (its standard
# library's modules and runtime, its C library, libgpiod and libevdev), and `cross_gnu_triplet` to
# that CPU's Debian triplet (aarch64-linux-gnu); and exports PKG_CONFIG_PATH and
# PKG_CONFIG_SYSROOT_DIR so that SwiftPM takes the C libraries' flags from SYSROOT. The programs
# link with the toolchain's lld and find the Swift runtime where Debian installs it on that CPU
# (/usr/libexec/swift/lib/swift/linux), as a build made there would. With `static` (a build with
# --static-swift-stdlib) the standard library is the root's swift_static, whose archives are linked in.
# Used by Tests/arm64/run.sh and udev/release-build.sh --cross-sysroot.
# shellcheck shell=bash
cross_options() {
    local sysroot=$1 triple resources=$1/usr/libexec/swift/lib/swift
    [ "${2:-}" != static ] || resources=${resources}_static
    # The CPU is the one the root's C library is for (a Debian root of another CPU has only its own).
    if [ -d "$sysroot/usr/lib/aarch64-linux-gnu" ]; then
        cross_gnu_triplet=aarch64-linux-gnu triple=aarch64-unknown-linux-gnu
    else
        echo "cross: $sysroot is not an arm64 Debian root (no usr/lib/aarch64-linux-gnu)" >&2
        return 1
    fi
    [ -d "$resources/linux/${triple%%-*}" ] || { echo "cross: $sysroot has no Swift standard library for $triple ($resources)" >&2; return 1; }
    export PKG_CONFIG_PATH=$sysroot/usr/lib/$cross_gnu_triplet/pkgconfig:$sysroot/usr/share/pkgconfig
    export PKG_CONFIG_SYSROOT_DIR=$sysroot
    # shellcheck disable=SC2034 # read by the scripts that source this
    cross=(--triple "$triple" --sdk "$sysroot" -Xswiftc -sdk -Xswiftc "$sysroot" -Xswiftc -resource-dir -Xswiftc "$resources"
        -Xswiftc -use-ld=lld -Xswiftc -no-toolchain-stdlib-rpath)
    # A runtime linked in needs no path to find it.
    [ "${2:-}" = static ] || cross+=(-Xlinker -rpath -Xlinker /usr/libexec/swift/lib/swift/linux)
}
