import FlywheelCore

/// A USB device's firmware reading its own encoder contacts: it decodes them exactly (with
/// ``QuadratureDecoder``) and keeps a running count in its own units.
struct FirmwareCounter {
    var decoder: QuadratureDecoder
    let samples: [QuadratureSample]
    var next = 0
    let counting: FirmwareCounting
    let countsPerDetent: Int

    init(trace: QuadratureTrace, profile: DeviceProfile) {
        decoder = QuadratureDecoder(stepsPerDetent: profile.stepsPerDetent, initial: trace.initial, rest: profile.rest)
        samples = trace.samples
        counting = profile.counting
        countsPerDetent = profile.countsPerDetent ?? 1
    }

    /// Reads every contact change up to and including `time`.
    mutating func advance(through time: Nanoseconds) {
        while next < samples.count, samples[next].timeNanoseconds <= time {
            decoder.feed(samples[next].levels)
            next += 1
        }
    }

    /// The running count: detents × counts per detent, or quarter steps × counts per quarter step.
    var counts: Int {
        switch counting {
        case .detents: return decoder.detents.count * countsPerDetent
        case .quarterSteps: return decoder.quarterSteps.count * (countsPerDetent / decoder.stepsPerDetent.rawValue)
        }
    }
}
