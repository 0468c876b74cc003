/// Which input device a knob's motion comes from: its node, GPIO lines, or the file a simulation
/// or replay plays (the device's `path`). Each device turning a control has its own knob engine,
/// keyed by this.
public struct DeviceIdentity: Sendable, Hashable {
    /// The device's path.
    public var path: String

    /// The device at `path`.
    public init(path: String) { self.path = path }

    /// The one device of callers that name none (tests, a single knob).
    public static let unnamed = DeviceIdentity(path: "")
}
