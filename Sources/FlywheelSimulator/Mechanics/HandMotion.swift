import FlywheelCore

/// Constants of the hand and the knob's mechanism.
public struct MechanicsSettings: Hashable, Sendable {
    /// Exponential friction of a coasting knob, per second (v = v0·e^(−friction·t)).
    public var friction: Double = 6
    /// Below this speed (detents/s) a coasting knob is caught by the detent spring.
    public var stopVelocity: Double = 1
    /// How fast the detent spring pulls the knob onto the nearest detent (detents/s).
    public var snapSpeed: Double = 8
    /// Each detent of a turn goes at the requested speed times a factor in 1 ± this (a hand is
    /// not a motor).
    public var speedVariation: Double = 0.15
    /// How long a press or a release takes (the switch changes at its start).
    public var buttonTravelNanoseconds: Nanoseconds = 10_000_000
    /// How long each random stretch of a jitter lasts.
    public var jitterStretchNanoseconds: ClosedRange<Nanoseconds> = 20_000_000...80_000_000
    /// The longest pause at the turning point of a wiggle.
    public var wigglePauseNanoseconds: Nanoseconds = 10_000_000
    /// Quiet time before the first gesture.
    public var leadInNanoseconds: Nanoseconds = 20_000_000
    /// Quiet time after the last gesture (bounce dies down, USB polls drain).
    public var tailNanoseconds: Nanoseconds = 50_000_000

    /// Default settings.
    public init() {}
}

/// A press or release of a button at a time: the switch contact's intended change, the same
/// data as a ``ButtonEdge`` before bounce is added.
public typealias ButtonAction = ButtonEdge

/// The knob's whole motion: monotone segments between rests, the button actions, and the
/// ground truth.
public struct MotionPlan: Hashable, Sendable {
    /// Motion segments in time order; between them the knob rests where the last one ended.
    public var segments: [MotionSegment]
    /// Button presses and releases in time order.
    public var buttonActions: [ButtonAction]
    /// What each gesture did.
    public var gestures: [GestureRecord]
    /// Net detents moved: where the knob came to rest, relative to where it started.
    public var truthDetents: Int
    /// When the simulation ends.
    public var endNanoseconds: Nanoseconds
}

/// Turns gestures into a ``MotionPlan``: angle over time, in closed form per segment.
public enum HandMotion {
    /// Plans the motion of a gesture script.
    /// - Parameters:
    ///   - steps: gestures with the scenario line each came from.
    ///   - settings: hand and mechanism constants.
    ///   - defaultButton: the key a `press`/`release` without a name acts on.
    ///   - random: the hand's randomness (turn speed variation, jitter, wiggle pauses).
    public static func plan(
        _ steps: [(gesture: Gesture, line: Int)], settings: MechanicsSettings, defaultButton: UInt16?,
        random: inout SeededGenerator
    ) -> MotionPlan {
        var planner = Planner(settings: settings, time: settings.leadInNanoseconds)
        for step in steps {
            planner.perform(step.gesture, line: step.line, defaultButton: defaultButton, random: &random)
        }
        return MotionPlan(
            segments: planner.segments, buttonActions: planner.buttonActions, gestures: planner.gestures,
            truthDetents: planner.detent, endNanoseconds: planner.time + settings.tailNanoseconds)
    }

    struct Planner {
        let settings: MechanicsSettings
        var time: Nanoseconds
        var detent = 0
        var segments: [MotionSegment] = []
        var buttonActions: [ButtonAction] = []
        var gestures: [GestureRecord] = []

        init(settings: MechanicsSettings, time: Nanoseconds) {
            self.settings = settings
            self.time = time
        }

        /// Appends a linear move of the angle to `to`, lasting `seconds` (at least 1 ns).
        mutating func move(from: Double, to: Double, seconds: Double) {
            let duration = max(1, Nanoseconds((seconds * 1e9).rounded()))
            segments.append(.linear(start: time, end: time + duration, from: from, to: to))
            time += duration
        }

        mutating func perform(_ gesture: Gesture, line: Int, defaultButton: UInt16?, random: inout SeededGenerator) {
            let start = time
            let from = detent
            switch gesture {
            case .turn(let detents, let speed):
                turn(detents, speed: speed, random: &random)
            case .flick(let velocity):
                flick(velocity)
            case .hold(let duration):
                time += duration
            case .wiggle(let fraction, let speed):
                let base = Double(detent)
                let seconds = abs(fraction) / speed
                move(from: base, to: base + fraction, seconds: seconds)
                time += random.uniform(0...settings.wigglePauseNanoseconds)
                move(from: base + fraction, to: base, seconds: seconds)
            case .jitter(let amplitude, let duration):
                jitter(amplitude: amplitude, duration: duration, random: &random)
            case .press(let button), .release(let button):
                if let code = button ?? defaultButton {
                    var pressed = false
                    if case .press = gesture { pressed = true }
                    buttonActions.append(ButtonAction(timeNanoseconds: time, code: code, pressed: pressed))
                }
                time += settings.buttonTravelNanoseconds
            }
            gestures.append(
                GestureRecord(
                    gesture: gesture, line: line, startNanoseconds: start, endNanoseconds: time, fromDetent: from,
                    toDetent: detent))
        }

        /// One linear piece per detent, each at the speed times a random factor near 1.
        mutating func turn(_ detents: Int, speed: Double, random: inout SeededGenerator) {
            let direction = detents > 0 ? 1 : -1
            let variation = min(max(settings.speedVariation, 0), 0.9)
            for _ in 0..<abs(detents) {
                let factor = random.uniform((1 - variation)...(1 + variation))
                move(from: Double(detent), to: Double(detent + direction), seconds: 1 / (speed * factor))
                detent += direction
            }
        }

        /// Coasting under exponential friction until the speed falls to the stop velocity, then
        /// the detent spring pulls the knob onto the nearest detent.
        mutating func flick(_ velocity: Double) {
            let friction = settings.friction
            var angle = Double(detent)
            if abs(velocity) > settings.stopVelocity {
                let seconds = settings.coast(velocity: velocity).seconds
                let duration = max(1, Nanoseconds((seconds * 1e9).rounded()))
                let segment = MotionSegment.decay(
                    start: time, end: time + duration, from: angle, velocity: velocity, friction: friction)
                segments.append(segment)
                time += duration
                angle = segment.endAngle
            }
            let target = angle.rounded(.toNearestOrAwayFromZero)
            if target != angle {
                move(from: angle, to: target, seconds: abs(target - angle) / settings.snapSpeed)
            }
            detent = Int(target)
        }

        /// Random stretches to points within ±amplitude, then back onto the detent at the end.
        mutating func jitter(amplitude: Double, duration: Nanoseconds, random: inout SeededGenerator) {
            let base = Double(detent)
            let end = time + duration
            let stretch = settings.jitterStretchNanoseconds
            var offset = 0.0
            while end - time > 2 * stretch.upperBound {
                let target = random.uniform(-amplitude...amplitude)
                let length = random.uniform(stretch)
                segments.append(.linear(start: time, end: time + length, from: base + offset, to: base + target))
                time += length
                offset = target
            }
            let remaining = end - time
            if offset == 0, remaining >= 2 * stretch.lowerBound {
                let target = random.uniform(-amplitude...amplitude)
                let half = remaining / 2
                segments.append(.linear(start: time, end: time + half, from: base, to: base + target))
                time += half
                offset = target
            }
            if offset != 0 {
                segments.append(.linear(start: time, end: end, from: base + offset, to: base))
            }
            time = end
        }
    }
}
