import Testing
@testable import FlywheelCore
import FlywheelSimulator

/// The one encoding every client's copy is cut from: the bytes written straight into the buffer
/// are the JSON the text encoder writes, and the seq goes where the protocol says.
@Suite("Server message wire form")
struct ServerMessageWireTests {
    @Test("escapes, numbers and times in bytes match the text encoder, character for character")
    func bytesMatchText() {
        let values: [JSONValue] = [
            .string("quote \" backslash \\ nl \n cr \r tab \t bell \u{7} esc \u{1B} unit \u{1F} del \u{7F} é ♪ 🎛"),
            .int(0), .int(-42), .int(Int.max), .int(Int.min), .double(96.5), .double(1e-05), .double(.nan), .bool(true), .null,
            .array([.int(1), .string("a")]), .object([("k", .number("12.000250000"))]),
        ]
        for value in values {
            var bytes: [UInt8] = []
            value.encode(into: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == value.encoded())
        }
    }

    @Test("times are exact nine-digit seconds, negative ones too")
    func seconds() {
        for nanoseconds: Int64 in [0, 1, 999_999_999, 1_000_000_000, 12_000_250_000, -1_500_000_000, .max, .min + 1] {
            var bytes: [UInt8] = []
            nanoseconds.appendSecondsText(into: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == nanoseconds.secondsText)
        }
    }

    @Test("a client's bytes are the class, its seq, then the fields and the time; the count says how many")
    func seqSplice() {
        let message = ServerMessage(ControlEvent.tempo(bpm: 96, value: 76, phase: .moved, timeNanoseconds: 12_000_250_000))
        for seq: UInt64 in [1, 9, 10, 12345, .max] {
            let text = String(decoding: message.bytes(seq: seq), as: UTF8.self)
            #expect(text == #"{"class":"tempo","seq":\#(seq),"bpm":96,"value":76,"phase":"moved","time":12.000250000}"# + "\n")
            #expect(message.count(seq: seq) == text.utf8.count)
        }
        #expect(String(decoding: message.bytesWithoutSeq, as: UTF8.self)
            == #"{"class":"tempo","bpm":96,"value":76,"phase":"moved","time":12.000250000}"# + "\n")
    }

    /// Doubles a control event may carry: integral and not, tiny, huge, negative, six decimals
    /// and more, not finite, and any bit pattern at all.
    static func awkwardDouble(_ random: inout SplitMix64) -> Double {
        let fixed: [Double] = [0, -0.0, 1, -1, 0.5, 96.25, 1e-3, 9.99e-4, 123.456789, -0.000001, 1e8, 99_999_999.999999,
                               1e15, -1e15, 1e20, 1e-9, .nan, .infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude]
        switch random.next() % 4 {
        case 0: return fixed[Int(random.next() % UInt64(fixed.count))]
        case 1: return Double(Int64(bitPattern: random.next()) % 2_000_000_000) / 1e6  // six decimals
        case 2: return Double(Int64(bitPattern: random.next()) % 1_000_000) / Double(random.next() % 10_000 + 1)
        default: return Double(bitPattern: random.next())
        }
    }

    @Test("a control's event written straight into bytes is exactly what the one encoder writes for it")
    func controlEventsMatchTheEncoder() {
        var random = SplitMix64(seed: 17)
        func int() -> Int {
            let fixed = [0, 1, -1, 9, 10, Int.max, Int.min, 300]
            return random.next() % 3 == 0 ? fixed[Int(random.next() % 8)] : Int(Int64(bitPattern: random.next()) >> (random.next() % 64))
        }
        func time() -> Nanoseconds {
            let fixed: [Nanoseconds] = [0, 1, -1, 999_999_999, 1_000_000_000, .max, .min + 1, -1_500_000_000]
            return random.next() % 3 == 0 ? fixed[Int(random.next() % 8)] : Nanoseconds(bitPattern: random.next()) >> (random.next() % 64)
        }
        var double: Double { Self.awkwardDouble(&random) }
        let controls = Control.allCases, dialPhases = DialPhase.allCases
        let scrubPhases = Scrubber.Phase.allCases
        let outbox = Outbox()  // one for all 20,000: its room grows past what it keeps
        var expected: [ServerMessage] = []
        for round in 0..<20_000 {
            let event: ControlEvent
            switch round % 7 {
            case 0: event = .tempo(bpm: BPM(tenths: int()), value: int(), phase: dialPhases[round / 6 % dialPhases.count], timeNanoseconds: time())
            case 1: event = .volume(volume: int(), phase: dialPhases[round / 6 % dialPhases.count], timeNanoseconds: time())
            case 2:
                event = .scrub(phase: scrubPhases[round / 6 % 4], positionSeconds: double, durationSeconds: double, originSeconds: double,
                               timeNanoseconds: time())
            case 3: event = .mode(controls[round / 6 % 3], timeNanoseconds: time())
            case 4:
                event = .hint(control: controls[round / 6 % 3], direction: int(), peakDetents: double, durationSeconds: double,
                              timeNanoseconds: time())
            case 5:
                event = .frame(control: controls[round / 6 % 3], value: double, offset: double, velocity: double, timeNanoseconds: time())
            default: event = .switchFrame(position: double, offset: double, velocity: double, timeNanoseconds: time())
            }
            let direct = ServerMessage(event), encoded = ServerMessage(.control(event), at: event.timeNanoseconds)
            #expect(direct == encoded, "\(event): \(String(decoding: direct.wire, as: UTF8.self)) against \(String(decoding: encoded.wire, as: UTF8.self))")
            if direct != encoded { return }
            outbox.append(event)
            expected.append(encoded)
        }
        #expect(outbox.count == expected.count)
        for index in expected.indices {
            #expect(outbox.message(at: index) == expected[index], "outbox message \(index)")
            if outbox.message(at: index) != expected[index] { return }
        }
    }

    @Test("a number's decimal digits are counted as its text has them, at every power of two and of ten")
    func decimalCount() {
        var values: [UInt64] = [0, .max, .max - 1]
        for k in 0..<64 { values += [UInt64(1) << k, (UInt64(1) << k) - 1, (UInt64(1) << k) + 1] }
        var power: UInt64 = 1
        for _ in 0..<20 {
            values += [power - 1, power, power + 1]
            if power <= UInt64.max / 10 { power *= 10 }
        }
        var state: UInt64 = 0x243F_6A88_85A3_08D3
        for _ in 0..<10_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            values.append(state >> (state % 64))
        }
        for value in values { #expect(ByteWriter.decimalCount(value) == String(value).count, "\(value)") }
    }

    @Test("eight digits at once are the digits of the number's text, for every value of either half")
    func eightDigits() {
        func text(_ value: UInt64) -> String {
            withUnsafeBytes(of: ByteWriter.eightDigits(value).littleEndian) { String(decoding: $0, as: UTF8.self) }
        }
        func padded(_ value: UInt64) -> String { String(repeating: "0", count: 8 - String(value).count) + String(value) }
        // Each half is worked in its own lanes: every value of each, beside a few of the other.
        for half in UInt64(0)..<10_000 {
            for other: UInt64 in [0, 1, 9, 10, 99, 100, 999, 1_000, 5_555, 9_999] {
                for value in [half * 10_000 + other, other * 10_000 + half] {
                    #expect(text(value) == padded(value), "\(value)")
                }
            }
        }
        #expect(text(99_999_999) == "99999999" && text(0) == "00000000" && text(12_345_678) == "12345678")
    }

    @Test("the longest control event of each class fits the buffer it is written into, with room to spare")
    func longestControlEventFits() {
        // The longest texts: the longest names, integers of 20 characters, doubles of 24
        // ("-2.2250738585072014e-308"), the most negative time.
        let double = -2.2250738585072014e-308, time = Nanoseconds.min + 1
        #expect(JSONValue.double(double).encoded().utf8.count == 24)
        let longest: [ControlEvent] = [
            .tempo(bpm: BPM(tenths: .min), value: .min, phase: .settled, timeNanoseconds: time),
            .tempo(bpm: BPM(tenths: .min + 1), value: .min, phase: .settled, timeNanoseconds: time),
            .volume(volume: .min, phase: .settled, timeNanoseconds: time),
            .scrub(phase: .cancelled, positionSeconds: double, durationSeconds: double, originSeconds: double, timeNanoseconds: time),
            .mode(.volume, timeNanoseconds: time),
            .hint(control: .volume, direction: .min, peakDetents: double, durationSeconds: double, timeNanoseconds: time),
            .frame(control: .volume, value: double, offset: double, velocity: double, timeNanoseconds: time),
            .switchFrame(position: double, offset: double, velocity: double, timeNanoseconds: time),
        ]
        for event in longest {
            let length = ServerMessage(.control(event), at: event.timeNanoseconds).wire.count
            #expect(length <= ServerMessage.controlEventCapacity - 64, "\(event): \(length) bytes")
            #expect(ServerMessage(event).wire.count == length)
        }
    }
}
