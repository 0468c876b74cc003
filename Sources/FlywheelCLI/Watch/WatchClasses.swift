import FlywheelCore
import FlywheelDaemon

/// `flywheel watch --classes tempo,scrub`: the classes asked for, checked before connecting.
struct WatchClasses: Equatable {
    /// The classes, in the order given, each once.
    var classes: [MessageClass]

    /// Whether `frame` is among them (it asks for frames).
    var wantsFrames: Bool { classes.contains(.frame) }

    /// Reads a comma-separated list; spaces around names are ignored, an unknown name is a usage
    /// error naming the classes there are.
    init(_ text: String) throws(ToolError) {
        var found: [MessageClass] = []
        for part in text.split(separator: ",") {
            let name = part.trimmingSpaces()
            guard !name.isEmpty else { continue }
            guard let named = MessageClass(rawValue: name), MessageClass.watchable.contains(named) else {
                throw .usage("--classes takes names from \(Self.names), not '\(name)'")
            }
            if !found.contains(named) { found.append(named) }
        }
        guard !found.isEmpty else { throw .usage("--classes needs at least one of \(Self.names)") }
        classes = found
    }

    /// The classes a client may watch, as a list for messages.
    static let names = MessageClass.watchable.map(\.rawValue).joined(separator: ", ")
}

extension Substring {
    /// Without the spaces and tabs at either end.
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
