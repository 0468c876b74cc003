import FlywheelCore

/// Draws contact bounce: when a contact changes, it toggles an even number of extra times
/// within a short window before it settles at its new level.
enum Bounce {
    /// Offsets (nanoseconds after the transition, strictly increasing, each in `1...window`)
    /// of the extra toggles for one transition, never more than `maxWindow` after it.
    ///
    /// The count is an even number from the settings' range, the window a duration from the
    /// range clamped to `maxWindow`; toggles cluster early (offset = window·u², u uniform), as a
    /// bouncing contact's do. Toggles that would not fit 1 ns apart are dropped in pairs.
    static func toggleOffsets(
        _ settings: BounceSettings, maxWindow: Nanoseconds, random: inout SeededGenerator
    ) -> [Nanoseconds] {
        let low = settings.toggles.lowerBound + settings.toggles.lowerBound % 2
        let high = settings.toggles.upperBound - settings.toggles.upperBound % 2
        guard high >= 2, high >= low, settings.windowNanoseconds.upperBound > 0 else { return [] }
        var count = low + 2 * random.uniform(0...((high - low) / 2))
        let window = min(random.uniform(settings.windowNanoseconds), maxWindow)
        guard count > 0, window >= 2 else { return [] }
        if Int64(count) > window { count = Int(window) & ~1 }
        var offsets: [Nanoseconds] = []
        offsets.reserveCapacity(count)
        for _ in 0..<count {
            let u = random.unitDouble()
            offsets.append(1 + Nanoseconds(Double(window - 1) * u * u))
        }
        offsets.sort()
        for i in offsets.indices.dropFirst() where offsets[i] <= offsets[i - 1] {
            offsets[i] = offsets[i - 1] + 1
        }
        while let last = offsets.last, last > window { offsets.removeLast(min(2, offsets.count)) }
        return offsets
    }
}
