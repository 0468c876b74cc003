/// How many steps one detent makes at the speed the hand turns: a point curve of (speed in
/// detents per second, steps per detent), as libinput's custom acceleration. Below the first
/// point's speed a detent is exactly one step; between points the factor is linear; past the
/// last point it stays at the last factor.
public struct AccelerationCurve: Sendable, Hashable {
    /// One point: at `speed` detents per second, a detent makes `factor` steps.
    public struct Point: Sendable, Hashable {
        /// The hand's speed, detents per second (above 0).
        package var speed: Double
        /// The steps one detent makes at that speed (1 or more: acceleration never slows a knob).
        package var factor: Double
        /// A point.
        package init(speed: Double, factor: Double) {
            self.speed = speed
            self.factor = factor
        }
    }

    /// The points, by increasing speed (none: every detent is one step).
    package let points: [Point]

    /// The accepted speeds and factors of a point.
    package static let acceptedSpeeds: ClosedRange<Double> = 0.1...1000
    package static let acceptedFactors: ClosedRange<Double> = 1...100
    /// The most points a curve has.
    package static let maximumPoints = 16

    /// A curve through `points`, which must pass ``problem(with:)``.
    public init(points: [Point]) {
        precondition(Self.problem(with: points) == nil, "an acceptable curve")
        self.points = points
    }

    /// What is wrong with `points` as a curve, or nil: speeds in ``acceptedSpeeds`` and
    /// increasing, factors in ``acceptedFactors`` and never falling (a faster turn never moves
    /// less than a slower one), at most ``maximumPoints``.
    public static func problem(with points: [Point]) -> String? {
        guard points.count <= maximumPoints else { return "has \(points.count) points, at most \(maximumPoints) are accepted" }
        for (index, point) in points.enumerated() {
            guard acceptedSpeeds.contains(point.speed) else {
                return "point \(index + 1) has the speed \(ConfigReader.text(point.speed)): speeds are detents per second from 0.1 to 1000"
            }
            guard acceptedFactors.contains(point.factor) else {
                return "point \(index + 1) has the factor \(ConfigReader.text(point.factor)): factors are steps per detent from 1 to 100"
            }
            if index > 0, point.speed <= points[index - 1].speed {
                return "point \(index + 1) is not faster than point \(index): speeds must increase"
            }
            if index > 0, point.factor < points[index - 1].factor {
                return "point \(index + 1) has a smaller factor than point \(index): a faster turn would move less; factors must not fall"
            }
        }
        return nil
    }

    /// No acceleration: every detent is one step, at any speed.
    public static let off = AccelerationCurve(points: [])
    /// One step a detent up to 5 detents/s (a slow, counted turn), 2 at 15/s (a quick turn),
    /// 4 from 30/s (a spin of the wrist): 24 detents spun at 40/s make 93 steps.
    package static let gentle = AccelerationCurve(points: [Point(speed: 5, factor: 1), Point(speed: 15, factor: 2), Point(speed: 30, factor: 4)])
    /// One step a detent up to 5 detents/s, 3 at 10/s, 10 from 30/s: 24 detents spun at 40/s
    /// make 231 steps, the whole tempo range in one sweep.
    package static let strong = AccelerationCurve(points: [Point(speed: 5, factor: 1), Point(speed: 10, factor: 3), Point(speed: 30, factor: 10)])

    /// The presets by name: `off`, `gentle`, `strong`.
    public static func preset(_ name: String) -> AccelerationCurve? {
        switch name {
        case "off": return .off
        case "gentle": return .gentle
        case "strong": return .strong
        default: return nil
        }
    }

    /// The preset names, for messages.
    package static let presetNames = ["off", "gentle", "strong"]

    /// The default for each control: tempo and volume accelerate gently (a slow turn counts whole
    /// BPMs or volume steps, a spin crosses the range in a sweep or two); the scrub does not, as
    /// its resolution already scales with the content's length.
    public static func standard(for control: Control) -> AccelerationCurve {
        switch control {
        case .tempo, .volume: return .gentle
        case .scrub, .navigate: return .off  // the navigator: a detent is a track, however fast
        }
    }

    /// Whether every detent is one step.
    package var isOff: Bool { points.isEmpty }

    /// The steps one detent makes at `speed` detents per second.
    package func factor(atSpeed speed: Double) -> Double {
        guard let first = points.first, speed >= first.speed else { return 1 }
        for index in points.indices.dropFirst() where speed < points[index].speed {
            let low = points[index - 1], high = points[index]
            return low.factor + (high.factor - low.factor) * (speed - low.speed) / (high.speed - low.speed)
        }
        return points[points.count - 1].factor
    }
}
