@testable import FlywheelCore

// A test reads a step's events as the step's result: the step appends them to a fresh array.

extension KnobEngine {
    mutating func move(by delta: Double, at time: Nanoseconds, touching: Bool = false) -> [Event] {
        collected { move(by: delta, at: time, touching: touching, into: &$0) }
    }

    mutating func lift(at time: Nanoseconds) -> [Event] { collected { lift(at: time, into: &$0) } }

    mutating func advance(to time: Nanoseconds) -> [Event] { collected { advance(to: time, into: &$0) } }
}

extension KnobGroup {
    mutating func move(
        device: DeviceIdentity, by delta: Double, at time: Nanoseconds, touching: Bool, base: Int, inertia: Bool = true,
        acceleration: AccelerationCurve? = nil
    ) -> [Event] {
        collected {
            move(device: device, by: delta, at: time, touching: touching, base: base, inertia: inertia, acceleration: acceleration, into: &$0)
        }
    }

    mutating func lift(device: DeviceIdentity, at time: Nanoseconds) -> [Event] { collected { lift(device: device, at: time, into: &$0) } }

    mutating func advance(to time: Nanoseconds) -> [Event] { collected { advance(to: time, into: &$0) } }
}

extension DialKnob {
    mutating func move(
        by detents: Double, at time: Nanoseconds, touching: Bool = false, device: DeviceIdentity = .unnamed, inertia: Bool = true,
        acceleration: AccelerationCurve? = nil
    ) -> [Step] {
        collected { move(by: detents, at: time, touching: touching, device: device, inertia: inertia, acceleration: acceleration, into: &$0) { $0 } }
    }

    mutating func lift(at time: Nanoseconds, device: DeviceIdentity = .unnamed) -> [Step] {
        collected { lift(at: time, device: device, into: &$0) { $0 } }
    }

    mutating func advance(to time: Nanoseconds) -> [Step] { collected { advance(to: time, into: &$0) { $0 } } }
}

extension DialControl {
    mutating func move(
        by detents: Double, at time: Nanoseconds, touching: Bool = false, device: DeviceIdentity = .unnamed, inertia: Bool = true,
        acceleration: AccelerationCurve? = nil, fine: Bool = false
    ) -> [ControlEvent] {
        collected {
            move(by: detents, at: time, touching: touching, device: device, inertia: inertia, acceleration: acceleration, fine: fine, into: &$0)
        }
    }

    mutating func lift(at time: Nanoseconds, device: DeviceIdentity = .unnamed) -> [ControlEvent] {
        collected { lift(at: time, device: device, into: &$0) }
    }

    mutating func advance(to time: Nanoseconds) -> [ControlEvent] { collected { advance(to: time, into: &$0) } }
}

extension DaemonCore {
    mutating func advance(to time: Nanoseconds) -> [ServerMessage] { Outbox.collected { advance(to: time, into: $0) } }

    mutating func advanceEvents(to time: Nanoseconds) -> [ControlEvent] { collected { advanceEvents(to: time, into: &$0) } }

    func frames(at time: Nanoseconds) -> [ServerMessage] { Outbox.collected { frames(at: time, into: $0) } }
}

extension DaemonCore {
    mutating func knob(
        by detents: Double, at time: Nanoseconds, touching: Bool = false, route: KnobRoute = .followMode,
        device: DeviceIdentity = .unnamed, inertia: Bool = true, acceleration: AccelerationCurve? = nil
    ) -> [ServerMessage] {
        Outbox.collected { knob(by: detents, at: time, touching: touching, route: route, device: device, inertia: inertia, acceleration: acceleration, into: $0) }
    }
}
