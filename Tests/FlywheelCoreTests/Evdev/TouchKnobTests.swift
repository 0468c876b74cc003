import Testing

@testable import FlywheelCore

/// A touch region as a knob, with a finger's real paths.
@Suite("Touch knob")
struct TouchKnobTests {
    static let ring = TouchRegion.ring(centerX: 0, centerY: 0, minimumRadius: 20, detentsPerTurn: 24)

    static func contacts(_ points: [(Double, Double)]) -> [TouchTracker.Frame] {
        points.enumerated().map { index, point in
            .contact(x: point.0, y: point.1, began: index == 0, timeNanoseconds: Nanoseconds(index) * 10_000_000)
        }
    }

    static func total(_ knob: inout TouchKnob, _ frames: [TouchTracker.Frame]) -> (detents: Double, largest: Double) {
        var total = 0.0, largest = 0.0
        for frame in frames {
            if case .move(let detents, _)? = knob.feed(frame) {
                total += detents
                largest = max(largest, abs(detents))
            }
        }
        return (total, largest)
    }

    @Test("a straight swipe through the ring's centre turns it by nothing, not half a turn")
    func swipeThroughCentre() {
        var knob = TouchKnob(region: Self.ring)
        // Left to right along y = 1 (just off the axis), through the dead zone.
        let path = stride(from: -100.0, through: 100.0, by: 5).map { ($0, 1.0) }
        let (total, largest) = Self.total(&knob, Self.contacts(path))
        #expect(abs(total) < 0.5, "turned \(total) detents")
        #expect(largest < 0.5)
    }

    @Test("a circle outside the dead zone turns it a whole turn; the lift is reported")
    func circle() {
        var knob = TouchKnob(region: Self.ring)
        let path = (0...72).map { step -> (Double, Double) in
            let angle = Double(step) / 72 * 2 * .pi
            return (80 * Elementary.cos(angle), 80 * Elementary.sin(angle))
        }
        let (total, _) = Self.total(&knob, Self.contacts(path))
        #expect(abs(total - 24) < 1e-6)
        #expect(knob.feed(.lifted(timeNanoseconds: 1_000_000_000)) == .lift(timeNanoseconds: 1_000_000_000))
    }

    @Test("a ring's angle change is unwrapped across ±π: the short way round, in both directions")
    func unwrapAcrossPi() {
        // Counter-clockwise from 3 rad to −3 rad is +0.28 rad, not −6; clockwise back is −0.28.
        #expect(Radians(-3).change(from: Radians(3)) == Radians(2 * .pi - 6))
        #expect(Radians(3).change(from: Radians(-3)) == Radians(6 - 2 * .pi))
        #expect(Radians(1).change(from: Radians(-1)) == Radians(2))
        #expect(Radians(.pi / 2).turns == 0.25)
        // On the knob: from 179° to 181° (atan2 says −179°) is 2° of 24 detents a turn.
        var knob = TouchKnob(region: Self.ring)
        let path = [179.0, 181.0].map { degrees -> (Double, Double) in
            (80 * Elementary.cos(degrees / 180 * .pi), 80 * Elementary.sin(degrees / 180 * .pi))
        }
        let (total, _) = Self.total(&knob, Self.contacts(path))
        #expect(abs(total - 2.0 / 360 * 24) < 1e-9, "turned \(total) detents")
    }

    @Test("a contact that stays in the dead zone still lifts")
    func deadZoneLift() {
        var knob = TouchKnob(region: Self.ring)
        #expect(knob.feed(.contact(x: 1, y: 1, began: true, timeNanoseconds: 0)) == nil)
        #expect(knob.feed(.lifted(timeNanoseconds: 5)) == .lift(timeNanoseconds: 5))
    }
}
