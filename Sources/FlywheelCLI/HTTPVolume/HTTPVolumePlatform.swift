import FlywheelCore
import FlywheelIO

/// A music player reached over its own documented HTTP API for its volume: what to ask and how
/// to read the answer. Both keep their own interface in step, since the volume goes through the
/// same path as their web page's slider.
enum HTTPVolumePlatform: String, CaseIterable {
    /// Volumio's REST API (https://developers.volumio.com/api/rest-api): `GET
    /// /api/v1/commands/?cmd=volume&volume=N` sets the volume (0…100, also `mute` and `unmute`)
    /// and answers `{"time":…,"response":"volume Success"}`; `GET /api/v1/getState` answers the
    /// player's state, with `"volume"` (a number) and `"mute"` (true or false).
    case volumio
    /// moOde's command interface, www/command/index.php in moOde's source (moode-player/moode):
    /// `GET /command/?cmd=get_volume` answers `{"volume":"N","muted":"no"|"yes"}` (the volume as
    /// /var/www/util/vol.sh reports it); `GET /command/?cmd=set_volume N` runs vol.sh N — the path
    /// moOde's own rotary encoder takes — and answers the same, or `{"alert":"…"}` when it cannot
    /// (a renderer is active); `set_volume -mute` toggles the mute.
    case moode

    /// The player's name in messages.
    var name: String { self == .volumio ? "Volumio" : "moOde" }

    /// The request that reads the volume.
    var readTarget: String { self == .volumio ? "/api/v1/getState" : "/command/?cmd=get_volume" }

    /// The request that sets the volume to `volume` (0…100).
    func setTarget(_ volume: Int) -> String {
        self == .volumio ? "/api/v1/commands/?cmd=volume&volume=\(volume)" : "/command/?cmd=set_volume%20\(volume)"
    }

    /// The request that mutes (or unmutes, when `muted`).
    func muteTarget(muted: Bool) -> String {
        self == .volumio ? "/api/v1/commands/?cmd=volume&volume=\(muted ? "unmute" : "mute")" : "/command/?cmd=set_volume%20-mute"
    }

    /// Whether a command's answer carries the volume (moOde's does; Volumio's is read after it).
    var commandAnswersVolume: Bool { self == .moode }

    /// What an answer said.
    enum Answer: Equatable {
        /// The volume (and whether muted, where said).
        case volume(Int, muted: Bool?)
        /// The command was taken; the volume is not in the answer.
        case accepted
        /// The player refused, saying why.
        case refused(String)
    }

    /// Reads an answer's body (JSON); nil when it is not what the API documents.
    func answer(_ body: [UInt8]) -> Answer? {
        guard let json = try? JSONParser.parse(body), case .object = json else { return nil }
        switch self {
        case .volumio:
            if let volume = json["volume"]?.doubleValue {
                var muted: Bool?
                if case .bool(let flag)? = json["mute"] { muted = flag }
                return .volume(Self.clamped(volume), muted: muted)
            }
            guard let response = json["response"]?.stringValue else { return nil }
            return response.hasSuffix("Success") ? .accepted : .refused(String(response.prefix(200)))
        case .moode:
            if let alert = json["alert"]?.stringValue { return .refused(String(alert.prefix(200))) }
            // vol.sh's output, a string in the JSON (a number accepted too).
            guard let value = json["volume"], let volume = value.doubleValue ?? value.stringValue.flatMap(Double.init) else { return nil }
            let muted = json["muted"]?.stringValue.map { $0 == "yes" }
            return .volume(Self.clamped(volume), muted: muted)
        }
    }

    static func clamped(_ volume: Double) -> Int { volume.isFinite ? Int(max(0, min(100, volume.rounded()))) : 0 }
}
