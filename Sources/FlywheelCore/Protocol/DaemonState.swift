/// The controls' state as the `state` message reports it.
public struct DaemonState: Sendable, Hashable {
    /// The tempo in BPM and the dial's detent.
    public var tempoBPM: BPM
    package var tempoValue: Int
    /// The tempo dial (range and table).
    public var tempoDial: TempoDial
    /// The scrub content's length, the position in it, the seconds a detent moves, and whether a
    /// scrub gesture is under way.
    public var scrubDurationSeconds: Double
    public var scrubPositionSeconds: Double
    package var scrubSecondsPerDetent: Double
    package var scrubActive: Bool
    /// The volume, its cap and its step per detent.
    public var volume: Int
    public var volumeCap: Int
    package var volumeStep: Int
    /// What the volume dial does at its ends (the tempo dial's are in ``tempoDial``).
    package var volumeBounds: DialBounds = .rubber
    /// The active mode and the modes.
    public var mode: Control
    public var modes: [Control]

    /// The `state` message's fields.
    var fields: [(String, JSONValue)] {
        [
            ("tempo", .object([
                ("bpm", tempoBPM.json), ("value", .int(tempoValue)),
                ("range", .array([.int(tempoDial.range.lowerBound), .int(tempoDial.range.upperBound)])),
                ("table", .string(tempoDial.table.rawValue)), ("bounds", .string(tempoDial.bounds.rawValue)),
            ])),
            ("scrub", .object([
                ("position", .double((scrubPositionSeconds * 1e6).rounded() / 1e6)), ("duration", .double(scrubDurationSeconds)),
                ("seconds_per_detent", .double((scrubSecondsPerDetent * 1e6).rounded() / 1e6)),
                ("active", .bool(scrubActive)),
            ])),
            ("volume", .object([
                ("volume", .int(volume)), ("cap", .int(volumeCap)), ("step", .int(volumeStep)), ("bounds", .string(volumeBounds.rawValue)),
            ])),
            ("mode", .object([("active", .string(mode.rawValue)), ("segments", .array(modes.map { .string($0.rawValue) }))])),
        ]
    }
}
