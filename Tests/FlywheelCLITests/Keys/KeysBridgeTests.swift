import FlywheelCore
import FlywheelDaemon
@testable import FlywheelCLI
import FlywheelIO
import Testing

/// `flywheel keys`: the map's names, and the key presses flywheeld's messages make.
@Suite("flywheel keys")
struct KeysBridgeTests {
    static let codes: [String: UInt16] = ["KEY_VOLUMEUP": 115, "KEY_VOLUMEDOWN": 114, "KEY_NEXTSONG": 163, "KEY_PREVIOUSSONG": 165, "KEY_PLAYPAUSE": 164]

    static func map(_ text: String) throws -> KeyMap {
        var map = KeyMap()
        try map.add(text, keyCode: { codes[$0] })
        return map
    }

    @Test("libevdev knows linux/input-event-codes.h's names: KEY_VOLUMEUP is 115, KEY_PLAYPAUSE 164, BTN_LEFT 0x110; others are refused")
    func names() {
        #expect(VirtualKeyboard.keyCode(named: "KEY_VOLUMEUP") == 115)
        #expect(VirtualKeyboard.keyCode(named: "KEY_PLAYPAUSE") == 164)
        #expect(VirtualKeyboard.keyCode(named: "KEY_NEXTSONG") == 163)
        #expect(VirtualKeyboard.keyCode(named: "BTN_LEFT") == 0x110)
        #expect(VirtualKeyboard.keyCode(named: "KEY_NOSUCH") == nil)
        #expect(VirtualKeyboard.keyCode(named: "REL_X") == nil)
    }

    @Test("the map: CONTROL+ and CONTROL- per control, cw and ccw for the rest, buttons; a bad pair is a usage error naming it")
    func parsing() throws {
        let map = try Self.map("volume+=KEY_VOLUMEUP,volume-=KEY_VOLUMEDOWN,cw=KEY_NEXTSONG,ccw=KEY_PREVIOUSSONG,BTN_0=KEY_PLAYPAUSE")
        #expect(map.key(.volume, 3) == 115)
        #expect(map.key(.volume, -1) == 114)
        #expect(map.key(.navigate, 1) == 163)
        #expect(map.key(.tempo, -2) == 165)
        #expect(map.keys[.button(256)] == 164)
        #expect(map.allKeys == [115, 114, 163, 165, 164])
        for bad in ["volume=KEY_VOLUMEUP", "scrub+=KEY_A", "cw", "cw=KEY_NOSUCH", "BTN_X=KEY_PLAYPAUSE", ""] {
            #expect(throws: ToolError.self, "\(bad)") { try Self.map(bad) }
        }
    }

    func bridge(_ map: KeyMap) -> (KeysBridge, () -> [(UInt16, Bool)]) {
        final class Record { var events: [(UInt16, Bool)] = [] }
        let record = Record()
        let bridge = KeysBridge(flywheel: "/nonexistent", map: map, log: { _ in }) { record.events.append(($0, $1)) }
        return (bridge, { record.events })
    }

    @Test("one press per step: the volume's change over its step (accelerated: repeated), the tempo's dial value, the navigator's detents; a set presses nothing")
    func steps() throws {
        let (bridge, events) = bridge(try Self.map("volume+=KEY_VOLUMEUP,volume-=KEY_VOLUMEDOWN,navigate+=KEY_NEXTSONG,navigate-=KEY_PREVIOUSSONG"))
        bridge.handle(Array(#"{"class":"state","volume":{"volume":30,"step":2},"tempo":{"value":1200}}"#.utf8))
        bridge.handle(Array(#"{"class":"volume","volume":32,"phase":"began"}"#.utf8))
        bridge.handle(Array(#"{"class":"volume","volume":40,"phase":"moved"}"#.utf8))  // accelerated: 4 steps
        bridge.handle(Array(#"{"class":"volume","volume":38,"phase":"moved"}"#.utf8))
        bridge.handle(Array(#"{"class":"volume","volume":60,"phase":"set"}"#.utf8))
        bridge.handle(Array(#"{"class":"volume","volume":62,"phase":"moved"}"#.utf8))
        bridge.handle(Array(#"{"class":"navigate","steps":-2}"#.utf8))
        bridge.handle(Array(#"{"class":"tempo","bpm":120.5,"value":1205,"phase":"moved"}"#.utf8))  // the tempo has no key here
        let presses = events().filter(\.1).map(\.0)
        // The began's step, the accelerated turn's 4, the turn back, after the set one more, 2 skips back.
        let expected: [UInt16] = [115, 115, 115, 115, 115, 114, 115, 165, 165]
        #expect(presses == expected)
        #expect(events().count == 2 * presses.count, "each press is released")
    }

    @Test("a message is at most 64 presses: a navigator message of a million steps presses the key 64 times, not a million")
    func repeatsBounded() throws {
        let (bridge, events) = bridge(try Self.map("navigate+=KEY_NEXTSONG"))
        bridge.handle(Array(#"{"class":"navigate","steps":1000000}"#.utf8))
        let presses = events().filter(\.1).map(\.0)
        #expect(presses.count == KeysBridge.maximumRepeats)
        #expect(Set(presses) == [163])
        #expect(events().count == 2 * presses.count, "each press is released")
    }

    @Test("a button's key is held as long as the button, and released when flywheeld goes away")
    func held() throws {
        let (bridge, events) = bridge(try Self.map("BTN_0=KEY_PLAYPAUSE"))
        bridge.handle(Array(#"{"class":"button","code":256,"action":"press"}"#.utf8))
        #expect(events().map(\.1) == [true])
        #expect(bridge.held == [164])
        bridge.daemon.onDropped()
        #expect(events().map(\.1) == [true, false])
        #expect(bridge.held.isEmpty)
        bridge.handle(Array(#"{"class":"button","code":256,"action":"release"}"#.utf8))  // a release after the drop: nothing more
        #expect(events().count == 2)
    }
}
