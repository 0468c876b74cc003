/// A problem with a client's line: a machine-readable code and a sentence.
public struct ProtocolError: Error, Sendable, Hashable {
    /// What kind of problem it is.
    public var code: ErrorCode
    /// What was wrong, as a sentence.
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }
}

/// A command a client sends, one JSON object per line.
public enum ClientCommand: Sendable, Hashable {
    /// Choose the classes to receive and whether to get frames.
    case watch(Subscription)
    /// Ask for the state.
    case get
    /// Set the tempo: any of bpm, range and table.
    case setTempo(bpm: Double?, range: ClosedRange<Int>?, table: TempoTable?)
    /// Set the scrub content: duration and/or position in seconds.
    case setScrub(duration: Double?, position: Double?)
    /// Set the volume (0 up to the cap).
    case setVolume(Double)
    /// Select a mode.
    case setMode(String)
    /// A tap for tap tempo.
    case tap
    /// Are you there?
    case ping


    /// The most members an object, or items an array, of a command line may have: every command
    /// takes a handful, and a line of thousands of keys is refused where the 65th starts instead of
    /// costing milliseconds to parse whole.
    package static let maximumMembers = 64

    /// Parses one line (without its newline).
    public static func parse(_ line: [UInt8]) throws(ProtocolError) -> ClientCommand {
        if let bad = JSONParser.firstInvalidUTF8(line) {
            throw ProtocolError(.invalidUTF8, "The line is not valid UTF-8 (byte \(bad)).")
        }
        let value: JSONValue
        do { value = try JSONParser.parse(validUTF8: line, maximumMembers: maximumMembers) } catch {
            throw ProtocolError(.invalidJSON, "The line is not valid JSON: \(error.description).")
        }
        guard case .object(let pairs) = value else {
            throw ProtocolError(.notAnObject, "A command is a JSON object such as {\"cmd\":\"ping\"}, not \(value.kindDescription).")
        }
        guard let cmdValue = value["cmd"] else {
            throw ProtocolError(.missingField, "A command needs a \"cmd\" field (watch, get, set, tap or ping).")
        }
        guard let cmd = cmdValue.stringValue else {
            throw ProtocolError(.badType, "\"cmd\" must be a string, not \(cmdValue.kindDescription).")
        }
        func allow(_ keys: Set<String>) throws(ProtocolError) {
            for (key, _) in pairs where key != "cmd" && !keys.contains(key) {
                let known = keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                throw ProtocolError(.unknownField, "\"\(Excerpt.of(cmd))\" does not take \"\(Excerpt.of(key))\"" + (known.isEmpty ? "." : "; it takes \(known)."))
            }
        }
        func number(_ key: String) throws(ProtocolError) -> Double? {
            guard let field = value[key] else { return nil }
            guard let number = field.doubleValue else {
                throw ProtocolError(.badType, "\"\(key)\" must be a number, not \(field.kindDescription).")
            }
            return number
        }
        switch cmd {
        case "ping":
            try allow([])
            return .ping
        case "get":
            try allow([])
            return .get
        case "tap":
            try allow([])
            return .tap
        case "watch":
            try allow(["classes", "frames"])
            var classes: Set<MessageClass>?
            if let field = value["classes"] {
                guard case .array(let items) = field else {
                    throw ProtocolError(.badType, "\"classes\" must be an array of class names, not \(field.kindDescription).")
                }
                classes = []
                for item in items {
                    guard let name = item.stringValue else {
                        throw ProtocolError(.badType, "\"classes\" must hold strings, not \(item.kindDescription).")
                    }
                    guard let watched = MessageClass(rawValue: name), MessageClass.watchable.contains(watched) else {
                        let names = MessageClass.watchable.map(\.rawValue).joined(separator: ", ")
                        throw ProtocolError(.unknownClass, "There is no class \"\(Excerpt.of(name))\"; the classes are \(names).")
                    }
                    classes!.insert(watched)
                }
            }
            var frames = classes?.contains(.frame) ?? false
            if let field = value["frames"] {
                guard case .bool(let flag) = field else {
                    throw ProtocolError(.badType, "\"frames\" must be true or false, not \(field.kindDescription).")
                }
                frames = flag
            }
            return .watch(Subscription(classes: classes, frames: frames))
        case "set":
            guard let controlValue = value["control"] else {
                throw ProtocolError(.missingField, "\"set\" needs a \"control\": tempo, scrub, volume or mode.")
            }
            guard let control = controlValue.stringValue else {
                throw ProtocolError(.badType, "\"control\" must be a string, not \(controlValue.kindDescription).")
            }
            switch control {
            case "tempo":
                try allow(["control", "bpm", "range", "table"])
                let bpm = try number("bpm")
                var range: ClosedRange<Int>?
                if let field = value["range"] {
                    guard case .array(let items) = field, items.count == 2, case .int(let low) = items[0], case .int(let high) = items[1] else {
                        throw ProtocolError(.badType, "\"range\" must be two whole numbers [low, high].")
                    }
                    if let problem = TempoRules.rangeProblem(low: low, high: high) {
                        throw ProtocolError(.outOfRange, "\"range\" \(problem).")
                    }
                    range = low...high
                }
                var table: TempoTable?
                if let field = value["table"] {
                    guard let name = field.stringValue, let parsed = TempoTable(rawValue: name) else {
                        throw ProtocolError(.outOfRange, "\"table\" must be \"integer\" or \"maelzel\".")
                    }
                    table = parsed
                }
                guard bpm != nil || range != nil || table != nil else {
                    throw ProtocolError(.missingField, "\"set\" for tempo needs \"bpm\", \"range\" or \"table\".")
                }
                return .setTempo(bpm: bpm, range: range, table: table)
            case "scrub":
                try allow(["control", "duration", "position"])
                let duration = try number("duration"), position = try number("position")
                guard duration != nil || position != nil else {
                    throw ProtocolError(.missingField, "\"set\" for scrub needs \"duration\" or \"position\" (seconds).")
                }
                if let duration, duration < 0 || duration > 1e7 {
                    throw ProtocolError(.outOfRange, "\"duration\" must be from 0 to 10,000,000 seconds, not \(JSONValue.double(duration).encoded()).")
                }
                if let position, position < 0 {
                    throw ProtocolError(.outOfRange, "\"position\" must not be negative, not \(JSONValue.double(position).encoded()).")
                }
                if let duration, let position, position > duration {
                    throw ProtocolError(.outOfRange, "\"position\" \(JSONValue.double(position).encoded()) is past the \"duration\" \(JSONValue.double(duration).encoded()).")
                }
                return .setScrub(duration: duration, position: position)
            case "volume":
                try allow(["control", "volume"])
                guard let level = try number("volume") else { throw ProtocolError(.missingField, "\"set\" for volume needs \"volume\" (0–100).") }
                return .setVolume(level)
            case "mode":
                try allow(["control", "mode"])
                guard let field = value["mode"] else { throw ProtocolError(.missingField, "\"set\" for mode needs \"mode\".") }
                guard let name = field.stringValue else {
                    throw ProtocolError(.badType, "\"mode\" must be a string, not \(field.kindDescription).")
                }
                return .setMode(name)
            default:
                throw ProtocolError(.unknownControl, "There is no control \"\(Excerpt.of(control))\"; the controls are tempo, scrub, volume and mode.")
            }
        default:
            throw ProtocolError(.unknownCommand, "Unknown command \"\(Excerpt.of(cmd))\"; the commands are watch, get, set, tap and ping.")
        }
    }
}
