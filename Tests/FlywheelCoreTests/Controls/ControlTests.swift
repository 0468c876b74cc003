import Testing
@testable import FlywheelCore

@Suite("Tempo and scrub controls on the knob engine")
struct ControlTests {
    static let ms: Int64 = 1_000_000

    /// Drives a control's deadlines until rest.
    static func settle(_ advance: (Nanoseconds) -> [ControlEvent], _ deadline: () -> Nanoseconds?) -> [ControlEvent] {
        var events: [ControlEvent] = []
        var guardCount = 0
        while let next = deadline(), guardCount < 1000 {
            events += advance(next)
            guardCount += 1
        }
        return events
    }

    static func phases(_ events: [ControlEvent]) -> [String] {
        events.compactMap {
            switch $0 {
            case .scrub(let phase, _, _, _, _): return phase.rawValue
            case .tempo(_, _, let phase, _): return phase.rawValue
            default: return nil
            }
        }
    }

    @Test("scrub: a touch let go within 0.2 s is cancelled and rolls back (armed)")
    func scrubCancel() {
        var scrub = ScrubControl(scrubber: Scrubber(durationSeconds: 214, positionSeconds: 100))
        var events = scrub.move(by: 1, at: 0, touching: true)
        events += scrub.lift(at: 50 * Self.ms)
        events += Self.settle({ scrub.advance(to: $0) }, { scrub.nextDeadline })
        #expect(Self.phases(events) == ["began", "moved", "cancelled"])
        #expect(scrub.scrubber.positionSeconds == 100)
        if case .scrub(_, let position, _, _, _) = events.last! { #expect(position == 100) }
    }

    @Test("scrub: a knob's single click commits once the knob rests and the hand has been still (on rest)")
    func scrubClick() {
        var scrub = ScrubControl(scrubber: Scrubber(durationSeconds: 214, positionSeconds: 100))
        var events = scrub.move(by: 1, at: 0)
        events += Self.settle({ scrub.advance(to: $0) }, { scrub.nextDeadline })
        #expect(Self.phases(events) == ["began", "moved", "committed"])
        #expect(abs(scrub.scrubber.positionSeconds - 101.07) < 1e-9)
        #expect(events.last?.timeNanoseconds == scrub.restCommitNanoseconds)
    }

    @Test("scrub: a shuttle ring runs the scrub at its position's rate, one event a detent, and commits at centre")
    func shuttle() {
        var scrub = ScrubControl(scrubber: Scrubber(durationSeconds: 214, positionSeconds: 100))
        let perDetent = scrub.scrubber.secondsPerDetent
        var events = scrub.shuttle(rate: 4, at: 0)
        #expect(Self.phases(events) == ["began"])
        // While held, the deadline is one detent's worth of scrubbing at 4× real time away.
        #expect(scrub.nextDeadline == Nanoseconds(perDetent / 4 * 1e9))
        var moves = 0
        while let next = scrub.nextDeadline, next <= 2_000 * Self.ms {
            let step = scrub.advance(to: next)
            moves += Self.phases(step).filter { $0 == "moved" }.count
        }
        #expect(moves == Int(2 / (perDetent / 4)))
        events = scrub.shuttle(rate: 0, at: 2_000 * Self.ms)
        #expect(Self.phases(events).last == "committed")
        #expect(abs(scrub.scrubber.positionSeconds - 108) < 1e-6)  // 2 s at 4× real time
        #expect(scrub.nextDeadline == nil)

        // A flick of the ring shorter than the arming time rolls back.
        events = scrub.shuttle(rate: -8, at: 3_000 * Self.ms) + scrub.shuttle(rate: 0, at: 3_100 * Self.ms)
        #expect(Self.phases(events).last == "cancelled")
        #expect(abs(scrub.scrubber.positionSeconds - 108) < 1e-6)
    }

    @Test("scrub: a slow turn is one gesture, committed once where the knob rests")
    func scrubCommit() {
        var scrub = ScrubControl(scrubber: Scrubber(durationSeconds: 214, positionSeconds: 100))
        var events: [ControlEvent] = []
        for i in 0..<4 { events += scrub.move(by: 1, at: Int64(i) * 150 * Self.ms) }  // gaps over the 100 ms release silence
        events += Self.settle({ scrub.advance(to: $0) }, { scrub.nextDeadline })
        #expect(Self.phases(events) == ["began", "moved", "moved", "moved", "moved", "committed"])
        #expect(abs(scrub.scrubber.positionSeconds - (100 + 4 * 1.07)) < 1e-9)
    }

    @Test("scrub: a flick keeps scrubbing by momentum, then commits")
    func scrubFlick() {
        var scrub = ScrubControl(scrubber: Scrubber(durationSeconds: 2636, positionSeconds: 600))
        var events: [ControlEvent] = []
        for i in 0..<8 { events += scrub.move(by: -1, at: Int64(i) * 25 * Self.ms) }  // 40 detents/s, 175 ms
        for i in 8..<12 { events += scrub.move(by: -1, at: Int64(i) * 25 * Self.ms) }  // armed by now
        events += Self.settle({ scrub.advance(to: $0) }, { scrub.nextDeadline })
        let moved = Self.phases(events).filter { $0 == "moved" }.count
        #expect(moved > 12)  // more detents than the hand turned
        #expect(Self.phases(events).last == "committed")
        #expect(abs(scrub.scrubber.positionSeconds - (600 - Double(moved) * 13.18)) < 1e-6)
    }

    @Test("tempo: detents walk the table, clamped at the ends, and settle")
    func tempo() {
        var tempo = TempoControl(dial: TempoDial(table: .maelzel), bpm: 200)
        var events: [ControlEvent] = []
        for i in 0..<4 { events += tempo.move(by: 1, at: Int64(i) * 300 * Self.ms) }
        events += Self.settle({ tempo.advance(to: $0) }, { tempo.nextDeadline })
        let bpms = events.compactMap { if case .tempo(let bpm, _, .moved, _) = $0 { return bpm } else { return nil } }
        #expect(bpms == [208])  // 200 → 208, then the end of the table
        #expect(tempo.bpm == 208)
        #expect(Self.phases(events).last == "settled")
    }

    @Test("events encode as the socket's JSON objects")
    func json() {
        let event = ControlEvent.scrub(phase: .committed, positionSeconds: 12.5, durationSeconds: 2636, originSeconds: 10, timeNanoseconds: 1_500_000_000)
        #expect(String(decoding: ServerMessage(event).bytes(seq: 7), as: UTF8.self)
                == #"{"class":"scrub","seq":7,"phase":"committed","position":12.5,"duration":2636,"origin":10,"time":1.500000000}"# + "\n")
        #expect(String(decoding: ServerMessage(ControlEvent.tempo(bpm: 96, value: 76, phase: .moved, timeNanoseconds: 0)).bytesWithoutSeq, as: UTF8.self)
                == #"{"class":"tempo","bpm":96,"value":76,"phase":"moved","time":0.000000000}"# + "\n")
    }
}
