import Testing
@testable import FlywheelCore

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
}
