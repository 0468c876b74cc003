import FlywheelCore
import FlywheelIO
import Testing
@testable import FlywheelFormats

@Suite("VCD reader")
struct VCDTests {
    static func decode(_ path: String, _ a: String, _ b: String, steps: StepsPerDetent = .one) throws -> QuadratureDecoder {
        let bytes = try FileSystem.readFile(path)
        let trace = try VCD.trace(bytes, a: a, b: b, file: path)
        var decoder = QuadratureDecoder(stepsPerDetent: steps, initial: trace.initial)
        decoder.decode(trace.samples)
        return decoder
    }

    struct Expectation: CustomTestStringConvertible, Sendable {
        let file: String, a: String, b: String, net: Int, valid: Int, invalid: Int
        var testDescription: String { "\(file) \(a),\(b)" }
    }

    // Net quarter steps, valid and invalid transitions per file and channel pair. How we know:
    // `Fixtures/crosscheck_vcd.py`, an independent decoder, gives the same three numbers; the
    // synthetic files are documented as "12,732 transitions, one direction" and "1,016 transitions,
    // net zero"; the mouse files are documented to contain a few double (invalid) samples, which
    // appear only where the sensor moved fast.
    static let local: [Expectation] = [
        .init(file: "rotary-sin.vcd", a: "0", b: "1", net: 0, valid: 1016, invalid: 0),
        .init(file: "rotary-ramp.vcd", a: "0", b: "1", net: 12732, valid: 12732, invalid: 0),
        .init(file: "agilent_hdns_2000_move_mouse_fast.vcd", a: "MODE/XA", b: "RB/XB", net: 1, valid: 1501, invalid: 0),
        .init(file: "agilent_hdns_2000_move_mouse_fast.vcd", a: "LB/YA", b: "MB/YB", net: -7, valid: 1587, invalid: 80),
        .init(file: "agilent_hdns_2000_move_mouse_left_right.vcd", a: "MODE/XA", b: "RB/XB", net: 1, valid: 459, invalid: 0),
        .init(file: "agilent_hdns_2000_move_mouse_left_right.vcd", a: "LB/YA", b: "MB/YB", net: 0, valid: 474, invalid: 4),
        .init(file: "agilent_hdns_2000_move_mouse_up_down.vcd", a: "MODE/XA", b: "RB/XB", net: -1, valid: 51, invalid: 0),
        .init(file: "agilent_hdns_2000_move_mouse_up_down.vcd", a: "LB/YA", b: "MB/YB", net: 12, valid: 512, invalid: 6),
    ]

    static let shared: [Expectation] = [
        .init(file: "avago_adns_2051_move_mouse_fast.vcd", a: "XA", b: "XB", net: 6, valid: 501_812, invalid: 43),
        .init(file: "avago_adns_2051_move_mouse_fast.vcd", a: "YA", b: "YB", net: 48, valid: 2190, invalid: 80),
        .init(file: "avago_adns_2051_move_mouse_left_right.vcd", a: "XA", b: "XB", net: 10, valid: 268_298, invalid: 57),
        .init(file: "avago_adns_2051_move_mouse_left_right.vcd", a: "YA", b: "YB", net: -8, valid: 540, invalid: 3),
        .init(file: "avago_adns_2051_move_mouse_up_down.vcd", a: "XA", b: "XB", net: 3, valid: 255_359, invalid: 2),
        .init(file: "avago_adns_2051_move_mouse_up_down.vcd", a: "YA", b: "YB", net: 6, valid: 324, invalid: 5),
        .init(file: "avago_adns_2051_sleep_then_move.vcd", a: "XA", b: "XB", net: 4, valid: 238_066, invalid: 2),
        .init(file: "avago_adns_2051_sleep_then_move.vcd", a: "YA", b: "YB", net: -2, valid: 56, invalid: 0),
    ]

    @Test("captures copied into the project decode to the cross-checked counts", arguments: local)
    func localCaptures(_ expected: Expectation) throws {
        let decoder = try Self.decode(FixturePaths.local(expected.file), expected.a, expected.b)
        #expect(decoder.quarterSteps.count == expected.net)
        #expect(decoder.validTransitions == expected.valid)
        #expect(decoder.invalidTransitions == expected.invalid)
    }

    @Test("the Avago captures in ../shared decode to the cross-checked counts",
          .enabled(if: FixturePaths.sharedPresent, FixturePaths.absent), arguments: shared)
    func sharedCaptures(_ expected: Expectation) throws {
        let decoder = try Self.decode(FixturePaths.shared + "/quadrature-vcd/" + expected.file, expected.a, expected.b)
        #expect(decoder.quarterSteps.count == expected.net)
        #expect(decoder.validTransitions == expected.valid)
        #expect(decoder.invalidTransitions == expected.invalid)
    }

    @Test("the Avago X pair's 500 kHz chatter: no drift, no stall",
          .enabled(if: FixturePaths.sharedPresent, FixturePaths.absent))
    func avagoChatter() throws {
        // Hundreds of thousands of back-and-forth transitions with a small net motion: the running
        // position must stay within a bounded band (no drift) and every change must be consumed (no stall:
        // valid + invalid equals the number of level-changing samples).
        let path = FixturePaths.shared + "/quadrature-vcd/avago_adns_2051_move_mouse_fast.vcd"
        let trace = try VCD.trace(try FileSystem.readFile(path), a: "XA", b: "XB", file: path)
        let samples = trace.samples
        var decoder = QuadratureDecoder(stepsPerDetent: .one, initial: trace.initial)
        var low = 0, high = 0
        for sample in samples {
            decoder.feed(sample.levels)
            low = min(low, decoder.quarterSteps.count)
            high = max(high, decoder.quarterSteps.count)
        }
        #expect(decoder.validTransitions + decoder.invalidTransitions == samples.count)
        #expect(samples.count > 400_000)
        #expect(high - low < 200, "the chatter moved the count by \(high - low) quarter steps")
        #expect(decoder.quarterSteps == 6)
    }

    @Test("channel listing, timescales, and errors that name the file, line and what was expected")
    func errors() throws {
        let good = Array("$timescale 10 ns $end\n$var wire 1 ! A $end\n$var wire 1 \" B $end\n$enddefinitions $end\n#0 1! 1\"\n#5 0!\n".utf8)
        #expect(try VCD.channels(in: good, file: "g.vcd") == ["A", "B"])
        let trace = try VCD.trace(good, a: "A", b: "B", file: "g.vcd")
        #expect(trace.edges == [QuadratureEdge(timeNanoseconds: 50, line: .a, level: false)])

        #expect(throws: FileLineError(file: "g.vcd", line: 0, problem: "expected a channel named 'X'; the file has 'A', 'B'")) {
            try VCD.trace(good, a: "X", b: "B", file: "g.vcd")
        }
        let unknown = Array("$var wire 1 ! A $end\n$var wire 1 \" B $end\n$enddefinitions $end\n#0 1! 1\"\n#3 x!\n".utf8)
        #expect(throws: FileLineError(file: "u.vcd", line: 5, problem: "expected channel 'A' to be 0 or 1 but it is 'x!' (unknown level)")) {
            try VCD.trace(unknown, a: "A", b: "B", file: "u.vcd")
        }
        let backwards = Array("$var wire 1 ! A $end\n$var wire 1 \" B $end\n$enddefinitions $end\n#9 1! 1\"\n#3 0!\n".utf8)
        #expect(throws: FileLineError(file: "b.vcd", line: 5, problem: "expected timestamps in order but '#3' goes back in time")) {
            try VCD.trace(backwards, a: "A", b: "B", file: "b.vcd")
        }
        let unterminated = Array("$var wire 1 ! A\n".utf8)
        #expect(throws: FileLineError(file: "t.vcd", line: 1, problem: "expected '$end' to close '$var' but the file ended")) {
            try VCD.channels(in: unterminated, file: "t.vcd")
        }
        let badScale = Array("$timescale 3 us $end\n$enddefinitions $end\n".utf8)
        #expect(throws: FileLineError.self) { try VCD.channels(in: badScale, file: "s.vcd") }
        #expect(VCD.Header.timescale("1ps")! == (1, 1000))
        #expect(VCD.Header.timescale("100us")! == (100_000, 1))
        // Found by fuzz-VCD: a control byte made an empty token and trapped.
        let control = Array("$var wire 1 ! A $end\n$var wire 1 \" B $end\n$enddefinitions $end\n#0 1! 1\"\n\u{01}\n".utf8)
        #expect(throws: FileLineError(file: "c.vcd", line: 5, problem: "expected text but found the control byte 0x1 (this is not a VCD text file)")) {
            try VCD.trace(control, a: "A", b: "B", file: "c.vcd")
        }
    }
}
