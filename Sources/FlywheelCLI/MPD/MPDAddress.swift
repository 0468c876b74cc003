/// Where MPD is and its password, as MPD's own clients take them: `--mpd`, else `$MPD_HOST`
/// (`password@host`, a host, or a socket path) and `$MPD_PORT`, else localhost:6600.
struct MPDAddress: Equatable {
    /// A socket path or `host:port`.
    var address: String
    /// Sent with MPD's `password` command first, when given.
    var password: String?

    /// `text` (`--mpd` or `$MPD_HOST`), its port `port` when it has none.
    init(_ text: String?, port: String?) {
        var host = text ?? "localhost"
        if let at = host.firstIndex(of: "@"), at != host.startIndex, !host.hasPrefix("/") {
            password = String(host[..<at])
            host = String(host[host.index(after: at)...])
        }
        if host.isEmpty { host = "localhost" }
        let colons = host.filter { $0 == ":" }.count
        if host.contains("/") || (host.hasPrefix("[") ? host.contains("]:") : colons == 1) {
            address = host  // a socket path, or a host with its port
        } else if colons > 1, !host.hasPrefix("[") {
            address = "[\(host)]:" + (port ?? "6600")  // a bare IPv6 address
        } else {
            address = host + ":" + (port ?? "6600")
        }
    }
}
