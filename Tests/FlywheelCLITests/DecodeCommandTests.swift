import Testing

@Suite("flywheel decode")
struct DecodeCommandTests {
    static let fixtures = RepositoryPaths.path("Tests/FlywheelFormatsTests/Fixtures")

    @Test("the summary has exactly the documented keys, in order")
    func summaryShape() {
        let run = ToolRun.run(["decode", Self.fixtures + "/rotary-ramp.vcd", "--channels", "0,1", "--summary"])
        #expect(run.status == 0)
        #expect(run.out == #"{"quarter_steps":12732,"detents":3183,"valid":12732,"invalid":0,"steps_per_detent":4}"# + "\n")
        #expect(run.err.isEmpty)
    }

    @Test("--steps-per-detent changes the detent count, not the quarter steps")
    func steps() {
        for (steps, detents) in [("1", 12732), ("2", 6366), ("4", 3183)] {
            let run = ToolRun.run(["decode", Self.fixtures + "/rotary-ramp.vcd", "--channels=0,1", "--steps-per-detent", steps, "--summary"])
            #expect(run.out.contains(#""quarter_steps":12732,"detents":\#(detents),"#), "steps \(steps): \(run.out)")
        }
    }

    @Test("per-detent lines carry time, direction and running position")
    func lines() throws {
        let run = ToolRun.run(["decode", Self.fixtures + "/rotary-ramp.vcd", "--channels", "0,1"])
        let lines = run.out.split(separator: "\n")
        #expect(lines.count == 3183)
        #expect(lines.last?.hasSuffix(#","detent":1,"position":3183}"#) == true)
        #expect(lines.first?.hasPrefix(#"{"t":"#) == true)
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let status: Int32
        let message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let failures: [Failure] = [
        .init(arguments: ["decode"], status: 2, message: "'decode' needs one FILE to decode; 'flywheel decode --help' lists its options."),
        .init(arguments: ["decode", "/nonexistent/x.edges"], status: 1,
              message: "cannot open /nonexistent/x.edges: No such file or directory (ENOENT)."),
        .init(arguments: ["decode", fixtures + "/rotary-sin.vcd"], status: 2,
              message: "\(fixtures)/rotary-sin.vcd is a VCD file: choose its A and B channels with --channels A,B (it has '0', '1')."),
        .init(arguments: ["decode", fixtures + "/rotary-sin.vcd", "--channels", "0"], status: 2,
              message: "--channels takes two channel names separated by a comma, such as XA,XB, not '0'."),
        .init(arguments: ["decode", fixtures + "/rotary-sin.vcd", "--channels", "0,9"], status: 1,
              message: "\(fixtures)/rotary-sin.vcd: expected a channel named '9'; the file has '0', '1'."),
        .init(arguments: ["decode", fixtures + "/rotary-sin.vcd", "--channels", "0,1", "--steps-per-detent", "3"], status: 2,
              message: "--steps-per-detent must be 1, 2, 4 or auto, not '3'."),
        .init(arguments: ["decode", "a", "--bogus"], status: 2, message: "decode has no option --bogus; 'flywheel decode --help' lists its options."),
        .init(arguments: ["decode", "a", "--channels"], status: 2, message: "--channels needs a value; 'flywheel decode --help' lists its options."),
        .init(arguments: ["frobnicate"], status: 2, message: "there is no command 'frobnicate'; 'flywheel --help' lists the commands."),
    ]

    @Test("every error is one sentence on standard error with a non-zero status", arguments: failures)
    func errors(_ failure: Failure) {
        let run = ToolRun.run(failure.arguments)
        #expect(run.status == failure.status)
        #expect(run.err == "flywheel: " + failure.message + "\n")
        #expect(run.out.isEmpty)
    }

    @Test("auto detection reports a confidence, and refuses when the encoder never rests")
    func auto() {
        let run = ToolRun.run(["decode", Self.fixtures + "/rotary-ramp.vcd", "--channels", "0,1", "--steps-per-detent", "auto", "--summary"])
        #expect(run.status == 1)
        #expect(run.err.hasPrefix("flywheel: Cannot detect the steps per detent"))
        let golden = ToolRun.run(["decode", RepositoryPaths.path("Tests/Golden/sim-bouncy-knob.edges"), "--steps-per-detent", "auto", "--summary"])
        #expect(golden.status == 0, "\(golden.err)")
        #expect(golden.out.contains(#""steps_per_detent":4,"confidence":"#))
        // A wiggle never rests long enough to tell: the decoder says so rather than guessing.
        let wiggle = ToolRun.run(["decode", RepositoryPaths.path("Tests/Golden/ec11-wiggle.edges"), "--steps-per-detent", "auto", "--summary"])
        #expect(wiggle.status == 1 && wiggle.err.hasPrefix("flywheel: Cannot detect the steps per detent"))
    }
}
