/// The generic types the event path first needs in the middle of a gesture, made ready at
/// start-up.
///
/// The Swift runtime builds a generic type's metadata the first time it is used, by demangling
/// its name: 10,000 to 20,000 instructions each. Left to the event path, a knob's first turn pays
/// for five of them: about 75,000 instructions, some 40 µs on a Pi Zero 2 W–class core, on the
/// latency of its first detents. The daemon calls ``prepare()`` before it says it is ready.
public enum HotPathTypes {
    /// Builds the metadata of each array the event path allocates on a knob's first turn: its
    /// velocity samples, its group's members, its dial's `began` steps, and the pipeline's
    /// messages. (Not optimised: the arrays are made for their types, and an optimiser would
    /// remove them as unused.)
    @_optimize(none)
    public static func prepare() {
        var samples: [VelocityEstimator.Sample] = []
        samples.reserveCapacity(1)
        var members: [KnobGroup.Member] = []
        members.reserveCapacity(1)
        var began: [(index: Int, timeNanoseconds: Nanoseconds)] = []
        began.reserveCapacity(1)
        var messages: [ServerMessage] = []
        messages.reserveCapacity(1)
    }
}
