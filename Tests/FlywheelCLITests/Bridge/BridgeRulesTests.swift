@testable import FlywheelCLI
import Testing

/// The bridges' small rules: the backoff's start-over, and MPD's address as MPD's own clients read it.
@Suite("Bridge rules")
struct BridgeRulesTests {
    @Test("the backoff starts over only after a connection lived 1 s: a peer that greets and drops is tried less and less often")
    func backoffStartsOverAfterAStableConnection() {
        var backoff = ReconnectBackoff()
        var now: Int64 = 0
        var waits: [String] = []
        for _ in 0..<6 {
            backoff.connected(at: now)
            now += 10_000_000  // dropped 10 ms after connecting
            waits.append(backoff.failed(at: now))
            now = backoff.nextAttemptNanoseconds
        }
        #expect(waits == ["retrying in 0.25 s.", "retrying in 0.50 s.", "retrying in 1.00 s.", "retrying in 2.00 s.", "retrying in 4.00 s.", "retrying in 8.00 s."])
        backoff.connected(at: now)
        #expect(backoff.failed(at: now + ReconnectBackoff.stableNanoseconds) == "retrying in 0.25 s.")
    }

    @Test("MPD_HOST=password@host and MPD_PORT, as MPD's clients take them")
    func mpdAddress() {
        #expect(MPDAddress("secret@127.0.0.1", port: "6611") == MPDAddress(address: "127.0.0.1:6611", password: "secret"))
        #expect(MPDAddress("secret@music.local:6600", port: nil) == MPDAddress(address: "music.local:6600", password: "secret"))
        #expect(MPDAddress(nil, port: nil) == MPDAddress(address: "localhost:6600", password: nil))
        #expect(MPDAddress("/run/mpd/socket", port: "6611") == MPDAddress(address: "/run/mpd/socket", password: nil))
        #expect(MPDAddress("pw@/run/mpd/socket", port: nil) == MPDAddress(address: "/run/mpd/socket", password: "pw"))
        #expect(MPDAddress("[::1]:6601", port: nil) == MPDAddress(address: "[::1]:6601", password: nil))
        #expect(MPDAddress("::1", port: "6611") == MPDAddress(address: "[::1]:6611", password: nil))
    }
}

extension MPDAddress {
    init(address: String, password: String?) {
        self.init(address, port: nil)
        self.address = address
        self.password = password
    }
}
