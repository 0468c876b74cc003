import FlywheelIO

/// The scenarios that come with Flywheel (`hardware/scenarios/*.sim`), taken by name wherever a
/// `.sim` file is: `flywheeld --simulate flick`, `flywheel replay demo`, `flywheel sim bouncy-knob`.
public struct BundledScenarios: Sendable {
    /// The `scenarios` folders searched, in order.
    public let folders: [String]

    /// The scenarios beside the profiles of `ProfileLibrary.searchPath` (`--hardware DIR` first).
    public init(hardware: String?) {
        folders = ProfileLibrary.searchPath(explicit: hardware, scenarioPath: nil).map { $0 + "/scenarios" }
    }

    /// Whether `argument` is a name rather than a path: no `/`, and no extension but `.sim`.
    public static func isName(_ argument: String) -> Bool {
        guard !argument.isEmpty, !argument.contains("/") else { return false }
        return !argument.contains(".") || argument.hasSuffix(".sim")
    }

    /// The file `argument` means: itself when it exists or is a path; a bundled scenario's path when
    /// it is a name (`flick` or `flick.sim`), shown without `..` steps; otherwise an error listing the
    /// bundled names.
    public func path(for argument: String) throws(ToolError) -> String {
        guard Self.isName(argument), !FileSystem.exists(argument) else { return argument }
        let file = argument.hasSuffix(".sim") ? argument : argument + ".sim"
        if let found = folders.map({ $0 + "/" + file }).first(where: FileSystem.exists) { return FilePath.normalised(found) }
        let known = names()
        let list = known.isEmpty ? "none were found in \(folders.joined(separator: ", ")); give --hardware DIR" : "they are \(known.joined(separator: ", "))"
        throw ToolError("'\(argument)' is neither a file nor a bundled scenario (\(list)); give a .sim file's path or one of those names")
    }

    /// The bundled scenarios' names, each once, sorted.
    public func names() -> [String] {
        var found: Set<String> = []
        for folder in folders {
            for name in (try? FileSystem.listDirectory(folder)) ?? [] where name.hasSuffix(".sim") { found.insert(String(name.dropLast(4))) }
        }
        return found.sorted()
    }
}

/// Paths as a person reads them.
public enum FilePath {
    /// `path` with `.` steps and `dir/..` pairs taken out (lexically: `/a/b/../c` → `/a/c`);
    /// leading `..` of a relative path are kept.
    public static func normalised(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part == "..", absolute {
                continue  // above the root is the root
            } else {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
