/// Follows the primary contact of a touch device through its evdev events: multi-touch protocol B
/// (slots and tracking ids), protocol A (SYN_MT_REPORT per contact) or single touch (ABS_X/ABS_Y
/// with BTN_TOUCH). At every SYN_REPORT it says where the primary contact is, or that it lifted.
public struct TouchTracker: Sendable {
    /// One frame's verdict.
    public enum Frame: Sendable, Hashable {
        /// The primary contact is at (x, y) in device units; `began` when it just touched down.
        case contact(x: Double, y: Double, began: Bool, timeNanoseconds: Nanoseconds)
        /// The primary contact lifted.
        case lifted(timeNanoseconds: Nanoseconds)
    }

    struct Slot { var id: Int32 = -1; var x: Int32?; var y: Int32? }

    var slots: [Int: Slot] = [:]
    var slot = 0
    var usesSlots = false
    var usesProtocolA = false
    var pendingA: [(Int32?, Int32?)] = []
    var currentA: (Int32?, Int32?) = (nil, nil)
    var singleX: Int32?
    var singleY: Int32?
    var singleTouch = false
    var primaryID: Int32?
    var down = false
    /// Touches that began so far.
    package private(set) var touches = 0

    /// Creates a tracker.
    public init() {}

    /// Feeds one event; returns a frame at each SYN_REPORT that changes something.
    public mutating func feed(_ event: InputEvent) -> Frame? {
        switch (event.type, event.code) {
        case (EventType.abs, AbsCode.mtSlot):
            usesSlots = true
            slot = Int(event.value)
        case (EventType.abs, AbsCode.mtTrackingID):
            if usesProtocolA { break }
            usesSlots = true
            slots[slot, default: Slot()].id = event.value
            if event.value < 0 { slots[slot] = nil }
        case (EventType.abs, AbsCode.mtPositionX):
            if usesSlots { slots[slot, default: Slot()].x = event.value } else { currentA.0 = event.value }
        case (EventType.abs, AbsCode.mtPositionY):
            if usesSlots { slots[slot, default: Slot()].y = event.value } else { currentA.1 = event.value }
        case (EventType.syn, SynCode.mtReport):
            usesProtocolA = true
            usesSlots = false
            if currentA.0 != nil || currentA.1 != nil { pendingA.append(currentA) }
            currentA = (nil, nil)
        case (EventType.abs, AbsCode.x): singleX = event.value
        case (EventType.abs, AbsCode.y): singleY = event.value
        case (EventType.key, KeyCode.btnTouch): singleTouch = event.value != 0
        case (EventType.syn, SynCode.report):
            return frame(at: event.timeNanoseconds)
        default:
            break
        }
        return nil
    }

    mutating func frame(at time: Nanoseconds) -> Frame? {
        var position: (Int32, Int32)?
        if usesSlots {
            // The primary contact is the one that touched first and is still down.
            if let id = primaryID, let entry = slots.values.first(where: { $0.id == id }), let x = entry.x, let y = entry.y {
                position = (x, y)
            } else if let entry = slots.sorted(by: { $0.key < $1.key }).first(where: { $0.value.id >= 0 && $0.value.x != nil && $0.value.y != nil }) {
                primaryID = entry.value.id
                position = (entry.value.x!, entry.value.y!)
            }
        } else if usesProtocolA {
            if let first = pendingA.first, let x = first.0, let y = first.1 { position = (x, y) }
            pendingA.removeAll()
        } else if singleTouch, let x = singleX, let y = singleY {
            position = (x, y)
        }
        guard let position else {
            primaryID = nil
            guard down else { return nil }
            down = false
            return .lifted(timeNanoseconds: time)
        }
        let began = !down
        if began { touches += 1 }
        down = true
        return .contact(x: Double(position.0), y: Double(position.1), began: began, timeNanoseconds: time)
    }
}

/// A region of a touch panel that acts as a knob.
public enum TouchRegion: Sendable, Hashable {
    /// A ring around (centerX, centerY): the knob turns with the change of the contact's angle
    /// (atan2 about the centre, unwrapped across ±π), `detentsPerTurn` detents a revolution, like the
    /// Click metronome's dial. Contacts closer than `minimumRadius` to the centre are ignored.
    case ring(centerX: Double, centerY: Double, minimumRadius: Double, detentsPerTurn: Double)
    /// A strip along x (or y) from `from` to `to` device units spanning `detents` detents.
    case strip(alongX: Bool, from: Double, to: Double, detents: Double)
}

/// Turns a touch tracker's frames into knob motion for a region: detent deltas while touching,
/// and the lift.
public struct TouchKnob: Sendable {
    /// What the knob does.
    public enum Motion: Sendable, Hashable {
        case move(detents: Double, timeNanoseconds: Nanoseconds)
        case lift(timeNanoseconds: Nanoseconds)
    }

    public let region: TouchRegion
    /// The last angle (ring) that motion is measured from; nil while there is none (no contact yet,
    /// or a contact inside the dead zone about the centre).
    var lastAngle: Radians?
    /// The last position (strip) that motion is measured from; nil while there is no contact.
    var lastPosition: Double?
    /// Whether a contact is down (so its lift is reported).
    var touching = false

    public init(region: TouchRegion) { self.region = region }

    /// Where a contact at (x, y) is along a strip region (0 at `from`, 1 at `to`, clamped) and the
    /// detents the strip spans; nil for a ring.
    package func stripPosition(x: Double, y: Double) -> (position: Double, detents: Double)? {
        guard case .strip(let alongX, let from, let to, let detents) = region, to != from else { return nil }
        return (min(max(((alongX ? x : y) - from) / (to - from), 0), 1), detents)
    }

    /// The knob motion for one frame.
    public mutating func feed(_ frame: TouchTracker.Frame) -> Motion? {
        switch frame {
        case .lifted(let time):
            let wasDown = touching
            lastAngle = nil
            lastPosition = nil
            touching = false
            return wasDown ? .lift(timeNanoseconds: time) : nil
        case .contact(let x, let y, let began, let time):
            touching = true
            switch region {
            case .ring(let cx, let cy, let minimumRadius, let perTurn):
                let dx = x - cx, dy = y - cy
                guard (dx * dx + dy * dy).squareRoot() >= minimumRadius else {
                    // Near the centre the angle means nothing: a swipe through it must not turn
                    // the knob by the half turn between where it entered and where it leaves.
                    lastAngle = nil
                    return nil
                }
                let angle = Radians(Elementary.atan2(dy, dx))
                defer { lastAngle = angle }
                guard let previous = lastAngle, !began else { return nil }
                let delta = angle.change(from: previous)  // unwrapped across ±π
                return delta.value == 0 ? nil : .move(detents: delta.turns * perTurn, timeNanoseconds: time)
            case .strip(let alongX, let from, let to, let detents):
                let position = alongX ? x : y
                defer { lastPosition = position }
                guard let previous = lastPosition, !began, to != from else { return nil }
                let delta = (position - previous) / (to - from) * detents
                return delta == 0 ? nil : .move(detents: delta, timeNanoseconds: time)
            }
        }
    }
}
