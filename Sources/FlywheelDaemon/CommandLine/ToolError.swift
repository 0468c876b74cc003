/// A command-line mistake or a failure to report: one sentence, printed to standard error.
public struct ToolError: Error, CustomStringConvertible {
    /// The sentence.
    public var description: String
    /// The exit status (2 for usage errors, 1 otherwise).
    public var status: Int32

    /// Creates an error.
    public init(_ description: String, status: Int32 = 1) {
        self.description = description.hasSuffix(".") ? description : description + "."
        self.status = status
    }

    /// A usage error (status 2).
    public static func usage(_ description: String) -> ToolError { ToolError(description, status: 2) }
}
