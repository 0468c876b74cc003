/// What flywheeld keeps across a restart or a power cut (its state file, `--state FILE`): the
/// tempo to its tenth, the volume, the active mode, and a tempo range or table a client set.
///
/// Not kept: the scrub's content and position (they are the player's: MPD keeps its own, and the
/// bridge sets them again when it connects; saved, they would be written every second a song
/// plays), motion in progress, and held buttons.
///
/// The file is one JSON object, `{"version":1,"bpm":96.5,"volume":30,"mode":"tempo"}` with, when a
/// client set them, `"range":[40,208],"table":"maelzel"` and the configuration's range and table
/// they were set under (`"configured_range"`, `"configured_table"`): a client's dial is restored
/// only while the configuration still has the dial it replaced.
public struct SavedState: Sendable, Hashable {
    /// The file's format; a file of a later version is refused (the defaults are used).
    public static let version = 1
    /// The most a state file may be: a few dozen bytes are written.
    public static let limitBytes = 4096

    /// A tempo dial a client set (`set` with `range` or `table`).
    public struct ClientDial: Sendable, Hashable {
        public var range: ClosedRange<Int>
        public var table: TempoTable
        /// The configuration's range and table when the client set it.
        public var configuredRange: ClosedRange<Int>
        public var configuredTable: TempoTable
    }

    public var bpm: BPM
    public var volume: Int
    public var mode: Control
    public var clientDial: ClientDial?

    public init(bpm: BPM, volume: Int, mode: Control, clientDial: ClientDial? = nil) {
        self.bpm = bpm
        self.volume = volume
        self.mode = mode
        self.clientDial = clientDial
    }

    /// The file's contents: one line of JSON.
    public func encoded() -> [UInt8] {
        var pairs: [(String, JSONValue)] = [
            ("version", .int(Self.version)), ("bpm", .double(bpm.value)), ("volume", .int(volume)), ("mode", .string(mode.rawValue)),
        ]
        if let dial = clientDial {
            pairs += [
                ("range", .array([.int(dial.range.lowerBound), .int(dial.range.upperBound)])), ("table", .string(dial.table.rawValue)),
                ("configured_range", .array([.int(dial.configuredRange.lowerBound), .int(dial.configuredRange.upperBound)])),
                ("configured_table", .string(dial.configuredTable.rawValue)),
            ]
        }
        return Array((JSONValue.object(pairs).encoded() + "\n").utf8)
    }

    /// Why a state file's contents cannot be used, as the end of a sentence ("… is …").
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// Reads a state file's contents; a problem says what is wrong with them.
    public static func decode(_ bytes: [UInt8]) throws(Problem) -> SavedState {
        if bytes.isEmpty { throw Problem(description: "empty") }
        let json: JSONValue
        do { json = try JSONParser.parse(bytes, maximumMembers: 16) } catch { throw Problem(description: "not a state file (\(error.description))") }
        guard case .object = json else { throw Problem(description: "not a state file (not a JSON object)") }
        guard let version = json["version"]?.doubleValue, version >= 1, version == version.rounded() else {
            throw Problem(description: "not a state file (no \"version\")")
        }
        if version > Double(Self.version) {
            throw Problem(description: "from a later version of flywheeld (its format is newer than version \(Self.version), which this one reads)")
        }
        guard let bpm = json["bpm"]?.doubleValue, bpm.isFinite,
            (Double(TempoRules.limits.lowerBound)...Double(TempoRules.limits.upperBound)).contains(bpm)
        else { throw Problem(description: "missing a usable \"bpm\"") }
        guard let volume = json["volume"]?.doubleValue, (0...100).contains(volume) else { throw Problem(description: "missing a usable \"volume\"") }
        guard let modeName = json["mode"]?.stringValue, let mode = Control(rawValue: modeName) else { throw Problem(description: "missing a usable \"mode\"") }
        var state = SavedState(bpm: BPM(bpm), volume: Int(volume.rounded()), mode: mode)
        if json["range"] != nil || json["table"] != nil {
            guard let range = Self.range(json["range"]), let table = json["table"]?.stringValue.flatMap(TempoTable.init(rawValue:)),
                let configuredRange = Self.range(json["configured_range"]),
                let configuredTable = json["configured_table"]?.stringValue.flatMap(TempoTable.init(rawValue:))
            else { throw Problem(description: "missing a usable \"range\", \"table\", \"configured_range\" or \"configured_table\"") }
            state.clientDial = ClientDial(range: range, table: table, configuredRange: configuredRange, configuredTable: configuredTable)
        }
        return state
    }

    /// `[LOW, HIGH]`, whole BPMs as a client's `set` or the configuration may give them (``TempoRules``).
    static func range(_ value: JSONValue?) -> ClosedRange<Int>? {
        let limits = Double(TempoRules.limits.lowerBound)...Double(TempoRules.limits.upperBound)
        guard case .array(let bounds) = value, bounds.count == 2, let low = bounds[0].doubleValue, let high = bounds[1].doubleValue,
            low == low.rounded(), high == high.rounded(), limits.contains(low), limits.contains(high),
            TempoRules.rangeProblem(low: Int(low), high: Int(high)) == nil
        else { return nil }
        return Int(low)...Int(high)
    }
}

extension DaemonCore {
    /// What a state file keeps of the core now; `configured` is the configuration's dial (a
    /// client's own dial is kept when it differs).
    public func savedState(configured: TempoDial) -> SavedState {
        var state = SavedState(bpm: tempo.bpm, volume: volume.volume, mode: mode.active)
        if tempo.dial.range != configured.range || tempo.dial.table != configured.table {
            state.clientDial = SavedState.ClientDial(
                range: tempo.dial.range, table: tempo.dial.table, configuredRange: configured.range, configuredTable: configured.table)
        }
        return state
    }

    /// The core with `saved` restored under its configuration (`configured`: its tempo dial) and
    /// what had to give, each a sentence: a tempo outside the range is clamped, a volume over the
    /// cap or over `restoreMaxVolume` starts at it, a mode no longer configured is not selected,
    /// and a client's dial is dropped when the configuration's has changed since.
    public mutating func restore(_ saved: SavedState, configured: TempoDial, restoreMaxVolume: Int) -> [String] {
        var notes: [String] = []
        if let dial = saved.clientDial {
            if dial.configuredRange == configured.range, dial.configuredTable == configured.table,
                TempoRules.tableProblem(dial.table, in: dial.range) == nil
            {
                tempo = TempoControl(
                    dial: TempoDial(range: dial.range, table: dial.table, bounds: configured.bounds, resolution: configured.resolution),
                    bpm: tempo.bpm.value, parameters: parameters, acceleration: tempo.knob.acceleration)
            } else {
                notes.append(
                    "the tempo range \(dial.range.lowerBound)–\(dial.range.upperBound) (\(dial.table.rawValue)) a client set is not restored: the configuration's is now \(configured.range.lowerBound)–\(configured.range.upperBound) (\(configured.table.rawValue))")
            }
        }
        let range = tempo.dial.range
        let bpm = min(max(saved.bpm.value, Double(range.lowerBound)), Double(range.upperBound))
        if bpm != saved.bpm.value {
            notes.append("the saved tempo \(saved.bpm) BPM is outside the range \(range.lowerBound)–\(range.upperBound): it starts at \(BPM(bpm))")
        }
        tempo.set(bpm: bpm)
        var level = saved.volume
        if level > volume.dial.cap {
            notes.append("the saved volume \(level) is over the cap \(volume.dial.cap): it starts at \(volume.dial.cap)")
            level = volume.dial.cap
        }
        if level > restoreMaxVolume {
            notes.append("the saved volume \(level) is over controls.volume.restore_max \(restoreMaxVolume): it starts at \(restoreMaxVolume)")
            level = restoreMaxVolume
        }
        volume.set(volume: Double(level), exact: true)
        if !mode.select(saved.mode) {
            notes.append("the saved mode \(saved.mode.rawValue) is not one of the configured modes: it starts in \(mode.active.rawValue)")
        }
        return notes
    }
}
