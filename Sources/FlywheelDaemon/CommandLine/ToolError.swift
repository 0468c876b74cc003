/// The executables' error: a command-line mistake (status 2) or a failure from a lower layer
/// (status 1) — a file's line (`FileLineError`), a system call (`SystemError`), a protocol
/// problem — kept as `underlying`, its sentence printed to standard error.
public struct ToolError: Error, CustomStringConvertible {
    /// The sentence.
    public var description: String
    /// The exit status (2 for usage errors, 1 otherwise).
    public var status: Int32
    /// The lower layer's error this one reports, when there is one.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(_ description: String, status: Int32 = 1) {
        self.description = description.hasSuffix(".") ? description : description + "."
        self.status = status
    }

    /// Reports a lower layer's error (status 1) with its own sentence.
    public init(_ error: any Error) {
        if let tool = error as? ToolError {
            self = tool
            return
        }
        self.init(String(describing: error))
        underlying = error
    }

    /// Whether its sentence ends pointing to the command's `--help` (an unknown option, a missing
    /// value or argument: the help is the fix).
    public var pointsToHelp = false

    /// A usage error (status 2); `help`: one whose fix is in the command's `--help`.
    public static func usage(_ description: String, help: Bool = false) -> ToolError {
        var error = ToolError(description, status: 2)
        error.pointsToHelp = help
        return error
    }

    /// The error as its program says it: one whose fix is the help ends pointing to it
    /// (`; 'flywheel mpd --help' lists its options.`).
    public func sentence(help: String) -> String {
        guard pointsToHelp, !description.contains("--help"), description.hasSuffix(".") else { return description }
        return String(description.dropLast()) + "; '\(help)' lists \(help.hasPrefix("flywheeld") ? "the" : "its") options."
    }
}
