/// Reads one level of a configuration object, naming the file, the line and the key path in
/// every error, and refusing keys it does not know. A mistake that leaves the rest readable (an
/// unknown key, a key that is not an object, a value ``attempt`` catches) goes to ``problems``, so
/// that one reading finds every mistake in the file.
struct ConfigReader {
    let file: String
    let lines: [String: Int]
    let path: String
    let pairs: [(String, JSONValue)]
    let objectLine: Int
    /// The mistakes found so far, shared by every reader of the file.
    let problems: ConfigProblems
    /// Whether the value was not an object (said once: its keys are then not said to be missing).
    let isBroken: Bool

    /// A reader of `value`; one that is not an object is a mistake, read as an empty object.
    init(file: String, lines: [String: Int], path: String, value: JSONValue?, line: Int, problems: ConfigProblems) {
        self.file = file
        self.lines = lines
        self.path = path
        self.objectLine = line
        self.problems = problems
        switch value {
        case nil:
            pairs = []
            isBroken = false
        case .object(let members)?:
            pairs = members
            isBroken = false
        case let other?:
            let subject = path.isEmpty ? "the configuration" : "key '\(path)'"
            problems.add(FileLineError(file: file, line: line, problem: "\(subject) must be an object { … }, got \(other.kindDescription)"))
            pairs = []
            isBroken = true
        }
    }

    /// Runs `body`; a mistake it throws is kept and the reading goes on (what `body` would have
    /// set keeps its default). Returns whether `body` finished.
    @discardableResult
    func attempt(_ body: () throws(FileLineError) -> Void) -> Bool {
        do throws(FileLineError) {
            try body()
            return true
        } catch {
            problems.add(error)
            return false
        }
    }

    func keyPath(_ key: String) -> String { path.isEmpty ? key : path + "." + key }
    func line(_ key: String) -> Int { lines[keyPath(key)] ?? objectLine }

    func fail(_ key: String, _ problem: String) -> FileLineError {
        FileLineError(file: file, line: line(key), problem: "key '\(keyPath(key))' \(problem)")
    }

    /// Refuses keys outside `known`, each one, then each known key holding a number that is not
    /// finite: JSON5 writes `NaN` and `Infinity`, and no key takes them. Each reader calls this
    /// before it reads a number; such a key then reads as absent (``value(_:)``), so that it is
    /// said once.
    func only(_ known: [String]) {
        for (key, _) in pairs where !known.contains(key) {
            problems.add(FileLineError(
                file: file, line: line(key),
                problem: "unknown key '\(keyPath(key))'; the keys\(path.isEmpty ? "" : " of '\(path)'") are \(known.joined(separator: ", "))"))
        }
        for (key, field) in pairs where known.contains(key) {
            attempt { () throws(FileLineError) in try requireFinite(field, at: keyPath(key)) }
        }
    }

    /// Refuses NaN and ±Infinity as `field`, or in it when it is a list or a list of lists (a
    /// curve), naming the item by its path (`….curve[0][1]`); an object in it has its own reader.
    func requireFinite(_ field: JSONValue, at keyPath: String) throws(FileLineError) {
        switch field {
        case .double(let number) where !number.isFinite:
            let name = number.isNaN ? "NaN" : number < 0 ? "-Infinity" : "Infinity"
            throw FileLineError(file: file, line: lines[keyPath] ?? objectLine, problem: "key '\(keyPath)' must be a finite number, got \(name)")
        case .array(let items):
            for (index, item) in items.enumerated() { try requireFinite(item, at: "\(keyPath)[\(index)]") }
        default:
            return
        }
    }

    /// The value of `key`; nil when absent, or when it holds a number that is not finite (a
    /// mistake ``only(_:)`` has said).
    func value(_ key: String) -> JSONValue? {
        guard let field = pairs.first(where: { $0.0 == key })?.1, Self.isFinite(field) else { return nil }
        return field
    }

    /// The mistake for a required `key` that is not there: "is missing: `fix`", or, when the key
    /// is there with a number that is not finite (``only(_:)`` said so), ``alreadySaid``.
    func missing(_ key: String, line: Int, _ fix: String) -> FileLineError {
        guard !isBroken, !holds(key) else { return Self.alreadySaid }
        return FileLineError(file: file, line: line, problem: "key '\(keyPath(key))' is missing: \(fix)")
    }

    /// Whether `key` is in the object, whatever its value (``value(_:)`` is nil for one that is not
    /// finite).
    func holds(_ key: String) -> Bool { pairs.contains { $0.0 == key } }

    /// `key`'s value, nil when absent; when it is there but not finite (said by ``only(_:)``),
    /// ``alreadySaid``, so that what depends on it is not judged against a default.
    func present(_ key: String) throws(FileLineError) -> JSONValue? {
        guard let field = value(key) else {
            if holds(key) { throw Self.alreadySaid }
            return nil
        }
        return field
    }

    /// A mistake that stands for one already said: ``ConfigProblems`` drops it.
    static let alreadySaid = FileLineError(file: "", line: -1, problem: "")

    /// Whether `field` has no NaN or ±Infinity in it (as ``requireFinite(_:at:)`` looks).
    static func isFinite(_ field: JSONValue) -> Bool {
        switch field {
        case .double(let number): return number.isFinite
        case .array(let items): return items.allSatisfy(isFinite)
        default: return true
        }
    }

    func child(_ key: String) -> ConfigReader {
        ConfigReader(file: file, lines: lines, path: keyPath(key), value: value(key), line: line(key), problems: problems)
    }

    func number(_ key: String, in range: ClosedRange<Double>, default fallback: Double) throws(FileLineError) -> Double {
        guard let field = value(key) else { return fallback }
        guard let number = field.doubleValue else { throw fail(key, "must be a number, got \(field.kindDescription)") }
        guard range.contains(number) else {
            throw fail(key, "must be from \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound)), got \(Self.text(number))")
        }
        return number
    }

    /// A whole number is one written as one (`96`, `+96`, `0x60`): `96.` and `96.0` are doubles
    /// (``JSONParser`` gives the case), refused here alike.
    func integer(_ key: String, in range: ClosedRange<Int>, default fallback: Int) throws(FileLineError) -> Int {
        guard let field = value(key) else { return fallback }
        guard case .int(let number) = field else { throw fail(key, "must be a whole number, got \(field.encoded())") }
        guard range.contains(number) else {
            throw fail(key, "must be from \(range.lowerBound) to \(range.upperBound), got \(number)")
        }
        return number
    }

    func string(_ key: String, default fallback: String?) throws(FileLineError) -> String? {
        guard let field = value(key) else { return fallback }
        guard let text = field.stringValue else { throw fail(key, "must be a string, got \(field.kindDescription)") }
        return text
    }

    func choice(_ key: String, _ choices: [String], default fallback: String) throws(FileLineError) -> String {
        guard let text = try string(key, default: fallback) else { return fallback }
        guard choices.contains(text) else {
            throw fail(key, "must be one of \(choices.map { "\"\($0)\"" }.joined(separator: ", ")), got \"\(text)\"")
        }
        return text
    }

    /// A string key whose value names a case of `T` (by its raw value).
    func choice<T: RawRepresentable & CaseIterable>(_ key: String, default fallback: T) throws(FileLineError) -> T where T.RawValue == String {
        let text = try choice(key, T.allCases.map(\.rawValue), default: fallback.rawValue)
        return T(rawValue: text) ?? fallback
    }

    func bool(_ key: String, default fallback: Bool) throws(FileLineError) -> Bool {
        guard let field = value(key) else { return fallback }
        guard case .bool(let flag) = field else { throw fail(key, "must be true or false, got \(field.kindDescription)") }
        return flag
    }

    static func text(_ number: Double) -> String { JSONValue.double(number).encoded() }
}

/// The mistakes one reading of a configuration found, reported together in the file's order.
final class ConfigProblems {
    private(set) var errors: [FileLineError] = []

    /// Keeps `error`, unless it stands for one already said (``ConfigReader/missing(_:line:_:)``).
    func add(_ error: FileLineError) {
        guard error != ConfigReader.alreadySaid else { return }
        errors.append(error)
    }

    /// Throws every mistake found, the first in the file first (by line, then column; mistakes on
    /// one line in the order found), the others in its ``FileLineError/others``.
    func check() throws(FileLineError) {
        guard !errors.isEmpty else { return }
        let ordered = errors.enumerated().sorted { ($0.element.line, $0.element.column ?? 0, $0.offset) < ($1.element.line, $1.element.column ?? 0, $1.offset) }
            .map(\.element)
        var first = ordered[0]
        first.others = Array(ordered.dropFirst())
        throw first
    }
}
