/// The generic types the event path first needs in the middle of a gesture, made ready at
/// start-up.
///
/// The Swift runtime builds a generic type's metadata the first time it is used, by demangling
/// its name: 5,000 to 20,000 instructions each. Left to the event path, a knob's first turn pays
/// for its velocity samples' array, its group's members' array and the first messages' array:
/// about 50,000 instructions, some 30 µs on a Pi Zero 2 W–class core, on the latency of its first
/// detent. The daemon calls ``prepare()`` before it says it is ready.
public enum HotPathTypes {
    /// Grows one array of each type the way the event path grows it, so the metadata it looks up
    /// is already there. Returns how many elements it made (so the arrays count as used).
    @discardableResult
    public static func prepare() -> Int {
        var samples: [VelocityEstimator.Sample] = []
        samples.append(VelocityEstimator.Sample(timeNanoseconds: 0, position: 0))
        var members: [KnobGroup.Member] = []
        members.append(KnobGroup.Member(device: .unnamed, engine: KnobEngine(), reported: 0))
        var messages: [ServerMessage] = []
        messages.reserveCapacity(1)
        return samples.count + members.count + messages.capacity
    }
}
