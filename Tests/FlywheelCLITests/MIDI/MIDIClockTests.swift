@testable import FlywheelCLI
import FlywheelCore
import Testing

@Suite("MIDI clock schedule and messages")
struct MIDIClockTests {
    @Test("ticks are anchor + k·period: no drift after an hour of ticks at 123 BPM")
    func driftFree() {
        var clock = MIDIClock(bpm: 123, start: 5_000_000_000)
        let period = 60e9 / (123 * 24)
        #expect(clock.ticks(dueBy: 5_000_000_000) == 1)
        let hour: Int64 = 3600 * 123 * 24 / 60  // ticks in an hour at 123 BPM: 177,120
        // The tick due exactly an hour after the first is sent, and the one after it is due at its exact time.
        #expect(clock.ticks(dueBy: 5_000_000_000 + 3_600_000_000_000) == Int(hour))
        #expect(clock.nextTick == 5_000_000_000 + Nanoseconds((Double(hour + 1) * period).rounded()))
        #expect(abs(Double(clock.nextTick - 5_000_000_000) - Double(hour + 1) * period) <= 0.5)
    }

    @Test("a tempo change retimes the next tick from the last one sent, not the past ones")
    func tempoChange() {
        var clock = MIDIClock(bpm: 120, start: 0)
        #expect(clock.ticks(dueBy: 100_000_000) == 5)  // 0, 20.8, 41.7, 62.5, 83.3 ms
        let last = clock.due(4)
        clock.setTempo(bpm: 240)
        #expect(clock.nextTick == last + Nanoseconds((60e9 / (240 * 24)).rounded()))
        #expect(clock.ticks(dueBy: last + 10_416_667) == 1 && clock.ticks(dueBy: last + 20_000_000) == 0)
    }

    @Test("knob steps as relative CC 60 (1 up, 65 down), buttons as notes, a scrub commit as Song Position Pointer")
    func messages() throws {
        var midi = MIDIMessages(channel: 3)
        func bytes(_ json: String) throws -> [UInt8] { midi.bytes(for: try JSONParser.parse(Array(json.utf8))) }
        #expect(try bytes(#"{"class":"tempo","bpm":120,"value":100,"phase":"began"}"#) == [])
        #expect(try bytes(#"{"class":"tempo","bpm":121,"value":101,"phase":"moved"}"#) == [0xB2, 60, 1])
        #expect(try bytes(#"{"class":"tempo","bpm":120,"value":100,"phase":"moved"}"#) == [0xB2, 60, 65])
        #expect(try bytes(#"{"class":"tempo","bpm":96,"value":76,"phase":"set"}"#) == [])
        #expect(try bytes(#"{"class":"button","code":257,"action":"press"}"#) == [0x92, 37, 100])
        #expect(try bytes(#"{"class":"button","code":257,"action":"release"}"#) == [0x82, 37, 0])
        #expect(try bytes(#"{"class":"button","code":257,"action":"tap"}"#) == [])
        var controllers = MIDIMessages(channel: 16, mapping: MIDIMapping(buttonStyle: .cc))
        #expect(controllers.bytes(for: try JSONParser.parse(Array(#"{"class":"button","code":256,"action":"press"}"#.utf8))) == [0xBF, 36, 127])
        #expect(controllers.bytes(for: try JSONParser.parse(Array(#"{"class":"button","code":256,"action":"release"}"#.utf8))) == [0xBF, 36, 0])
        // 10 s at 96 BPM is 16 beats, 64 sixteenths: SPP 64 = LSB 64, MSB 0.
        #expect(try bytes(#"{"class":"scrub","phase":"committed","position":10,"duration":214,"origin":0}"#) == [0xF2, 64, 0])
    }

    @Test("a gesture's first step is sent: `began` carries the value after the step it came with, so the step is measured from the value before (the state, or the last event)")
    func firstStepOfGesture() throws {
        var midi = MIDIMessages(channel: 1)
        func bytes(_ json: String) throws -> [UInt8] { midi.bytes(for: try JSONParser.parse(Array(json.utf8))) }
        #expect(try bytes(#"{"class":"state","tempo":{"bpm":120,"value":119},"volume":{"volume":40},"scrub":{"position":10}}"#) == [])
        // The knob's first detent: began and moved in one batch, both carrying the new value.
        #expect(try bytes(#"{"class":"tempo","bpm":121,"value":120,"phase":"began"}"#) == [])
        #expect(try bytes(#"{"class":"tempo","bpm":121,"value":120,"phase":"moved"}"#) == [0xB0, 60, 1])
        #expect(try bytes(#"{"class":"tempo","bpm":121,"value":120,"phase":"settled"}"#) == [])
        #expect(try bytes(#"{"class":"tempo","bpm":123,"value":122,"phase":"began"}"#) == [])
        #expect(try bytes(#"{"class":"tempo","bpm":123,"value":122,"phase":"moved"}"#) == [0xB0, 60, 2])
        #expect(try bytes(#"{"class":"volume","volume":42,"phase":"began"}"#) == [])
        #expect(try bytes(#"{"class":"volume","volume":42,"phase":"moved"}"#) == [0xB0, 60, 2])
    }
}
