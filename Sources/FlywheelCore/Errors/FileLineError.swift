/// A text file (a replay, a scenario, a configuration) could not be read: names the file, the
/// line and what was expected, in one sentence: `FILE line N: problem.`
public struct FileLineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file as the user named it.
    public var file: String
    /// 1-based line number, or 0 when the problem is with the file as a whole.
    public var line: Int
    /// What was wrong, as the end of a sentence ("expected … but found …").
    public var problem: String

    /// Creates an error.
    public init(file: String, line: Int, problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    /// One sentence: `FILE line N: problem.`
    public var description: String {
        let place = line > 0 ? "\(file) line \(line)" : file
        let sentence = problem.hasSuffix(".") ? problem : problem + "."
        return "\(place): \(sentence)"
    }
}
