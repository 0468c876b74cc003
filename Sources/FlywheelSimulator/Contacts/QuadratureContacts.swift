import FlywheelCore

/// One intended change of a quadrature line: the knob crossing from one quarter step to the next.
public struct ContactTransition: Hashable, Sendable {
    /// When the line changes, in nanoseconds.
    public var timeNanoseconds: Nanoseconds
    /// The line that changes.
    public var line: QuadratureLine
    /// Its new level.
    public var level: Bool
    /// The quarter-step index after the change (0 at the starting detent's rest).
    public var index: Int
}

/// The A/B contacts of an encoder: which levels each angle gives, and the edges a motion
/// produces, with bounce and chatter.
public enum QuadratureContacts {
    /// The quarter-step index at an angle: i = ⌊angle·S + ½⌋, so a detent's centre sits in the
    /// middle of its rest state's span.
    public static func index(atAngle angle: Double, stepsPerDetent: StepsPerDetent) -> Int {
        Int((angle * Double(stepsPerDetent.rawValue) + 0.5).rounded(.down))
    }

    /// The levels at a quarter-step index: the rest state's phase plus the index.
    public static func levels(atIndex index: Int, rest: QuadratureLevels) -> QuadratureLevels {
        QuadratureLevels.atPhase(rest.phase + index)
    }

    /// Every intended line change of a motion, in order, with strictly increasing times (a
    /// change that would share a nanosecond with the one before is moved 1 ns later).
    public static func transitions(
        of segments: [MotionSegment], stepsPerDetent: StepsPerDetent, rest: QuadratureLevels
    ) -> [ContactTransition] {
        let steps = Double(stepsPerDetent.rawValue)
        var result: [ContactTransition] = []
        var current = 0
        var levels = rest
        var lastTime = Nanoseconds.min
        func add(_ index: Int, at time: Nanoseconds) {
            let next = Self.levels(atIndex: index, rest: rest)
            let line: QuadratureLine = next.a != levels.a ? .a : .b
            let when = max(time, lastTime == .min ? time : lastTime + 1)
            result.append(ContactTransition(timeNanoseconds: when, line: line, level: next.level(of: line), index: index))
            levels = next
            lastTime = when
            current = index
        }
        for segment in segments {
            let target = Self.index(atAngle: segment.endAngle, stepsPerDetent: stepsPerDetent)
            while current < target {
                let boundary = (Double(current + 1) - 0.5) / steps
                add(current + 1, at: segment.time(atAngle: boundary))
            }
            while current > target {
                let boundary = (Double(current) - 0.5) / steps
                add(current - 1, at: segment.time(atAngle: boundary))
            }
        }
        return result
    }

    /// The contact trace: each intended change, then its bounce (an even number of extra
    /// toggles, over before the next change starts: a wiper has left the pad edge by the time
    /// the knob reaches the next one), then chatter in the quiet time before the next change.
    /// No two edges share a nanosecond.
    public static func trace(
        transitions: [ContactTransition], rest: QuadratureLevels, end: Nanoseconds, bounce: BounceSettings,
        chatter: ChatterSettings?, bounceRandom: inout SeededGenerator, chatterRandom: inout SeededGenerator
    ) -> QuadratureTrace {
        var edges: [QuadratureEdge] = []
        edges.reserveCapacity(transitions.count * 3)
        var levels = rest
        var quietFrom: Nanoseconds = 0
        for (j, transition) in transitions.enumerated() {
            if let chatter {
                Chatter.pulses(
                    chatter, from: quietFrom, to: transition.timeNanoseconds, levels: levels, into: &edges,
                    random: &chatterRandom)
            }
            let time = transition.timeNanoseconds
            edges.append(QuadratureEdge(timeNanoseconds: time, line: transition.line, level: transition.level))
            levels = levels.setting(transition.line, to: transition.level)
            let next = j + 1 < transitions.count ? transitions[j + 1].timeNanoseconds : end
            let maxWindow = max(0, (next - time) * 3 / 4)
            var level = transition.level
            var last = time
            for offset in Bounce.toggleOffsets(bounce, maxWindow: maxWindow, random: &bounceRandom) {
                level.toggle()
                last = time + offset
                edges.append(QuadratureEdge(timeNanoseconds: last, line: transition.line, level: level))
            }
            quietFrom = last
        }
        if let chatter {
            Chatter.pulses(chatter, from: quietFrom, to: end, levels: levels, into: &edges, random: &chatterRandom)
        }
        return QuadratureTrace(initial: rest, edges: edges)
    }
}

/// Chatter: a line briefly opens and closes again while nothing else is happening.
enum Chatter {
    /// The shortest quiet time kept between a chatter pulse and any other edge.
    static let guardNanoseconds: Nanoseconds = 1_000

    /// Appends pulses (pairs of edges on one line) at Poisson times between `from` and `to`,
    /// each wholly inside that interval with a guard on both sides.
    static func pulses(
        _ settings: ChatterSettings, from: Nanoseconds, to: Nanoseconds, levels: QuadratureLevels,
        into edges: inout [QuadratureEdge], random: inout SeededGenerator
    ) {
        var time = from + guardNanoseconds
        let limit = to - guardNanoseconds
        while true {
            let gap = -Elementary.log(1 - random.unitDouble()) / settings.ratePerSecond
            guard gap.isFinite, gap < Double(limit - time) / 1e9 else { return }
            time += max(1, Nanoseconds((gap * 1e9).rounded()))
            let width = random.uniform(settings.widthNanoseconds)
            let line: QuadratureLine = random.chance(0.5) ? .a : .b
            guard time + width < limit else { return }
            let level = levels.level(of: line)
            edges.append(QuadratureEdge(timeNanoseconds: time, line: line, level: !level))
            edges.append(QuadratureEdge(timeNanoseconds: time + width, line: line, level: level))
            time += width + guardNanoseconds
        }
    }
}
