import Testing
@testable import FlywheelCore

/// A dial's steps from its knobs' events: each `moved` moves the shared detent, and a `began`
/// carries the value the dial has after the events it came with (a client sees where the turn
/// that began the gesture took it).
@Suite("Dial knob: steps from the knobs' events")
struct DialKnobTests {
    func dial() -> DialKnob { DialKnob(values: Array(20...300), value: 120, parameters: FeelParameters()) }

    @Test("a began carries the value after its turn's moves; moves carry their own; released makes nothing")
    func oneBegan() {
        var knob = dial()
        var steps: [DialKnob.Step] = []
        let events: [KnobGroup.Event] = [
            .began(timeNanoseconds: 10), .moved(detents: 1, timeNanoseconds: 10), .moved(detents: 2, timeNanoseconds: 12),
            .released(velocity: 3, timeNanoseconds: 13),
        ]
        knob.appendSteps(events, from: 0, into: &steps) { $0 }
        #expect(steps.map(\.value) == [123, 121, 123])
        #expect(steps.map(\.phase) == [.began, .moved, .moved])
        #expect(steps.map(\.timeNanoseconds) == [10, 10, 12])
        #expect(knob.value == 123)
    }

    @Test("two gestures in one turn: each began carries the value after the whole turn, at its own place and time")
    func twoBegan() {
        var knob = dial()
        // Events before `start` are an earlier turn's: left alone.
        var steps = [DialKnob.Step(value: 1, detent: 0, phase: .moved, timeNanoseconds: 0)]
        let events: [KnobGroup.Event] = [
            .moved(detents: 5, timeNanoseconds: 1),
            .began(timeNanoseconds: 10), .moved(detents: -1, timeNanoseconds: 10), .rest(timeNanoseconds: 20),
            .began(timeNanoseconds: 30), .moved(detents: -1, timeNanoseconds: 30), .began(timeNanoseconds: 31),
        ]
        knob.appendSteps(events, from: 1, into: &steps) { $0 }
        #expect(steps.map(\.phase) == [.moved, .began, .moved, .settled, .began, .moved, .began])
        #expect(steps.map(\.value) == [1, 118, 119, 119, 118, 118, 118])
        #expect(steps.map(\.timeNanoseconds) == [0, 10, 10, 20, 30, 30, 31])
    }

    @Test("a move past the table's end changes nothing and makes no step")
    func clamped() {
        var knob = DialKnob(values: [1, 2, 3], value: 3, parameters: FeelParameters())
        var steps: [DialKnob.Step] = []
        knob.appendSteps([.began(timeNanoseconds: 5), .moved(detents: 1, timeNanoseconds: 5)], from: 0, into: &steps) { $0 }
        #expect(steps.map(\.phase) == [.began] && steps.map(\.value) == [3])
    }
}
