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

    /// The feel of every knob (acceleration off turns a knob's flinging off).
    public let parameters: FeelParameters
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
    /// engines' detents: a knob at rest starts from it. Without `acceleration` the knob never
    /// flings: every detent is exactly one step.
    public mutating func move(
        device: DeviceIdentity, by delta: Double, at time: Nanoseconds, touching: Bool, base: Int, acceleration: Bool = true
    ) -> [Event] {
        let index = member(device, base: base, acceleration: acceleration)
        return translate([(index, members[index].engine.move(by: delta, at: time, touching: touching))])
    }

    /// A touch lifted from the knob of `device`.
    public mutating func lift(device: DeviceIdentity, at time: Nanoseconds) -> [Event] {
        let events = advance(to: time)
        guard let index = members.firstIndex(where: { $0.device == device }) else { return events }
        return events + translate([(index, members[index].engine.lift(at: time))])
    }

    /// Brings every knob to `time`, their events in time order.
    public mutating func advance(to time: Nanoseconds) -> [Event] {
        var batches: [(Int, [KnobEngine.Event])] = []
        for index in members.indices where deadline(of: index) != nil {
            batches.append((index, members[index].engine.advance(to: time)))
        }
        return batches.isEmpty ? [] : translate(batches)
    }

    /// When to call ``advance(to:)`` next; nil when every knob rests.
    public var nextDeadline: Nanoseconds? {
        var earliest: Nanoseconds?
        for index in members.indices {
            if let deadline = deadline(of: index) { earliest = min(earliest ?? deadline, deadline) }
        }
        return earliest
    }

    /// The deadline of member `index`'s engine, asked where the engine is: an array element read
    /// by value is a copy of the engine, a retain and a release for each array in it.
    func deadline(of index: Int) -> Nanoseconds? {
        members.withUnsafeBufferPointer { $0[index].engine.nextDeadline }
    }

    /// Puts every knob on `detent` at rest (a client `set`, or the end of a scrub).
    public mutating func set(detent: Int) {
        for index in members.indices {
            members[index].engine.set(detent: detent)
            members[index].reported = members[index].engine.reportedDetent
            members[index].inGesture = false
        }
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
    mutating func member(_ device: DeviceIdentity, base: Int, acceleration: Bool) -> Int {
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
        if !acceleration { feel.minimumFlingSpeed = .infinity }
        let engine = KnobEngine(parameters: feel, bounds: bounds, detent: base)
        members.append(Member(device: device, engine: engine, reported: engine.reportedDetent))
        return members.count - 1
    }

    /// The engines' events as the control's, in time order across knobs (each knob's own order
    /// kept).
    mutating func translate(_ batches: [(Int, [KnobEngine.Event])]) -> [Event] {
        var tagged: [(index: Int, event: KnobEngine.Event)] = []
        for (index, events) in batches {
            for event in events { tagged.append((index, event)) }
        }
        if batches.count > 1, batches.count(where: { !$0.1.isEmpty }) > 1 {  // more than one knob spoke
            tagged = tagged.enumerated().sorted { (Self.time($0.element.event), $0.offset) < (Self.time($1.element.event), $1.offset) }
                .map(\.element)
        }
        var out: [Event] = []
        for (index, event) in tagged {
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
        return out
    }

    static func time(_ event: KnobEngine.Event) -> Nanoseconds {
        switch event {
        case .began(let t), .detent(_, let t), .released(_, let t), .rest(_, let t): return t
        }
    }
}
