import Glibc
import Testing

@Suite("flywheel sim")
struct SimCommandTests {
    static let scenarios = RepositoryPaths.path("hardware/scenarios")

    @Test("--truth prints the bare net detents; the emitted edges decode to exactly that",
          arguments: ["bouncy-knob", "kernel-false-step", "shuttle-wrap", "hires-scroll", "powermate-spin"])
    func truthMatchesDecode(_ name: String) throws {
        let path = Self.scenarios + "/\(name).sim"
        let truth = ToolRun.run(["sim", path, "--truth"])
        #expect(truth.status == 0, "\(truth.err)")
        let detents = try #require(Int(truth.out.dropLast()), "not a bare integer: \(truth.out)")
        #expect(truth.out.last == "\n")
        let edges = ToolRun.run(["sim", path, "--emit", "edges"])
        #expect(edges.out.hasPrefix("# flywheel-edges 1\n"))
        let file = "/tmp/flywheel-sim-\(name)-\(getpid()).edges"
        RepositoryPaths.write(edges.out, to: file)
        defer { unlink(file) }
        // The GPIO trace decoded at the device's own steps per detent (4 for the EC11-style encoders;
        // the others report evdev events, checked below).
        if ["bouncy-knob", "kernel-false-step"].contains(name) {
            let decoded = ToolRun.run(["decode", file, "--summary"])
            #expect(decoded.out.contains(#""detents":\#(detents),"#), "\(decoded.out)")
            #expect(decoded.out.contains(#""invalid":0"#))
        }
    }

    @Test("the same seed gives the same stream; another seed a different one")
    func seeds() {
        let path = Self.scenarios + "/bouncy-knob.sim"
        let a = ToolRun.run(["sim", path, "--emit", "edges", "--seed", "7"])
        let b = ToolRun.run(["sim", path, "--emit", "edges", "--seed", "7"])
        let c = ToolRun.run(["sim", path, "--emit", "edges", "--seed", "8"])
        #expect(a.out == b.out)
        #expect(a.out != c.out)
        #expect(ToolRun.run(["sim", path, "--truth", "--seed", "8"]).out == "5\n")
    }

    @Test("evemu output carries the device description and decodes to the truth (PowerMate deltas)")
    func evemu() {
        let path = Self.scenarios + "/powermate-spin.sim"
        let run = ToolRun.run(["sim", path, "--emit", "evemu"])
        #expect(run.out.contains("N: Griffin PowerMate\nI: 0003 077d 0410"))
        let truth = ToolRun.run(["sim", path, "--truth"]).out.dropLast()
        let file = "/tmp/flywheel-sim-pm-\(getpid()).evemu"
        RepositoryPaths.write(run.out, to: file)
        defer { unlink(file) }
        let decoded = ToolRun.run(["decode", file, "--summary"])
        #expect(decoded.out.contains(#""detents":\#(truth),"#), "\(decoded.out) vs truth \(truth)")
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let failures: [Failure] = [
        .init(arguments: ["sim", scenarios + "/bouncy-knob.sim"], message: "'sim' needs exactly one of these: --emit edges|evemu, --truth, --uinput or --gpio-sim NAME; 'flywheel sim --help' lists its options."),
        .init(arguments: ["sim", scenarios + "/bouncy-knob.sim", "--emit", "wav"], message: "--emit takes edges or evemu, not 'wav'."),
        .init(arguments: ["sim", scenarios + "/bouncy-knob.sim", "--truth", "--seed", "-1"],
              message: "--seed must be a whole number from 0 to 2^64-1, not '-1'."),
        .init(arguments: ["sim", scenarios + "/bouncy-knob.sim", "--emit", "evemu"],
              message: "\(scenarios)/bouncy-knob.sim: device 'ec11' is wired to GPIO and has no evdev events; use --emit edges."),
    ]

    @Test("mistakes are one sentence on standard error", arguments: failures)
    func errors(_ failure: Failure) {
        let run = ToolRun.run(failure.arguments)
        #expect(run.status != 0)
        #expect(run.err == "flywheel: " + failure.message + "\n")
    }

    @Test("a scenario naming an unknown device says where it looked")
    func unknownDevice() {
        let file = "/tmp/flywheel-unknown-\(getpid()).sim"
        RepositoryPaths.write("device no-such-knob\nturn +1\n", to: file)
        defer { unlink(file) }
        let run = ToolRun.run(["sim", file, "--truth", "--hardware", "/nonexistent"])
        #expect(run.status == 1)
        // The file and its `device` line, then where it looked.
        #expect(run.err.hasPrefix("flywheel: \(file) line 1: the device 'no-such-knob' is unknown: no device profile 'no-such-knob.profile' in /nonexistent, "))
    }
}

@Suite("flywheel sim into the real kernel")
struct SimKernelOutputTests {
    @Test("--uinput and --gpio-sim say what they need when the kernel lacks it; the options exclude each other")
    func errors() throws {
        let scenario = RepositoryPaths.path("hardware/scenarios/powermate-spin.sim")
        let both = ToolRun.run(["sim", scenario, "--uinput", "--truth"])
        #expect(both.status == 2 && both.err.contains("exactly one of"))
        let wrongKind = ToolRun.run(["sim", scenario, "--gpio-sim", "flywheel-test"])
        #expect(wrongKind.status == 1 && wrongKind.err.contains("reports through evdev, not GPIO lines; use --uinput"))
        let gpioScenario = RepositoryPaths.path("hardware/scenarios/bouncy-knob.sim")
        let wrongKind2 = ToolRun.run(["sim", gpioScenario, "--uinput"])
        #expect(wrongKind2.status == 1 && wrongKind2.err.contains("use --gpio-sim NAME"))
        let badName = ToolRun.run(["sim", gpioScenario, "--gpio-sim", "a/b"])
        #expect(badName.status == 2)
        // Where the kernel has uinput or gpio-sim (the kernel test lane) these succeed; elsewhere they
        // fail naming the path and what is needed.
        if access("/dev/uinput", W_OK) != 0 {
            let run = ToolRun.run(["sim", scenario, "--uinput", "--no-wait"])
            #expect(run.status == 1 && run.err.contains("cannot make a virtual input device with /dev/uinput") && run.err.contains("sudo modprobe uinput"))
        }
        if access("/sys/kernel/config/gpio-sim", W_OK) != 0 {
            let run = ToolRun.run(["sim", gpioScenario, "--gpio-sim", "flywheel-test", "--no-wait"])
            #expect(run.status == 1 && run.err.contains("cannot make the folder /sys/kernel/config/gpio-sim/flywheel-test") && run.err.contains("gpio-sim needs"))
        }
    }
}
