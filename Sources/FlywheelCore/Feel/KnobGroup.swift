/// The knobs turning one control: one ``KnobEngine`` per device, each with its own gesture, its
/// own release and coast, whose detent steps all move the one shared value. Two knobs on one
/// control add their detents; one knob's release, coast or rest never ends the other's gesture.
///
/// The group reports the control's gesture: it began when the first knob began while no other
/// was in a gesture, and rests when the last knob in a gesture rests. With one device it reports
/// exactly what that device's engine does.
public struct KnobGroup: Sendable {
    /// What the control sees of its knobs.
    public enum Event: Sendable, Hashable {
        /// A gesture on the control began (no other knob was in one).
        case began(timeNanoseconds: Nanoseconds)
        /// A knob stepped by `detents` (by hand or by momentum).
        case moved(detents: Int, timeNanoseconds: Nanoseconds)
        /// A knob's hand let go, with its release velocity.
        case released(velocity: Double, timeNanoseconds: Nanoseconds)
        /// The last knob in a gesture came to rest: the control's gesture is over.
        case rest(timeNanoseconds: Nanoseconds)

        var timeNanoseconds: Nanoseconds {
            switch self {
            case .began(let t), .moved(_, let t), .released(_, let t), .rest(let t): return t
            }
        }
    }

    struct Member: Sendable {
        var device: DeviceIdentity
        var engine: KnobEngine
        /// The engine's detent whose steps the shared value has taken.
        var reported: Int
        /// Between the engine's `began` and its `rest`.
        var inGesture = false
    }

    /// The feel of every knob (inertia off turns a knob's flinging off).
    package let parameters: FeelParameters
    /// The control's acceleration while a hand turns, for knobs without their own.
    package var acceleration: AccelerationCurve = .off
    /// The range each knob's engine moves in.
    public let bounds: Bounds
    /// The knobs, in the order they first turned (a fixed order keeps replays deterministic).
    var members: [Member] = []
    /// Idle knobs kept beyond this many are forgotten (an unplugged device's, say).
    static let idleMembersKept = 8

    /// A group of knobs over `bounds`.
    public init(parameters: FeelParameters, bounds: Bounds) {
        self.parameters = parameters
        self.bounds = bounds
    }

    /// The knob of `device` moved by `delta` detents at `time`. `base` is the shared value in the
    /// engines' detents: a knob at rest starts from it. Without `inertia` the knob never
    /// flings. `acceleration` is the device's own curve (nil: the control's, ``acceleration``).
    /// Its events are appended to `out`.
    package mutating func move(
        device: DeviceIdentity, by delta: Double, at time: Nanoseconds, touching: Bool, base: Int, inertia: Bool = true,
        acceleration: AccelerationCurve? = nil, into out: inout [Event]
    ) {
        let index = member(device, base: base, inertia: inertia)
        let curve = acceleration ?? self.acceleration
        if members[index].engine.acceleration != curve { members[index].engine.acceleration = curve }
        var (events, start) = engineEvents.take()
        members[index].engine.move(by: delta, at: time, touching: touching, into: &events)
        for position in start..<events.count { translate(events[position], of: index, into: &out) }
        engineEvents.giveBack(&events)
        refreshDeadline()
    }

    /// A touch lifted from the knob of `device`.
    /// Its events are appended to `out`.
    package mutating func lift(device: DeviceIdentity, at time: Nanoseconds, into out: inout [Event]) {
        advance(to: time, into: &out)
        guard let index = members.firstIndex(where: { $0.device == device }) else { return }
        var (events, start) = engineEvents.take()
        members[index].engine.lift(at: time, into: &events)
        for position in start..<events.count { translate(events[position], of: index, into: &out) }
        engineEvents.giveBack(&events)
        refreshDeadline()
    }

    /// Brings every knob to `time`, their events in time order.
    /// Its events are appended to `out`: each knob's in its own order, and across knobs in time
    /// order (a stable sort, only when more than one knob spoke).
    public mutating func advance(to time: Nanoseconds, into out: inout [Event]) {
        // Nothing happens to a knob before its deadline (every step, release, settle and rest is
        // one), so a knob whose deadline is later, or that rests, is not visited: the next visit
        // finds everything it would have.
        guard let due = nextDeadline, due <= time else { return }
        var (events, start) = engineEvents.take()
        var (owners, ownersStart) = self.owners.take()
        var speakers = 0
        for index in members.indices where deadline(of: index).map({ $0 <= time }) ?? false {
            let before = events.count
            members[index].engine.advance(to: time, into: &events)
            if events.count > before { speakers += 1 }
            for _ in before..<events.count { owners.append(index) }
        }
        // This turn's events are `start...` and their knobs `ownersStart...`, one for one.
        let ownerOffset = ownersStart - start
        if speakers > 1 {
            let order = (start..<events.count).sorted { (Self.time(events[$0]), $0) < (Self.time(events[$1]), $1) }
            for position in order { translate(events[position], of: owners[position + ownerOffset], into: &out) }
        } else {
            for position in start..<events.count { translate(events[position], of: owners[position + ownerOffset], into: &out) }
        }
        self.owners.giveBack(&owners)
        engineEvents.giveBack(&events)
        refreshDeadline()
    }

    /// The engines' events of one turn (taken out while the engines append to it).
    var engineEvents = TurnBuffer<KnobEngine.Event>()
    /// For each of a turn's engine events, its knob.
    var owners = TurnBuffer<Int>()

    /// When to call ``advance(to:into:)`` next; nil when every knob rests. Kept up to date by every
    /// change (asked at every step and wake-up).
    public private(set) var nextDeadline: Nanoseconds?

    mutating func refreshDeadline() {
        var earliest: Nanoseconds?
        for index in members.indices {
            if let deadline = deadline(of: index) { earliest = min(earliest ?? deadline, deadline) }
        }
        nextDeadline = earliest
    }

    /// The deadline of member `index`'s engine.
    func deadline(of index: Int) -> Nanoseconds? { members[index].engine.nextDeadline }

    /// Puts every knob on `detent` at rest (a client `set`, or the end of a scrub).
    public mutating func set(detent: Int) {
        for index in members.indices {
            members[index].engine.set(detent: detent)
            members[index].reported = members[index].engine.reportedDetent
            members[index].inGesture = false
        }
        refreshDeadline()
    }

    /// While any knob moves at `time`: the shared position (`base` plus each moving knob's offset
    /// from the detent it reported) and the knobs' summed velocity. With one knob moving, its own
    /// position exactly when `base` is its reported detent.
    public func frame(at time: Nanoseconds, base: Int) -> (position: Double, velocity: Double)? {
        var result: (position: Double, velocity: Double)?
        for index in members.indices {
            let member = members.withUnsafeBufferPointer { (frame: $0[index].engine.frame(at: time), reported: $0[index].reported) }
            guard let frame = member.frame else { continue }
            if let sum = result {
                result = (sum.position + (frame.position - Double(member.reported)), sum.velocity + frame.velocity)
            } else {
                result = (frame.position + Double(base - member.reported), frame.velocity)
            }
        }
        return result
    }

    /// The member for `device`, created (or, at rest, moved) onto `base`.
    mutating func member(_ device: DeviceIdentity, base: Int, inertia: Bool) -> Int {
        if let index = members.firstIndex(where: { $0.device == device }) {
            if !members[index].inGesture, deadline(of: index) == nil, members[index].engine.reportedDetent != base {
                members[index].engine.set(detent: base)
                members[index].reported = members[index].engine.reportedDetent
            }
            return index
        }
        if members.count >= Self.idleMembersKept {
            members.removeAll { !$0.inGesture && $0.engine.nextDeadline == nil }
        }
        var feel = parameters
        if !inertia { feel.minimumFlingSpeed = .infinity }
        let engine = KnobEngine(parameters: feel, bounds: bounds, detent: base)
        members.append(Member(device: device, engine: engine, reported: engine.reportedDetent))
        return members.count - 1
    }

    /// A knob's event as the control's: the group's gesture begins with its first knob and rests
    /// with its last.
    mutating func translate(_ event: KnobEngine.Event, of index: Int, into out: inout [Event]) {
        var othersInGesture: Bool { members.indices.contains { $0 != index && members[$0].inGesture } }
        switch event {
        case .began(let t):
            // A knob that turns again while its last turn still springs or coasts continues
            // the control's gesture: one `began` until the `rest`.
            let continuing = members[index].inGesture
            members[index].inGesture = true
            if !othersInGesture && !continuing { out.append(.began(timeNanoseconds: t)) }
        case .detent(let detent, let t):
            let delta = detent - members[index].reported
            members[index].reported = detent
            if delta != 0 { out.append(.moved(detents: delta, timeNanoseconds: t)) }
        case .released(let velocity, let t):
            out.append(.released(velocity: velocity, timeNanoseconds: t))
        case .rest(_, let t):
            members[index].inGesture = false
            if !othersInGesture { out.append(.rest(timeNanoseconds: t)) }
        }
    }

    static func time(_ event: KnobEngine.Event) -> Nanoseconds {
        switch event {
        case .began(let t), .detent(_, let t), .released(_, let t), .rest(_, let t): return t
        }
    }
}
