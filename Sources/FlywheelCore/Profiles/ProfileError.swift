/// A device profile could not be read. Its description is one sentence naming the file, the
/// line and the key: `hardware/ec11.profile line 7: key 'steps_per_detent' must be 1, 2 or 4, got '3'.`
public struct ProfileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file as the caller named it.
    public var file: String
    /// 1-based line number (for a missing key, the last line of the file).
    public var line: Int
    /// The key concerned, or nil when the line is not a `key = value` line at all.
    public var key: String?
    /// What was wrong, as the end of a sentence (`must be 1, 2 or 4, got '3'`).
    public var problem: String

    /// Creates an error.
    public init(file: String, line: Int, key: String?, problem: String) {
        self.file = file
        self.line = line
        self.key = key
        self.problem = problem
    }

    /// One sentence: `FILE line N: key 'K' problem.`
    public var description: String {
        let subject = key.map { "key '\($0)' " } ?? ""
        let sentence = subject + problem
        return "\(file) line \(line): " + (sentence.hasSuffix(".") ? sentence : sentence + ".")
    }
}
