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
let fuzzTargets: [Target] = fuzzing
    ? [
        ("ClientCommand", ["FlywheelCore"]), ("Config", ["FlywheelCore"]), ("Evemu", ["FlywheelCore", "FlywheelReplay"]),
        ("VCD", ["FlywheelCore", "FlywheelReplay"]), ("EdgeLog", ["FlywheelCore", "FlywheelReplay"]),
        ("Scenario", ["FlywheelCore", "FlywheelSimulator"]),
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

        // Pure core: no Glibc, no C. Decoder, units, events; physics and controls.
        .target(name: "FlywheelCore", exclude: ["Protocol/PROTOCOL.md"]),

        // The firmware simulator: mechanics, contacts, firmware/driver, scenarios, profiles. Pure.
        .target(name: "FlywheelSimulator", dependencies: ["FlywheelCore"], exclude: ["SCENARIOS.md"]),

        // Readers and writers of replay files (VCD, .edges, evemu). Pure: they parse text.
        .target(name: "FlywheelReplay", dependencies: ["FlywheelCore"]),

        // Everything that touches the operating system, through one seam.
        .target(name: "FlywheelIO", dependencies: ["FlywheelCore", "CEvdev", "CGpiodShim", "CLinux"]),

        // The command-line tool's logic, as a library so tests can drive it in-process.
        .target(
            name: "FlywheelCLI",
            dependencies: ["FlywheelCore", "FlywheelSimulator", "FlywheelReplay", "FlywheelIO"]
        ),

        .executableTarget(name: "flywheel", dependencies: ["FlywheelCLI"]),
        .executableTarget(name: "flywheeld", dependencies: ["FlywheelCore", "FlywheelIO", "FlywheelCLI"]),
        // Measurements run on demand (Tests/Benchmarks), never part of the tests.
        .executableTarget(name: "flywheel-bench", dependencies: ["FlywheelCore"]),

        .testTarget(name: "FlywheelCoreTests", dependencies: ["FlywheelCore"]),
        .testTarget(name: "FlywheelSimulatorTests", dependencies: ["FlywheelSimulator", "FlywheelCore"]),
        .testTarget(
            name: "FlywheelReplayTests",
            dependencies: ["FlywheelReplay", "FlywheelCore", "FlywheelIO"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "FlywheelIOTests", dependencies: ["FlywheelIO", "FlywheelCore"]),
        .testTarget(
            name: "FlywheelCLITests",
            dependencies: ["FlywheelCLI", "FlywheelCore", "flywheel", "flywheeld"],
            exclude: ["MPD/mpd-scrubs.sim"]
        ),
    ] + fuzzTargets,
    swiftLanguageModes: [.v6]
)
