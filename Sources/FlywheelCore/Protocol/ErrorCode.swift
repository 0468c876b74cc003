/// The machine-readable code of an `error` message.
public enum ErrorCode: String, Sendable, Hashable, CaseIterable {
    /// The line is not UTF-8.
    case invalidUTF8 = "invalid-utf8"
    /// Not JSON: a syntax error, NaN or Infinity, a duplicate key, nesting too deep, an object or
    /// array of more than 64 members.
    case invalidJSON = "invalid-json"
    /// A JSON value that is not an object.
    case notAnObject = "not-an-object"
    /// No `cmd`, or a command without what it needs.
    case missingField = "missing-field"
    /// A field of the wrong type.
    case badType = "bad-type"
    /// A command flywheeld does not know.
    case unknownCommand = "unknown-command"
    /// A field the command does not take.
    case unknownField = "unknown-field"
    /// A control flywheeld does not have.
    case unknownControl = "unknown-control"
    /// A message class that does not exist.
    case unknownClass = "unknown-class"
    /// A value outside what the control accepts.
    case outOfRange = "out-of-range"
    /// A line over the limit: the connection is closed after the error.
    case lineTooLong = "line-too-long"
    /// The client stopped reading and its queue filled: the connection is closed after the error.
    case queueOverflow = "queue-overflow"
    /// The daemon serves no more clients (or is out of descriptors): the connection is closed.
    case tooManyClients = "too-many-clients"
    /// Nothing answers commands (no daemon attached).
    case unavailable

    /// Whether the daemon closes the connection after sending this error.
    package var closesConnection: Bool { [.lineTooLong, .queueOverflow, .tooManyClients].contains(self) }
}
