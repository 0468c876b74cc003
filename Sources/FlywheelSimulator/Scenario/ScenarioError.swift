/// A scenario could not be read or does not fit its device. Its description is one sentence
/// naming the file, the line and what was expected:
/// `hardware/scenarios/bouncy-knob.sim line 9: expected 'turn ±N at V/s' with N a non-zero whole number, got 'turn five'.`
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file as the caller named it.
    public var file: String
    /// 1-based line number (for something missing, the last line of the file).
    public var line: Int
    /// What was wrong, as the end of a sentence.
    public var problem: String

    /// Creates an error.
    public init(file: String, line: Int, problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    /// One sentence: `FILE line N: problem.`
    public var description: String {
        "\(file) line \(line): " + (problem.hasSuffix(".") ? problem : problem + ".")
    }
}
