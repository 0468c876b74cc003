/// A device feeding the pipeline, as clients see it in `hello` and `device` messages, with where
/// its knob goes.
public struct InputDevice: Sendable, Hashable {
    /// What describes the device.
    struct Fields: Sendable, Hashable {
        var name: String
        var path: String
        var kind: DeviceKind
        var profile: String?
        var route: KnobRoute
        var buttonActions: [UInt16: ButtonAction]
        var buttonGestures: [UInt16: ButtonGestures]
        var knobOptions: KnobOptions
    }

    /// The fields, shared and never changed: the pipeline hands the device to its routing with
    /// every input, and a copy is then one reference, not eight fields each with its own
    /// (strings, tables). A change makes a new one (devices change only when configured).
    final class Storage: Sendable {
        let fields: Fields
        let identity: DeviceIdentity
        init(_ fields: Fields) {
            self.fields = fields
            identity = DeviceIdentity(path: fields.path)
        }
    }

    private var storage: Storage

    /// Its name (configured, or the device's own).
    public var name: String {
        get { storage.fields.name }
        set { change { $0.name = newValue } }
    }
    /// Its node, GPIO lines, or the file a simulation or replay plays.
    public var path: String {
        get { storage.fields.path }
        set { change { $0.path = newValue } }
    }
    /// What kind of device it is.
    public var kind: DeviceKind {
        get { storage.fields.kind }
        set { change { $0.kind = newValue } }
    }
    /// Its `hardware/` profile, when known.
    public var profile: String? {
        get { storage.fields.profile }
        set { change { $0.profile = newValue } }
    }
    /// Where its knob goes.
    public var route: KnobRoute {
        get { storage.fields.route }
        set { change { $0.route = newValue } }
    }
    /// Its own button actions (configured `buttons`), before the global ones.
    public var buttonActions: [UInt16: ButtonAction] {
        get { storage.fields.buttonActions }
        set { change { $0.buttonActions = newValue } }
    }
    /// Its own long and double presses (configured `buttons` with `long` or `double`).
    public var buttonGestures: [UInt16: ButtonGestures] {
        get { storage.fields.buttonGestures }
        set { change { $0.buttonGestures = newValue } }
    }
    /// Its own knob settings (direction, detents per step, acceleration).
    public var knobOptions: KnobOptions {
        get { storage.fields.knobOptions }
        set { change { $0.knobOptions = newValue } }
    }

    /// Changes a field: a new storage, the old one left to its other copies.
    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = storage.fields
        body(&fields)
        storage = Storage(fields)
    }

    /// Describes a device.
    public init(
        name: String, path: String, kind: DeviceKind, profile: String? = nil, route: KnobRoute = .followMode,
        buttonActions: [UInt16: ButtonAction] = [:], buttonGestures: [UInt16: ButtonGestures] = [:], knobOptions: KnobOptions = KnobOptions()
    ) {
        storage = Storage(
            Fields(
                name: name, path: path, kind: kind, profile: profile, route: route, buttonActions: buttonActions,
                buttonGestures: buttonGestures, knobOptions: knobOptions))
    }

    /// Equal when every field is.
    public static func == (lhs: InputDevice, rhs: InputDevice) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) { hasher.combine(storage.fields) }

    /// Which device it is, for its own knob engines.
    package var identity: DeviceIdentity { storage.identity }

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
