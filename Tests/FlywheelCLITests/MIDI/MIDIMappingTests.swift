@testable import FlywheelCLI
import FlywheelCore
import Testing

@Suite("MIDI mapping of controls and buttons")
struct MIDIMappingTests {
    /// The bytes for each of `events` in turn, through one `MIDIMessages`.
    static func bytes(_ events: [String], _ mapping: MIDIMapping = MIDIMapping(), channel: Int = 1) throws -> [[UInt8]] {
        var midi = MIDIMessages(channel: channel, mapping: mapping)
        var out: [[UInt8]] = []
        for event in events { out.append(midi.bytes(for: try JSONParser.parse(Array(event.utf8)))) }
        return out
    }

    @Test("--knob-cc sets every control's controller, CONTROL=N one of them; a refused one changes nothing")
    func controllers() throws {
        var mapping = MIDIMapping()
        let accepted = [mapping.setController("20"), mapping.setController("volume=7")]
        #expect(accepted == [true, true])
        #expect(mapping.controller(for: .tempo) == 20 && mapping.controller(for: .scrub) == 20 && mapping.controller(for: .volume) == 7)
        let sent = try Self.bytes([
            #"{"class":"volume","volume":40,"phase":"began"}"#, #"{"class":"volume","volume":44,"phase":"moved"}"#,
            #"{"class":"tempo","bpm":120,"value":100,"phase":"began"}"#, #"{"class":"tempo","bpm":117,"value":97,"phase":"moved"}"#,
        ], mapping)
        let expected: [[UInt8]] = [[], [0xB0, 7, 4], [], [0xB0, 20, 67]]
        #expect(sent == expected)
        let refused = ["120", "-1", "x", "pan=7", "tempo=", "=7", "tempo=128"].map { mapping.setController($0) }
        #expect(!refused.contains(true))
        #expect(mapping.controller(for: .tempo) == 20)
    }

    @Test("--button maps one button to a note or a controller; the others keep the --buttons style")
    func buttons() throws {
        var mapping = MIDIMapping()
        mapping.buttonStyle = .cc
        let accepted = [mapping.setButton("BTN_0=note:60"), mapping.setButton("257=cc:64")]
        #expect(accepted == [true, true])
        let sent = try Self.bytes([
            #"{"class":"button","code":256,"action":"press"}"#, #"{"class":"button","code":256,"action":"release"}"#,
            #"{"class":"button","code":257,"action":"press"}"#, #"{"class":"button","code":258,"action":"press"}"#,
        ], mapping, channel: 10)
        let expected: [[UInt8]] = [[0x99, 60, 100], [0x89, 60, 0], [0xB9, 64, 127], [0xB9, 38, 127]]
        #expect(sent == expected)
        let refused = ["BTN_0", "BTN_0=60", "BTN_0=note:128", "BTN_0=cc:120", "BTN_0=pc:3", "BTN_X=note:60", "BTN_0=note:"].map { mapping.setButton($0) }
        #expect(!refused.contains(true))
    }

    @Test("a knob step of several detents is one relative CC of that size (at most 63); scrub steps by direction")
    func relativeSize() throws {
        let sent = try Self.bytes([
            #"{"class":"tempo","bpm":120,"value":100,"phase":"began"}"#, #"{"class":"tempo","bpm":125,"value":105,"phase":"moved"}"#,
            #"{"class":"tempo","bpm":225,"value":205,"phase":"moved"}"#, #"{"class":"tempo","bpm":224,"value":204,"phase":"moved"}"#,
            #"{"class":"scrub","position":10,"phase":"began"}"#, #"{"class":"scrub","position":10.4,"phase":"moved"}"#,
        ])
        let expected: [[UInt8]] = [[], [0xB0, 60, 5], [0xB0, 60, 63], [0xB0, 60, 65], [], [0xB0, 60, 1]]
        #expect(sent == expected)
    }
}
