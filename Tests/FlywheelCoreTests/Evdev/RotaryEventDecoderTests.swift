import Testing
@testable import FlywheelCore

@Suite("Rotary evdev decoding")
struct RotaryEventDecoderTests {
    static func rel(_ code: UInt16, _ value: Int32, at time: Int64 = 0) -> InputEvent {
        InputEvent(timeNanoseconds: time, type: EventType.rel, code: code, value: value)
    }

    @Test("signed deltas larger than 1 all count (a fast PowerMate turn)")
    func deltas() {
        var decoder = RotaryEventDecoder(report: .delta(code: RelCode.dial, countsPerDetent: 1))
        var fired = 0
        for value: Int32 in [7, 7, -3, 2] { fired += decoder.feed(Self.rel(RelCode.dial, value)) }
        #expect(fired == 13 && decoder.detents == 13)
    }

    @Test("extreme reports are counted in closed form: REL_DIAL ±2³¹ and a frame of 4,096 REL_WHEEL 2³¹−1")
    func extremeReports() {
        var dial = RotaryEventDecoder(report: .delta(code: RelCode.dial, countsPerDetent: 4))
        var fired: [Int] = []
        for value: Int32 in [.max, .min, -3, 5, 1] { fired.append(dial.feed(Self.rel(RelCode.dial, value))) }
        // +2³¹−1 counts: 536,870,911 detents; −2³¹ back to counts −1: detent 0; −3 reaches −4, a
        // detent down; +5 to counts 1, back to 0; +1 to counts 2: within the detent, nothing.
        #expect(fired == [536_870_911, -536_870_911, -1, 1, 0])
        #expect(dial.counts == 2 && dial.detents == 0)
        // 4,096 × (2³¹−1) × 120 counts in one frame: a step per detent would never finish.
        var wheel = RotaryEventDecoder(report: .highResolutionWheel)
        for _ in 0..<4096 { _ = wheel.feed(Self.rel(RelCode.wheel, .max)) }
        #expect(wheel.feed(.synReport(at: 0)) == 4096 * Int(Int32.max))
    }

    @Test("a wrapping 8-bit counter unwraps across 255→0 and 0→255")
    func counterWrap() {
        var decoder = RotaryEventDecoder(report: .wrappingCounter(code: RelCode.dial, modulus: 256, countsPerDetent: 1))
        var total = 0
        for value: Int32 in [250, 253, 255, 1, 4, 2, 0, 254, 251] { total += decoder.feed(Self.rel(RelCode.dial, value)) }
        #expect(total == 1)  // 250 → 4 is +10, back to 251 is -9
        #expect(decoder.counts == 1)
    }

    @Test("high-resolution wheel: partial detents accumulate, REL_WHEEL is not counted twice")
    func hiRes() {
        var decoder = RotaryEventDecoder(report: .highResolutionWheel)
        var fired: [Int] = []
        let frames: [[InputEvent]] = [
            [Self.rel(RelCode.wheelHiRes, 60)],
            [Self.rel(RelCode.wheelHiRes, 60), Self.rel(RelCode.wheel, 1)],
            [Self.rel(RelCode.wheelHiRes, -90)],
            [Self.rel(RelCode.wheelHiRes, -30)],
        ]
        for frame in frames {
            for event in frame + [.synReport(at: 0)] {
                let result = decoder.feed(event)
                if result != 0 { fired.append(result) }
            }
        }
        #expect(fired == [1, -1])
        #expect(decoder.counts == 0)
    }

    @Test("a partial move and back never fires (hysteresis of one detent)")
    func hysteresis() {
        var decoder = RotaryEventDecoder(report: .delta(code: RelCode.x, countsPerDetent: 4))
        var fired = 0
        for value: Int32 in [3, -3, 3, -3, -3, 3] { fired += decoder.feed(Self.rel(RelCode.x, value)) }
        #expect(fired == 0)
        fired += decoder.feed(Self.rel(RelCode.x, 4))
        #expect(fired == 1)
    }
}
