// swift-tools-version:6.0
//
// Flywheel: knobs, jog wheels and touch panels with physical feel, served as
// tempo and scrub events on a Unix socket. No package dependencies: the
// toolchain plus libevdev and libgpiod through system-library targets.
import PackageDescription

#if canImport(Glibc)
import Glibc
#endif

/// Fuzz targets are built only when FLYWHEEL_FUZZ=1 (with `swift build --sanitize=fuzzer`), so a
/// normal build is unaffected. Each is Sources/Fuzz/fuzz-NAME.
let fuzzing: Bool = {
    #if canImport(Glibc)
    return getenv("FLYWHEEL_FUZZ").map { String(cString: $0) == "1" } ?? false
    #else
    return false
    #endif
}()
/// The shipped daemon's memory (Tests/Benchmarks/BENCHMARKS.md): linked by lld with packed
/// relative relocations (DT_RELR: the loader reads ~5 KiB of them instead of 640 KiB of RELA
/// entries) and without exporting every symbol (the static runtime's `-export-dynamic` filled
/// .dynsym and .dynstr with ~350 KiB the loader searches), about 1.3 MiB less RSS; and with the
/// functions the daemon runs placed first and together in its text (udev/flywheeld.order, made by
/// `Tests/Benchmarks/run.sh --update-order`; udev/release-build.sh compiles each function into its
/// own section so the linker can move it), so that the kernel maps a few 64 KiB blocks of text
/// around them instead of most of the 6 MiB, about 1.8 MiB less. Release builds only, and only
/// where the toolchain has an `ld.lld` (on PATH, as the swift.org toolchains do).
let leanDaemonLink: [LinkerSetting] = {
    #if canImport(Glibc)
    let path = getenv("PATH").map { String(cString: $0) } ?? ""
    guard path.split(separator: ":").contains(where: { access("\($0)/ld.lld", X_OK) == 0 }) else { return [] }
    return [
        .unsafeFlags(
            [
                "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
                // Names the order lists that this build lacks (renamed since) are skipped, not warned about.
                "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/udev/flywheeld.order",
                "-Xlinker", "--no-warn-symbol-ordering",
            ],
            .when(platforms: [.linux], configuration: .release))
    ]
    #else
    return []
    #endif
}()
let fuzzTargets: [Target] = fuzzing
    ? [
        ("ClientCommand", ["FlywheelCore"]), ("Config", ["FlywheelCore"]), ("Evemu", ["FlywheelCore", "FlywheelFormats"]),
        ("VCD", ["FlywheelCore", "FlywheelFormats"]), ("EdgeLog", ["FlywheelCore", "FlywheelFormats"]),
        ("Scenario", ["FlywheelCore", "FlywheelSimulator"]), ("EvdevStream", ["FlywheelCore"]), ("ClientSession", ["FlywheelCore", "FlywheelIO"]),
        ("BridgeSession", ["FlywheelCore", "FlywheelIO"]),
    ].map { name, dependencies in
        .executableTarget(
            name: "fuzz-\(name)", dependencies: dependencies.map { .target(name: $0) }, path: "Sources/Fuzz/fuzz-\(name)",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])])
    }
    : []

let package = Package(
    name: "Flywheel",
    products: [
        .executable(name: "flywheel", targets: ["flywheel"]),
        .executable(name: "flywheeld", targets: ["flywheeld"]),
        .library(name: "FlywheelCore", targets: ["FlywheelCore"]),
    ],
    targets: [
        // C libraries, each through a one-line shim header.
        .systemLibrary(
            name: "CEvdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),
        .systemLibrary(
            name: "CGpiod",
            pkgConfig: "libgpiod",
            providers: [.apt(["libgpiod-dev"])]
        ),
        // One interface to libgpiod 1.6 (v1 API) and 2.x (v2 API), whichever pkg-config finds:
        // the Swift code calls libgpiod only through it.
        .target(name: "CGpiodShim", dependencies: ["CGpiod"]),

        // Linux system calls Swift's Glibc module leaves out (epoll, timerfd, signalfd, inotify):
        // glibc's own headers, no library.
        .systemLibrary(name: "CLinux"),

        // Pure core: no Glibc, no C. Decoding, device interpretation, device profiles, physics,
        // controls, the protocol and the pipeline from device input to server events.
        .target(name: "FlywheelCore", exclude: ["Wire/README.md"]),

        // The firmware simulator: mechanics, contacts, firmware/driver, scenarios. Pure.
        .target(name: "FlywheelSimulator", dependencies: ["FlywheelCore"]),

        // Readers and writers of recordings (VCD, GPIO edge logs, evemu). Pure: they parse text.
        .target(name: "FlywheelFormats", dependencies: ["FlywheelCore"]),

        // Everything that touches the operating system, through one seam.
        .target(name: "FlywheelIO", dependencies: ["FlywheelCore", "CEvdev", "CGpiodShim", "CLinux"], exclude: ["Wire/README.md"]),

        // The daemon as a type: options, configuration, device backends, input timelines, the
        // scheduler that drives the pipeline on the event loop; and the argument parser both
        // executables share.
        .target(name: "FlywheelDaemon", dependencies: ["FlywheelCore", "FlywheelSimulator", "FlywheelFormats", "FlywheelIO"]),

        // Kernel test fixtures (uinput devices, gpio-sim chips): used by `flywheel sim` and the
        // tests, never by flywheeld.
        .target(name: "FlywheelTestDevices", dependencies: ["FlywheelCore", "FlywheelIO", "CEvdev", "CLinux"]),

        // The command-line tool's commands, as a library so tests can drive them in-process.
        .target(
            name: "FlywheelCLI",
            dependencies: ["FlywheelCore", "FlywheelSimulator", "FlywheelFormats", "FlywheelIO", "FlywheelDaemon", "FlywheelTestDevices"]
        ),

        .executableTarget(name: "flywheel", dependencies: ["FlywheelCLI"]),
        .executableTarget(name: "flywheeld", dependencies: ["FlywheelDaemon", "FlywheelIO"], linkerSettings: leanDaemonLink),
        // Measurements run on demand (Tests/Benchmarks), never part of the tests.
        .executableTarget(name: "flywheel-bench", dependencies: ["FlywheelCore"]),

        .testTarget(name: "FlywheelCoreTests", dependencies: ["FlywheelCore", "FlywheelSimulator"]),
        .testTarget(name: "FlywheelSimulatorTests", dependencies: ["FlywheelSimulator", "FlywheelCore"]),
        .testTarget(
            name: "FlywheelFormatsTests",
            dependencies: ["FlywheelFormats", "FlywheelCore", "FlywheelIO"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "FlywheelIOTests", dependencies: ["FlywheelIO", "FlywheelCore"]),
        .testTarget(name: "FlywheelDaemonTests", dependencies: ["FlywheelDaemon", "FlywheelCore", "FlywheelIO", "FlywheelSimulator", "FlywheelFormats"]),
        .testTarget(
            name: "FlywheelCLITests",
            dependencies: ["FlywheelCLI", "FlywheelDaemon", "FlywheelCore", "flywheel", "flywheeld"],
            exclude: ["MPD/mpd-scrubs.sim", "MPD/mpd-volume.sim", "MPD/mpd-two-taps.sim", "MPD/mpd-navigate.sim", "OSC/osc-knob.sim", "OSC/osc-again.sim", "HTTPVolume/fake_player.py"]
        ),
    ] + fuzzTargets,
    swiftLanguageModes: [.v6]
)
