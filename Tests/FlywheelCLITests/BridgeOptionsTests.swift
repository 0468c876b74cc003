import Testing

@Suite("The bridges refuse bad options with one sentence")
struct BridgeOptionsTests {
    @Test("mpd, osc and midi name what is wrong")
    func badOptions() {
        #expect(ToolRun.run(["mpd", "--button", "BTN_0=dance"]).err
                == "flywheel: --button takes BUTTON=ACTION with BUTTON as BTN_0…BTN_9 or a key code and ACTION one of play-pause, next, previous, stop, mute, shuffle, repeat, not 'BTN_0=dance'.\n")
        #expect(ToolRun.run(["mpd", "--button", "KEY_A=next"]).status == 2)
        #expect(ToolRun.run(["osc"]).err == "flywheel: 'osc' needs --to HOST:PORT (where the OSC receiver listens); 'flywheel osc --help' lists its options.\n")
        #expect(ToolRun.run(["osc", "--to", "localhost"]).err == "flywheel: --to takes HOST:PORT with a port from 1 to 65535, not 'localhost'.\n")
        #expect(ToolRun.run(["osc", "--to", "127.0.0.1:9000", "--preset", "reaper"]).err == "flywheel: --preset takes generic or klick, not 'reaper'.\n")
        #expect(ToolRun.run(["midi"]).err == "flywheel: 'midi' needs --device PATH (a raw MIDI port such as /dev/snd/midiC1D0); 'flywheel midi --help' lists its options.\n")
        #expect(ToolRun.run(["midi", "--device", "/dev/null", "--channel", "17"]).err == "flywheel: --channel takes a whole number from 1 to 16, not '17'.\n")
        #expect(ToolRun.run(["midi", "--device", "/dev/null", "--buttons", "drums"]).err == "flywheel: --buttons takes notes or cc, not 'drums'.\n")
        #expect(ToolRun.run(["midi", "--device", "/dev/null", "--knob-cc", "pan=7"]).err
                == "flywheel: --knob-cc takes a controller number from 0 to 119, or CONTROL=N with CONTROL one of tempo, volume, scrub, not 'pan=7'.\n")
        #expect(ToolRun.run(["midi", "--device", "/dev/null", "--button", "BTN_1=note:200"]).err
                == "flywheel: --button takes BUTTON=note:N (0–127) or BUTTON=cc:N (0–119) with BUTTON as BTN_0…BTN_9 or a key code, not 'BTN_1=note:200'.\n")
        #expect(ToolRun.run(["midi", "--device", "/dev/null", "--clock", "--rt-priority", "0"]).err == "flywheel: --rt-priority takes a whole number from 1 to 99, not '0'.\n")
        let missing = ToolRun.run(["midi", "--device", "/nonexistent/midiC9D9"])
        #expect(missing.status != 0 && missing.err.hasPrefix("flywheel: cannot open /nonexistent/midiC9D9: No such file or directory"), "\(missing.err)")
    }
}
