/// A small argument reader: `--name value`, `--name=value`, flags and positionals.
public struct Arguments {
    private var remaining: [String]
    /// The command the arguments are for, as errors name it.
    public let command: String

    /// Reads `arguments` for `command`.
    public init(_ arguments: [String], command: String) {
        self.remaining = arguments
        self.command = command
    }

    /// Removes and returns the value of `--name` (either `--name value` or `--name=value`).
    public mutating func option(_ name: String) throws(ToolError) -> String? {
        var found: String?
        var index = 0
        while index < remaining.count {
            let argument = remaining[index]
            if argument == "--\(name)" {
                guard index + 1 < remaining.count else {
                    throw .usage("--\(name) needs a value", help: true)
                }
                found = remaining[index + 1]
                remaining.removeSubrange(index...(index + 1))
            } else if argument.hasPrefix("--\(name)=") {
                found = String(argument.dropFirst(name.count + 3))
                remaining.remove(at: index)
            } else {
                index += 1
            }
        }
        return found
    }

    /// Removes every `--name value` (or `--name=value`) and returns the values in order: an option
    /// that may be given more than once.
    public mutating func options(_ name: String) throws(ToolError) -> [String] {
        var values: [String] = []
        while let value = try firstOption(name) { values.append(value) }
        return values
    }

    /// Removes the first `--name value` and returns its value.
    mutating func firstOption(_ name: String) throws(ToolError) -> String? {
        guard let index = remaining.firstIndex(where: { $0 == "--\(name)" || $0.hasPrefix("--\(name)=") }) else { return nil }
        let argument = remaining[index]
        if argument != "--\(name)" {
            remaining.remove(at: index)
            return String(argument.dropFirst(name.count + 3))
        }
        guard index + 1 < remaining.count else { throw .usage("--\(name) needs a value", help: true) }
        defer { remaining.removeSubrange(index...(index + 1)) }
        return remaining[index + 1]
    }

    /// Removes `--name` and says whether it was there.
    public mutating func flag(_ name: String) -> Bool {
        let before = remaining.count
        remaining.removeAll { $0 == "--\(name)" }
        return remaining.count != before
    }

    /// The positional arguments left; any leftover `--option` is an error.
    public mutating func positionals(_ expected: String, count: ClosedRange<Int>) throws(ToolError) -> [String] {
        if let unknown = remaining.first(where: { $0.hasPrefix("--") && $0 != "--" }) {
            throw .usage(command == "flywheeld" ? "there is no option \(unknown)" : "\(command) has no option \(unknown)", help: true)
        }
        let values = remaining.filter { $0 != "--" }
        guard count.contains(values.count) else {
            if values.count < count.lowerBound { throw .usage("'\(command)' needs \(expected)", help: true) }
            throw .usage("'\(command)' takes \(expected) but was given \(values.count) arguments: \(values.joined(separator: " "))", help: true)
        }
        return values
    }

    /// Removes `--name N` and returns N, a whole number within `range`.
    public mutating func integer(_ name: String, in range: ClosedRange<Int>) throws(ToolError) -> Int? {
        guard let text = try option(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .usage("--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// Removes `--name X` and returns X, a number within `range`.
    public mutating func number(_ name: String, in range: ClosedRange<Double>) throws(ToolError) -> Double? {
        guard let text = try option(name) else { return nil }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw .usage("--\(name) takes a number from \(NumberText.plain(range.lowerBound)) to \(NumberText.plain(range.upperBound)), not '\(text)'")
        }
        return value
    }
}

/// Numbers as a person writes them in a message: `240`, `0.5`, `10000000`.
enum NumberText {
    static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
