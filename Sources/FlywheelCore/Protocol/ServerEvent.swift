/// Everything the daemon tells its clients, as values: each case is one message class with its
/// fields. ``ServerMessage/init(_:at:)`` is the one encoder.
public enum ServerEvent: Sendable, Hashable {
    /// A control moved, or the mode changed, or a frame while in motion.
    case control(ControlEvent)
    /// The banner: protocol and daemon versions, the controls, the devices.
    case hello(version: String, devices: [InputDevice])
    /// The controls' state (the answer to `get` and `set`).
    case state(DaemonState)
    /// A button: `press`, `release`, `tap`, `long-press` or `double-press`.
    case button(code: UInt16, action: ButtonEventAction)
    /// A device came or went.
    case device(DeviceChange, InputDevice)
    /// Input from the device at `path` was lost.
    case gap(devicePath: String, reason: String)
    /// A problem with what a client sent, or with the connection.
    case error(ErrorCode, message: String)
    /// The answer to `ping`.
    case pong
    /// The answer to `watch`.
    case watch(Subscription)
    /// The answer to `tap`: the tapped tempo once there are enough taps.
    case tap(bpm: Double?)

    /// The message's class.
    public var messageClass: MessageClass {
        switch self {
        case .control(let event): return event.messageClass
        case .hello: return .hello
        case .state: return .state
        case .button: return .button
        case .device: return .device
        case .gap: return .gap
        case .error: return .error
        case .pong: return .pong
        case .watch: return .watch
        case .tap: return .tap
        }
    }

    /// The message's fields after `class` (and the per-client `seq`), before `time`.
    public var fields: [(String, JSONValue)] {
        switch self {
        case .control(let event): return event.fields
        case .hello(let version, let devices):
            return [
                ("protocol", .int(DaemonCore.protocolVersion)), ("minor", .int(DaemonCore.protocolMinorVersion)),
                ("version", .string(version)),
                // The controls a client may `set` (the navigator has no value to set: its detents are events).
                ("controls", .array((Control.allCases.filter { $0 != .navigate }.map(\.rawValue) + ["mode"]).map(JSONValue.string))),
                ("devices", .array(devices.map(\.json))),
            ]
        case .state(let state): return state.fields
        case .button(let code, let action): return [("code", .int(Int(code))), ("action", .string(action.rawValue))]
        case .device(let change, let device):
            return [
                ("action", .string(change.rawValue)), ("name", .string(device.name)), ("path", .string(device.path)),
                ("kind", .string(device.kind.rawValue)),
            ]
        case .gap(let path, let reason): return [("device", .string(path)), ("reason", .string(reason))]
        case .error(let code, let message): return [("code", .string(code.rawValue)), ("message", .string(message))]
        case .pong: return []
        case .watch(let subscription):
            let names: JSONValue = subscription.classes.map { classes in
                .array(MessageClass.watchable.filter(classes.contains).map { .string($0.rawValue) })
            } ?? .null
            return [("classes", names), ("frames", .bool(subscription.frames))]
        case .tap(let bpm): return [("bpm", bpm.map { .double(($0 * 100).rounded() / 100) } ?? .null)]
        }
    }
}

/// What a `button` message says happened.
public enum ButtonEventAction: String, Sendable, Hashable {
    case press, release, tap
    case longPress = "long-press"
    /// A second press within 0.3 s of a tap, on a button given a `double` action.
    case doublePress = "double-press"
}

extension ServerMessage {
    /// Encodes `event` at `time`: the one encoder of every message class.
    public init(_ event: ServerEvent, at time: Nanoseconds) {
        var key: String?
        if case .control(let control) = event { key = control.frameKey?.rawValue }
        self.init(
            messageClass: event.messageClass, fields: event.fields, timeNanoseconds: time,
            isFrame: event.messageClass == .frame, coalescingKey: key)
    }

    /// Encodes a control's event at its own time: the message sent most often, so written
    /// straight into a buffer on the stack (the same bytes as ``init(_:at:)`` writes for it).
    public init(_ event: ControlEvent) {
        self = withUnsafeTemporaryAllocation(byteCount: Self.controlEventCapacity, alignment: 1) { buffer in
            var out = ByteWriter(buffer)
            let seqIndex = event.writeWire(into: &out)
            let wire = [UInt8](UnsafeRawBufferPointer(rebasing: buffer[..<out.count]))
            let key = event.frameKey?.rawValue
            return ServerMessage(messageClass: event.messageClass, wire: wire, seqIndex: seqIndex, isFrame: event.isFrame, coalescingKey: key)
        }
    }

    /// Room for the longest control event (a scrub's or a frame's: four numbers of up to 24
    /// characters each, and the time).
    static let controlEventCapacity = 320
}
