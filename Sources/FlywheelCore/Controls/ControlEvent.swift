/// What the controls emit: the objects the socket carries, each stamped with the time of the
/// input that caused it.
public enum ControlEvent: Sendable, Hashable {
    /// The tempo changed (`moved`), a gesture on it began (`began`), or it came to rest (`settled`).
    case tempo(bpm: BPM, value: Int, phase: DialPhase, timeNanoseconds: Nanoseconds)
    /// The volume changed (`moved`), a gesture on it began (`began`), it came to rest (`settled`),
    /// or a client set it (`set`).
    case volume(volume: Int, phase: DialPhase, timeNanoseconds: Nanoseconds)
    /// A scrub phase: began, moved, committed or cancelled.
    case scrub(phase: Scrubber.Phase, positionSeconds: Double, durationSeconds: Double, originSeconds: Double, timeNanoseconds: Nanoseconds)
    /// The active mode changed.
    case mode(Control, timeNanoseconds: Nanoseconds)
    /// The navigator turned: `steps` tracks on (+) or back (−); a detent is a step.
    case navigate(steps: Int, timeNanoseconds: Nanoseconds)
    /// Castro's tap hint: a tap on a touch strip pushed the control's bar `direction` (+1 towards
    /// the end, −1 towards the start), up to `peakDetents`, settling after `durationSeconds`.
    case hint(control: Control, direction: Int, peakDetents: Double, durationSeconds: Double, timeNanoseconds: Nanoseconds)
    /// A continuous frame while in motion: the control's value and the knob's offset in detents.
    case frame(control: Control, value: Double, offset: Double, velocity: Double, timeNanoseconds: Nanoseconds)
    /// A continuous frame of the N-way mode switch while a finger pans it or it snaps onto a
    /// segment: its position in segments (0 … count − 1), its offset from the active segment, and
    /// its velocity in segments per second (`"control":"mode"` on the wire).
    case switchFrame(position: Double, offset: Double, velocity: Double, timeNanoseconds: Nanoseconds)

    /// When it happened.
    public var timeNanoseconds: Nanoseconds {
        switch self {
        case .tempo(_, _, _, let t), .volume(_, _, let t), .scrub(_, _, _, _, let t), .mode(_, let t), .navigate(_, let t), .frame(_, _, _, _, let t),
            .hint(_, _, _, _, let t), .switchFrame(_, _, _, let t): return t
        }
    }

    /// Whether it is a continuous frame (coalescable) rather than a discrete event.
    public var isFrame: Bool { frameKey != nil }

    /// What a frame coalesces by (its control, or the mode switch); nil for any other event.
    package var frameKey: FrameKey? {
        switch self {
        case .frame(let control, _, _, _, _): return FrameKey(control)
        case .switchFrame: return .mode
        default: return nil
        }
    }

    /// Its message class.
    public var messageClass: MessageClass {
        switch self {
        case .tempo: return .tempo
        case .volume: return .volume
        case .scrub: return .scrub
        case .mode: return .mode
        case .navigate: return .navigate
        case .frame, .switchFrame: return .frame
        case .hint: return .hint
        }
    }

    /// Its message's fields (after `class`, before `time`).
    public var fields: [(String, JSONValue)] {
        switch self {
        case .tempo(let bpm, let value, let phase, _):
            return [("bpm", bpm.json), ("value", .int(value)), ("phase", .string(phase.rawValue))]
        case .volume(let volume, let phase, _):
            return [("volume", .int(volume)), ("phase", .string(phase.rawValue))]
        case .scrub(let phase, let position, let duration, let origin, _):
            return [
                ("phase", .string(phase.rawValue)), ("position", .double(Self.round(position))), ("duration", .double(duration)),
                ("origin", .double(Self.round(origin))),
            ]
        case .mode(let control, _):
            return [("mode", .string(control.rawValue))]
        case .navigate(let steps, _):
            return [("steps", .int(steps))]
        case .hint(let control, let direction, let peak, let duration, _):
            return [
                ("control", .string(control.rawValue)), ("direction", .int(direction)), ("peak", .double(Self.round(peak))),
                ("duration", .double(Self.round(duration))),
            ]
        case .frame(let control, let value, let offset, let velocity, _):
            return [
                ("control", .string(control.rawValue)), ("value", .double(Self.round(value))), ("offset", .double(Self.round(offset))),
                ("velocity", .double(Self.round(velocity))),
            ]
        case .switchFrame(let position, let offset, let velocity, _):
            return [
                ("control", .string(FrameKey.mode.rawValue)), ("value", .double(Self.round(position))), ("offset", .double(Self.round(offset))),
                ("velocity", .double(Self.round(velocity))),
            ]
        }
    }

    /// Six decimals: enough for positions and values, stable in golden files.
    static func round(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }
}
