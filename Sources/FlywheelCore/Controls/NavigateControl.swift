/// The navigator (`control: "navigate"`): a knob's detents are tracks, the next (+) and the
/// previous (−), for a player bridge (`flywheel mpd`: `next`/`previous`) or a key map. No physics:
/// a detent is a step the moment it is turned, a flick does not coast through a playlist, and
/// nothing accelerates. Partial detents (a touch ring, a high-resolution wheel) add up, each
/// device's on its own, and a lift forgets what did not make a step.
package struct NavigateControl: Sendable {
    /// Each device's detents not yet a step (between −1 and 1).
    var partial: [DeviceIdentity: Double] = [:]

    /// A navigator at rest.
    package init() {}

    /// The knob of `device` moved by `detents` at `time`: a `navigate` event for the whole steps.
    package mutating func move(by detents: Double, at time: Nanoseconds, device: DeviceIdentity = .unnamed) -> [ControlEvent] {
        guard detents.isFinite else { return [] }
        var total = (partial[device] ?? 0) + detents
        let whole = total.rounded(.towardZero)
        total -= whole
        partial[device] = total == 0 ? nil : total
        let steps = Int(max(-1_000_000, min(1_000_000, whole)))
        return steps == 0 ? [] : [.navigate(steps: steps, timeNanoseconds: time)]
    }

    /// A touch lifted from the knob of `device`: its partial detent is dropped.
    package mutating func lift(device: DeviceIdentity = .unnamed) { partial[device] = nil }
}
