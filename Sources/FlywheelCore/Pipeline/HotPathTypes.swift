/// The generic types the event path first needs in the middle of a gesture, made ready at
/// start-up.
///
/// The Swift runtime builds a generic type's metadata the first time it is used, by demangling
/// its name. Left to the event path, a knob's first turn pays for its velocity samples' array,
/// its group's members' array and the first messages' array, on the latency of its first detent
/// (the figures: Tests/Benchmarks/BENCHMARKS.md). The daemon calls ``prepare()`` before it says it is ready. (`run.sh --check-lists`
/// checks that nothing is left to build on the event path.)
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
        // The optionals and buffers the pipeline's steps copy and destroy through the runtime.
        let types: [Any.Type] = [
            Playback?.self, Motion?.self, HandOver?.self, HandOver.Core?.self, Coast?.self, SpringMotion?.self, EdgeHint?.self, RollbackGlide?.self,
            Scrubber.Gesture?.self, Double?.self, Int?.self,
            TurnBuffer<ControlEvent>.self, TurnBuffer<KnobGroup.Event>.self, [UInt8].self,
        ]
        // (Each type's identity read: the metadata is made, not folded away.)
        let made = types.reduce(0) { $0 &+ (ObjectIdentifier($1).hashValue & 1) }
        return samples.count + members.count + messages.capacity + made + rehearse()
    }

    /// A flick through a pipeline of its own, to its rest: a call site that asks for a type by
    /// its mangled name keeps what it found in a cache of its own, filled the first time the
    /// site runs, so the sites the event path runs are run once here. Returns the messages made.
    static func rehearse() -> Int {
        let pipeline = Pipeline(core: DaemonCore())
        let knob = InputDevice(name: "rehearsal", path: "rehearsal", kind: .encoder, route: .followMode)
        pipeline.wantsFrames = true
        pipeline.input((0..<8).map { DeviceInput(.knob(detents: 1), at: Nanoseconds($0) * 25_000_000) }, from: knob)
        var made = pipeline.takeMessages().count
        while let due = pipeline.nextDeadline {
            pipeline.advance(to: due)
            made += pipeline.takeMessages().count
        }
        return made
    }
}
