@testable import FlywheelCLI
import Testing

/// The volume bridges' choice of what to ask the player next (``VolumeRequests``), without a player.
@Suite("volume bridges: what is asked of the player next")
struct VolumeRequestsTests {
    static let state = Array(#"{"class":"state","volume":{"volume":30,"cap":100}}"#.utf8)
    static let tap = Array(#"{"class":"button","code":256,"action":"tap"}"#.utf8)
    static func volume(_ value: Int) -> [UInt8] { Array(#"{"class":"volume","phase":"moved","volume":\#(value)}"#.utf8) }
    /// flywheeld's event of a client's set (a read-back's echo).
    static func echo(_ value: Int) -> [UInt8] { Array(#"{"class":"volume","phase":"set","volume":\#(value)}"#.utf8) }
    static func readBack(_ value: Int) -> VolumeRequests.Report { .toDaemon(#"{"cmd":"set","control":"volume","volume":\#(value)}"#) }

    @Test("the mute button's tap first, then the knob's latest volume, then a read; the read only while flywheeld is connected; nothing at rest")
    func order() {
        var requests = VolumeRequests(muteButton: 256)
        #expect(requests.next(daemonConnected: true) == nil && !requests.waiting)
        requests.daemon(Self.state)
        #expect(requests.waiting)
        #expect(requests.next(daemonConnected: false) == nil, "a read while flywheeld is away has nowhere to go")
        for value in [32, 34, 36] { requests.daemon(Self.volume(value)) }
        requests.daemon(Self.tap)
        #expect(requests.next(daemonConnected: true) == .mute)
        #expect(requests.next(daemonConnected: true) == .set(36))
        #expect(requests.next(daemonConnected: true) == .read)
        #expect(requests.next(daemonConnected: true) == nil && !requests.waiting)
    }

    @Test("another button's tap, or any without --mute-button, mutes nothing; a line that is not JSON changes nothing")
    func otherButtons() {
        var requests = VolumeRequests(muteButton: 257)
        requests.daemon(Self.tap)
        requests.daemon(Array("{not json".utf8))
        #expect(requests.next(daemonConnected: true) == nil)
        var none = VolumeRequests(muteButton: nil)
        none.daemon(Self.tap)
        #expect(none.next(daemonConnected: true) == nil)
    }

    @Test("a failed request's mute or volume waits again, and the volume is read once the player answers; the knob's newer volume wins over a failed one")
    func failures() {
        var requests = VolumeRequests(muteButton: 256)
        requests.daemon(Self.tap)
        requests.failed(requests.next(daemonConnected: true)!)
        #expect(requests.next(daemonConnected: true) == .mute)
        #expect(requests.next(daemonConnected: true) == .read)
        requests.daemon(Self.volume(40))
        let sent = requests.next(daemonConnected: true)!
        requests.daemon(Self.volume(44))
        requests.failed(sent)
        #expect(requests.next(daemonConnected: true) == .set(44))
        #expect(requests.next(daemonConnected: true) == .read)
    }

    @Test("the player's volume read goes back to flywheeld as a set once its state is known, and not while the knob is ahead of it")
    func reports() {
        var requests = VolumeRequests(muteButton: nil)
        #expect(requests.reported(50) == .none, "flywheeld's cap is not known yet")
        requests.daemon(Self.state)
        #expect(requests.reported(50) == .toDaemon(#"{"cmd":"set","control":"volume","volume":50}"#))
        requests.daemon(Self.volume(20))
        #expect(requests.reported(60) == .none, "the knob's 20 waits for the player")
    }

    @Test("one read-back at a time: the player's volume read while one awaits its echo is not sent; the echo, or an error in its place, has the player read again, and that volume goes")
    func oneReadBackAtATime() {
        var requests = VolumeRequests(muteButton: nil)
        requests.daemon(Self.state)
        #expect(requests.next(daemonConnected: true) == .read)
        #expect(requests.reported(40) == Self.readBack(40))
        #expect(requests.reported(50) == .none, "a second read-back before the first one's echo")
        #expect(requests.reported(30) == .none, "flywheeld's 30 before the echo: not yet what it has")
        #expect(requests.next(daemonConnected: true) == nil)
        requests.daemon(Self.echo(40))
        #expect(requests.next(daemonConnected: true) == .read, "the player read again once the echo came")
        #expect(requests.reported(30) == Self.readBack(30))
        requests.daemon(Self.echo(30))
        #expect(requests.next(daemonConnected: true) == nil && !requests.waiting, "an echo sent back to the player")

        #expect(requests.reported(47) == Self.readBack(47))
        #expect(requests.reported(52) == .none)
        requests.daemon(Array(#"{"class":"error","code":"out_of_range","message":"no"}"#.utf8))
        #expect(requests.next(daemonConnected: true) == .read, "the player read again once the error came")
        #expect(requests.reported(52) == Self.readBack(52))
        requests.daemon(Self.echo(52))
        #expect(requests.next(daemonConnected: true) == nil && !requests.waiting)
    }
}
