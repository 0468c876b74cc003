/// Where a parsed configuration came from: its file and the line of each key, so that what is
/// checked after parsing (on this system: the socket's group and folder, the device profiles)
/// names the file, the line and the key like the file's own errors.
public struct ConfigurationSource: Sendable, Hashable {
    /// The file as the user named it.
    public var file: String
    /// The line of each key, by its path (`socket.group`, `devices[0].profile`).
    public var keyLines: [String: Int]

    /// A source.
    public init(file: String, keyLines: [String: Int]) {
        self.file = file
        self.keyLines = keyLines
    }

    /// The line of `key`, or of the nearest enclosing key given (1 when none is).
    public func line(of key: String) -> Int {
        var path = Substring(key)
        while !path.isEmpty {
            if let line = keyLines[String(path)] { return line }
            guard let end = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { break }
            path = path[..<end]
        }
        return 1
    }

    /// An error about `key`: `FILE line N: key 'K' problem.`
    public func error(key: String, _ problem: String) -> FileLineError {
        FileLineError(file: file, line: line(of: key), problem: "key '\(key)' \(problem)")
    }
}
