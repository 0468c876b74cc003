import Testing
@testable import FlywheelCore
import FlywheelSimulator

@Suite("KnobGroup: one engine per device")
struct KnobGroupTests {
    static let a = DeviceIdentity(path: "/dev/input/event1")
    static let b = DeviceIdentity(path: "/dev/input/event2")

    /// Runs a group until it rests, returning every event.
    static func drain(_ group: inout KnobGroup) -> [KnobGroup.Event] {
        var events: [KnobGroup.Event] = []
        while let deadline = group.nextDeadline { events += group.advance(to: deadline) }
        return events
    }

    /// Knob A flicked: six detents 20 ms apart.
    static func flick(_ group: inout KnobGroup, inertia: Bool = true) -> [KnobGroup.Event] {
        var events: [KnobGroup.Event] = []
        for i in 0..<6 {
            let t = Nanoseconds(i) * 20_000_000
            events += group.advance(to: t) + group.move(device: a, by: 1, at: t, touching: false, base: 0, inertia: inertia)
        }
        return events
    }

    /// The detents stepped in `events`.
    static func sum(_ events: [KnobGroup.Event]) -> Int {
        events.reduce(0) { sum, event in if case .moved(let d, _) = event { return sum + d } else { return sum } }
    }

    @Test("a knob turned again while its flick still coasts continues the gesture: one began, one rest")
    func turnedAgainWhileCoasting() {
        var group = KnobGroup(parameters: FeelParameters(), bounds: .clamp(0...500))
        var events = Self.flick(&group)
        // 300 ms after the flick's last detent (a new hand gesture for the engine: more than
        // 200 ms since its last input) the knob still coasts; the hand clicks it once more.
        let again: Nanoseconds = 100_000_000 + 300_000_000
        events += group.advance(to: again)
        #expect(group.nextDeadline != nil, "the flick still moves when the hand comes back")
        events += group.move(device: Self.a, by: 1, at: again, touching: false, base: 0)
        events += Self.drain(&group)
        let began = events.filter { if case .began = $0 { return true } else { return false } }.count
        let rests = events.filter { if case .rest = $0 { return true } else { return false } }.count
        #expect(began == 1)
        #expect(rests == 1)
        if case .rest = events.last {} else { Issue.record("the gesture ends with its rest, got \(String(describing: events.last))") }
    }

    @Test("one device: exactly its engine's events, as steps")
    func single() {
        var engine = KnobEngine(bounds: .clamp(0...50), detent: 10)
        var group = KnobGroup(parameters: FeelParameters(), bounds: .clamp(0...50))
        var engineEvents: [KnobEngine.Event] = []
        var groupEvents: [KnobGroup.Event] = []
        for i in 0..<8 {
            let t = Nanoseconds(i) * 25_000_000
            engineEvents += engine.advance(to: t) + engine.move(by: 1, at: t)
            groupEvents += group.advance(to: t) + group.move(device: Self.a, by: 1, at: t, touching: false, base: 10)
        }
        while let deadline = engine.nextDeadline { engineEvents += engine.advance(to: deadline) }
        groupEvents += Self.drain(&group)
        var detent = 10
        let expected: [KnobGroup.Event] = engineEvents.compactMap { event in
            switch event {
            case .began(let t): return .began(timeNanoseconds: t)
            case .detent(let d, let t):
                defer { detent = d }
                return .moved(detents: d - detent, timeNanoseconds: t)
            case .released(let v, let t): return .released(velocity: v, timeNanoseconds: t)
            case .rest(_, let t): return .rest(timeNanoseconds: t)
            }
        }
        #expect(groupEvents == expected)
        #expect(engine.reportedDetent > 18, "the flick coasted")
    }

    @Test("two devices: one gesture while either moves, their steps added, each knob's own coast")
    func two() {
        var group = KnobGroup(parameters: FeelParameters(), bounds: .unbounded)
        // Knob A flicks; knob B clicks once against it while A coasts.
        var events = Self.flick(&group)
        events += group.advance(to: 300_000_000) + group.move(device: Self.b, by: -1, at: 300_000_000, touching: false, base: 0)
        events += Self.drain(&group)
        #expect(events.filter { if case .began = $0 { return true } else { return false } }.count == 1)
        #expect(events.filter { if case .rest = $0 { return true } else { return false } }.count == 1)
        if case .rest = events.last {} else { Issue.record("the last event is not the rest: \(String(describing: events.last))") }
        // A alone: the same flick without B.
        var alone = KnobGroup(parameters: FeelParameters(), bounds: .unbounded)
        let aloneSum = Self.sum(Self.flick(&alone) + Self.drain(&alone))
        #expect(aloneSum > 8)
        #expect(Self.sum(events) == aloneSum - 1)
    }

    @Test("inertia off: a flick stops where the hand left it")
    func noAcceleration() {
        var group = KnobGroup(parameters: FeelParameters(), bounds: .unbounded)
        #expect(Self.sum(Self.flick(&group, inertia: false) + Self.drain(&group)) == 6)
    }

    /// The deadlines engines and groups keep (asked at every wake-up, so stored, not worked out)
    /// against the ones worked out from the state, after every change: hands on two and three
    /// knobs, slow and fast, with touches, lifts, sets and bounces, over rubber-banded, hard and wrapping ends.
    @Test("the kept deadlines are always the ones the state gives, after any change")
    func keptDeadlines() {
        var random = SplitMix64(seed: 99)
        let devices = (0..<3).map { DeviceIdentity(path: "/dev/input/event\($0)") }
        for bounds in [Bounds.unbounded, DialBounds.rubber.bounds(detents: 12), DialBounds.hard.bounds(detents: 5), DialBounds.wrap.bounds(detents: 7)] {
            var group = KnobGroup(parameters: FeelParameters(), bounds: bounds)
            var time: Nanoseconds = 0
            for _ in 0..<3_000 {
                // Gaps from a bounce's 0.2 ms to a pause of half a second.
                time += [200_000, 5_000_000, 20_000_000, 60_000_000, 500_000_000][Int(random.next() % 5)]
                let device = devices[Int(random.next() % 3)]
                switch random.next() % 8 {
                case 0, 1, 2: _ = group.move(device: device, by: Double(Int(random.next() % 5) - 2), at: time, touching: false, base: 0)
                case 3: _ = group.move(device: device, by: Double(random.next() % 100) / 25 - 2, at: time, touching: true, base: 0)
                case 4: _ = group.lift(device: device, at: time)
                case 5: group.set(detent: Int(random.next() % 9) - 4)
                default:
                    if let due = group.nextDeadline { time = max(time, due) }
                    _ = group.advance(to: time)
                }
                var earliest: Nanoseconds?
                for member in group.members {
                    #expect(member.engine.nextDeadline == member.engine.computedDeadline)
                    if let due = member.engine.computedDeadline { earliest = min(earliest ?? due, due) }
                }
                #expect(group.nextDeadline == earliest)
                if group.nextDeadline != earliest { return }
            }
        }
    }
}
