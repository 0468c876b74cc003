import Testing
@testable import FlywheelCore
import FlywheelSimulator

/// Acceleration while the hand turns (issue 34): the curve, the hand's speed, and the engine's
/// invariants — a slow turn is exact, steps are whole, a turn never moves against the hand, and
/// the coast after a fast turn starts from the accelerated speed.
@Suite("Acceleration while the hand turns")
struct AccelerationTests {
    static let ms: Nanoseconds = 1_000_000

    /// Runs the engine until it rests.
    static func drain(_ engine: inout KnobEngine) -> [KnobEngine.Event] {
        var events: [KnobEngine.Event] = []
        while let deadline = engine.nextDeadline { events += engine.advance(to: deadline) }
        return events
    }

    /// An engine with `curve`, starting at 0.
    static func engine(_ curve: AccelerationCurve, inertia: Bool = true) -> KnobEngine {
        var feel = FeelParameters()
        if !inertia { feel.minimumFlingSpeed = .infinity }
        var engine = KnobEngine(parameters: feel)
        engine.acceleration = curve
        return engine
    }

    /// `count` detents in `direction` at `rate` detents/s from `start`: the time of the last.
    @discardableResult
    static func turn(_ engine: inout KnobEngine, _ count: Int, at rate: Double, from start: Nanoseconds, direction: Double = 1) -> Nanoseconds {
        var t = start
        for i in 0..<count {
            t = start + Nanoseconds((Double(i) / rate * 1e9).rounded())
            _ = engine.advance(to: t)
            _ = engine.move(by: direction, at: t)
        }
        return t
    }

    @Test("the curve: one step below its first speed, linear between points, flat past the last")
    func curve() {
        let curve = AccelerationCurve.gentle
        #expect(curve.factor(atSpeed: 0) == 1)
        #expect(curve.factor(atSpeed: 4.99) == 1)
        #expect(curve.factor(atSpeed: 5) == 1)
        #expect(curve.factor(atSpeed: 10) == 1.5)
        #expect(curve.factor(atSpeed: 15) == 2)
        #expect(curve.factor(atSpeed: 22.5) == 3)
        #expect(curve.factor(atSpeed: 30) == 4)
        #expect(curve.factor(atSpeed: 500) == 4)
        #expect(AccelerationCurve.off.factor(atSpeed: 500) == 1)
        let jump = AccelerationCurve(points: [.init(speed: 10, factor: 3)])
        #expect(jump.factor(atSpeed: 9.9) == 1 && jump.factor(atSpeed: 10) == 3 && jump.factor(atSpeed: 100) == 3)
        for preset in [AccelerationCurve.gentle, .strong] {
            #expect(preset.factor(atSpeed: 5) == 1, "every preset is one step a detent up to 5 detents/s")
        }
        #expect(AccelerationCurve.standard(for: .tempo) == .gentle && AccelerationCurve.standard(for: .volume) == .gentle)
        #expect(AccelerationCurve.standard(for: .scrub) == .off)
        #expect(AccelerationCurve.problem(with: [.init(speed: 10, factor: 2), .init(speed: 5, factor: 3)]) != nil)
        #expect(AccelerationCurve.problem(with: [.init(speed: 10, factor: 0.5)]) != nil)
    }

    @Test("the hand's speed: a steady turn measures its rate from its second detent; slower than 4/s measures 0", arguments: [4.0, 5, 12, 40, 200])
    func handSpeed(rate: Double) {
        var speed = HandSpeed()
        var measured: [Double] = []
        for i in 0..<30 { measured.append(speed.record(1, at: Nanoseconds((Double(i) / rate * 1e9).rounded()))) }
        #expect(measured[0] == 0)
        for value in measured.dropFirst() { #expect(abs(value - rate) < rate * 1e-6, "\(measured)") }
        var slow = HandSpeed()
        for i in 0..<10 { #expect(slow.record(1, at: Nanoseconds(i) * 260 * Self.ms) == 0) }
    }

    @Test("a slow turn is exactly one step a detent with every curve, and ends on the truth", arguments: [2.0, 3, 4, 5])
    func slowTurnExact(rate: Double) {
        for curve in [AccelerationCurve.gentle, .strong, AccelerationCurve(points: [.init(speed: 5.5, factor: 50)])] {
            var engine = Self.engine(curve)
            var detents: [Int] = []
            var t: Nanoseconds = 0
            for i in 0..<24 {
                t = Nanoseconds((Double(i) / rate * 1e9).rounded())
                _ = engine.advance(to: t)
                for case .detent(let d, _) in engine.move(by: 1, at: t) { detents.append(d) }
                #expect(engine.handPosition == Double(i + 1), "one step a detent at \(rate)/s")
            }
            _ = Self.drain(&engine)
            #expect(engine.reportedDetent == 24, "\(rate)/s with \(curve)")
            #expect(detents == Array(1...24))
        }
    }

    @Test("a bouncy turn at 4 detents/s: bounce is never accelerated, the turn ends on the truth")
    func bouncySlowTurn() {
        var engine = Self.engine(.strong)
        var t: Nanoseconds = 0
        for _ in 0..<12 {
            // Each detent: the step, a bounce back 1 ms later and forward again 1 ms after.
            for (delta, dt) in [(1.0, 0), (-1.0, 1 * Self.ms), (1.0, 2 * Self.ms)] {
                _ = engine.advance(to: t + dt)
                _ = engine.move(by: delta, at: t + dt)
            }
            t += 250 * Self.ms
        }
        _ = Self.drain(&engine)
        #expect(engine.reportedDetent == 12)
    }

    @Test("accelerated steps are whole: the hand's position stays on whole detents and each report moves by one", arguments: [8.0, 12, 17, 25, 40])
    func wholeSteps(rate: Double) {
        var engine = Self.engine(.gentle)
        var reported = 0
        for i in 0..<30 {
            let t = Nanoseconds((Double(i) / rate * 1e9).rounded())
            for case .detent(let d, _) in engine.advance(to: t) + engine.move(by: 1, at: t) {
                #expect(abs(d - reported) == 1)
                reported = d
            }
            #expect(engine.handPosition == engine.handPosition.rounded(), "\(engine.handPosition) at \(rate)/s")
        }
        for case .detent(let d, _) in Self.drain(&engine) { reported = d }
        #expect(engine.reportedDetent == reported)
        if rate > 5 { #expect(reported > 30, "a turn at \(rate)/s accelerates") }
    }

    @Test("a turn never moves against the hand: fast back-and-forth, each move steps its own way (a hand-over ahead of the hand too)", arguments: 1...8)
    func neverAgainst(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var engine = Self.engine(seed % 4 < 2 ? .strong : .off, inertia: seed % 2 == 0)
        var t: Nanoseconds = 0
        for _ in 0..<200 {
            t += Nanoseconds(Int.random(in: 6...66, using: &random)) * Self.ms  // 6–66 ms apart: 15–160 detents/s
            let delta: Double = Int.random(in: 0..<4, using: &random) == 0 ? -1 : 1
            let before = engine.reportedDetent
            _ = engine.advance(to: t)
            let afterAdvance = engine.reportedDetent
            _ = engine.move(by: delta, at: t)
            let change = engine.reportedDetent - afterAdvance
            #expect(change == 0 || (change > 0) == (delta > 0), "a move of \(delta) stepped \(change) (from \(before), advanced to \(afterAdvance), hand \(engine.handPosition))")
        }
    }

    @Test("the coast after a fast turn starts from the accelerated speed, without a jump")
    func coastFromAcceleratedSpeed() {
        var engine = Self.engine(.gentle)
        let last = Self.turn(&engine, 24, at: 40, from: 0)
        let hand = engine.frame(at: last)!
        let coast = engine.frame(at: last + 5 * Self.ms)!
        #expect(hand.velocity > 120, "the hand moves the knob at about 4 × 40 detents/s: \(hand.velocity)")
        #expect(coast.velocity > 0.9 * hand.velocity && coast.velocity <= hand.velocity * 1.01, "no jump: \(hand.velocity) → \(coast.velocity)")
        #expect(coast.position >= hand.position)
        var released: Double?
        for case .released(let v, _) in Self.drain(&engine) { released = v }
        #expect((released ?? 0) > 120, "the release carries the accelerated speed, above the 60/s cap of an unaccelerated knob")
    }

    @Test("off, the engine is today's: a fast turn of 24 moves 24 while the hand turns")
    func offIsExact() {
        var engine = Self.engine(.off, inertia: false)
        Self.turn(&engine, 24, at: 40, from: 0)
        _ = Self.drain(&engine)
        #expect(engine.reportedDetent == 24)
        var fast = Self.engine(.gentle, inertia: false)
        Self.turn(&fast, 24, at: 40, from: 0)
        _ = Self.drain(&fast)
        #expect(fast.reportedDetent == 1 + 23 * 4)
    }
}
