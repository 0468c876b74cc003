/// A device feeding the pipeline, as clients see it in `hello` and `device` messages, with where
/// its knob goes.
public struct InputDevice: Sendable, Hashable {
    /// Its name (configured, or the device's own).
    public var name: String
    /// Its node, GPIO lines, or the file a simulation or replay plays.
    public var path: String
    /// What kind of device it is.
    public var kind: DeviceKind
    /// Its `hardware/` profile, when known.
    public var profile: String?
    /// Where its knob goes.
    public var route: KnobRoute
    /// Its own button actions (configured `buttons`), before the global ones.
    public var buttonActions: [UInt16: ButtonAction]
    /// Its own long and double presses (configured `buttons` with `long` or `double`).
    public var buttonGestures: [UInt16: ButtonGestures]
    /// Its own knob settings (direction, detents per step, acceleration).
    public var knobOptions: KnobOptions

    /// Describes a device.
    public init(
        name: String, path: String, kind: DeviceKind, profile: String? = nil, route: KnobRoute = .followMode,
        buttonActions: [UInt16: ButtonAction] = [:], buttonGestures: [UInt16: ButtonGestures] = [:], knobOptions: KnobOptions = KnobOptions()
    ) {
        self.name = name
        self.path = path
        self.kind = kind
        self.profile = profile
        self.route = route
        self.buttonActions = buttonActions
        self.buttonGestures = buttonGestures
        self.knobOptions = knobOptions
    }

    /// Which device it is, for its own knob engines.
    public var identity: DeviceIdentity { DeviceIdentity(path: path) }

    /// The device as `hello` lists it.
    public var json: JSONValue {
        .object([("name", .string(name)), ("kind", .string(kind.rawValue)), ("path", .string(path))])
    }
}

/// A device came or went (`device` messages).
public enum DeviceChange: String, Sendable, Hashable {
    /// It was opened (plugged in, or a simulation or replay started).
    case added
    /// It failed or was unplugged.
    case removed
}
