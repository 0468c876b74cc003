/// A text file (a replay, a scenario, a device profile, a configuration) could not be read: names
/// the file, the line (and the key, for files of keys) and what was expected, in one sentence:
/// `FILE line N: problem.` or `FILE line N: key 'K' problem.`
public struct FileLineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file as the user named it.
    public var file: String
    /// 1-based line number, or 0 when the problem is with the file as a whole.
    public var line: Int
    /// 1-based column (in bytes) where a syntax error was found; nil when the line is enough.
    public var column: Int?
    /// The key concerned, for files of `key = value` lines; nil otherwise.
    public var key: String?
    /// What was wrong, as the end of a sentence ("expected … but found …").
    public var problem: String
    /// The file's other mistakes, after this one in the file's order, when one reading found
    /// several (a configuration); each is a sentence of its own.
    public var others: [FileLineError] = []

    /// Creates an error.
    public init(file: String, line: Int, column: Int? = nil, key: String? = nil, problem: String) {
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.problem = problem
    }

    /// One sentence: `FILE line N[, column C]: [key 'K' ]problem.`; then, a line each, ``others``.
    public var description: String {
        let place = line > 0 ? "\(file) line \(line)" + (column.map { ", column \($0)" } ?? "") : file
        let sentence = (key.map { "key '\($0)' " } ?? "") + problem
        return ([("\(place): " + (sentence.hasSuffix(".") ? sentence : sentence + "."))] + others.map(\.description)).joined(separator: "\n")
    }
}
