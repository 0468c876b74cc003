import FlywheelCore
import Testing

@Suite struct ProfileTests {
    @Test func everyHardwareProfileParses() throws {
        let files = try Fixtures.files(in: "hardware", ending: ".profile")
        #expect(files.count >= 5)
        for file in files {
            let profile = try Fixtures.profile(String(file.dropLast(".profile".count)))
            #expect(profile.id + ".profile" == file)
            // Each file opens with comments saying what the device is.
            let text = try Fixtures.text("hardware/\(file)")
            #expect(text.hasPrefix("# "))
        }
    }

    @Test func ec11() throws {
        let profile = try Fixtures.profile("ec11")
        #expect(profile.kind == .encoder)
        #expect(profile.report == .gpio)
        #expect(profile.detentsPerRevolution == 20)
        #expect(profile.stepsPerDetent == .four)
        #expect(profile.rest == QuadratureLevels(code: 3))
        #expect(profile.bounce.toggles == 0...6)
        #expect(profile.bounce.windowNanoseconds == 50_000...3_000_000)
        #expect(profile.buttons == [KeyCode.btn0])
        #expect(profile.countsPerDetent == nil)
    }

    @Test func usbDevices() throws {
        let powermate = try Fixtures.profile("powermate")
        #expect(powermate.usb?.description == "077d:0410")
        #expect(powermate.report == .powermateDial)
        #expect(powermate.countsPerTurn == 94)
        #expect(powermate.usbPollIntervalNanoseconds == 8_000_000)
        #expect(powermate.maxDeltaPerReport == 7)
        #expect(powermate.axis?.code == RelCode.dial)
        #expect(powermate.buttons == [KeyCode.btn0])

        let shuttle = try Fixtures.profile("shuttlexpress")
        #expect(shuttle.usb == USBID(vendor: 0x0b33, product: 0x0020))
        #expect(shuttle.report == .shuttleCounter)
        #expect(shuttle.detentsPerRevolution == 10)
        #expect(shuttle.countsPerDetent == 1)
        #expect(shuttle.buttons == [KeyCode.btn4, KeyCode.btn5, KeyCode.btn6, KeyCode.btn7, KeyCode.btn8])

        let wheel = try Fixtures.profile("hires-wheel")
        #expect(wheel.report == .hiresWheel)
        #expect(wheel.axis?.code == RelCode.wheel)
        #expect(120 % (wheel.countsPerDetent ?? 0) == 0)

        let kernel = try Fixtures.profile("rotary-encoder")
        #expect(kernel.report == .rotaryEncoderRelative)
        #expect(kernel.axis?.code == RelCode.x)
        #expect(kernel.kernelStepsPerPeriod == 1)
    }

    static let valid = """
        # a test profile
        id = test
        name = Test knob
        kind = encoder
        report = gpio
        detents_per_revolution = 20
        steps_per_detent = 4
        rest = 11
        """

    /// The error for `valid` with line `number` (1-based) replaced by `line`.
    func error(replacing number: Int, with line: String) -> String {
        var lines = Self.valid.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[number - 1] = line
        do {
            _ = try DeviceProfile.parse(lines.joined(separator: "\n"), file: "hardware/test.profile")
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func validProfileParses() throws {
        let profile = try DeviceProfile.parse(Self.valid, file: "test.profile")
        #expect(profile.id == "test")
        #expect(profile.bounce == .none)
        #expect(profile.buttons.isEmpty)
    }

    @Test func errorsNameFileLineAndKey() {
        #expect(
            error(replacing: 7, with: "steps_per_detent = 3")
                == "hardware/test.profile line 7: key 'steps_per_detent' must be 1, 2 or 4, got '3'.")
        #expect(
            error(replacing: 8, with: "rest = 12")
                == "hardware/test.profile line 8: key 'rest' must be two levels A then B (00, 10, 11 or 01), got '12'.")
        #expect(
            error(replacing: 5, with: "report = hid")
                == "hardware/test.profile line 5: key 'report' must be 'gpio', 'rotary-encoder-rel', 'rotary-encoder-abs', "
                + "'powermate-dial', 'shuttle-counter' or 'hires-wheel', got 'hid'.")
        #expect(
            error(replacing: 6, with: "detents_per_revolution = twenty")
                == "hardware/test.profile line 6: key 'detents_per_revolution' must be a whole number from 1 to 10000, got 'twenty'.")
        #expect(
            error(replacing: 3, with: "nmae = Test knob").hasPrefix(
                "hardware/test.profile line 3: key 'nmae' is not a profile key (known keys: id, name, kind,"))
        #expect(
            error(replacing: 4, with: "kind encoder")
                == "hardware/test.profile line 4: expected 'key = value', got 'kind encoder'.")
        #expect(
            error(replacing: 4, with: "id = again")
                == "hardware/test.profile line 4: key 'id' is set twice (first on line 2).")
        #expect(
            error(replacing: 3, with: "# no name")
                == "hardware/test.profile line 8: key 'name' is required but missing.")
    }

    @Test func errorsInValueForms() throws {
        func message(_ extra: String) -> String {
            do {
                _ = try DeviceProfile.parse(Self.valid + "\n" + extra, file: "p.profile")
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(message("bounce_toggles = 6..0") == "p.profile line 9: key 'bounce_toggles' must be a range of toggle counts such as 0..6 (at most 100), got '6..0'.")
        #expect(message("bounce_toggles = 0..4") == "p.profile line 9: key 'bounce_window' is required (and must be longer than 0) when bounce_toggles allows toggles.")
        #expect(message("bounce_window = 3..5ms") == "p.profile line 9: key 'bounce_window' must be a range of durations such as 0.05ms..3ms, got '3..5ms'.")
        #expect(message("usb = 77d:410") == "p.profile line 9: key 'usb' must be vendor:product in hex, such as 077d:0410, got '77d:410'.")
        #expect(message("buttons = BTN_NOPE") == "p.profile line 9: key 'buttons' must be 'none' or key names such as BTN_0 or BTN_4, BTN_5, got 'BTN_NOPE'.")
        #expect(message("chatter = often") == "p.profile line 9: key 'chatter' must be 'none' or a rate and pulse width such as '2/s width 20us..200us', got 'often'.")
        #expect(message("axis = ABS_X") == "no error")  // a gpio profile keeps the axis but does not use it
    }

    @Test func reportKindsNeedTheirKeys() throws {
        let usb = Self.valid.replacing("report = gpio", with: "report = powermate-dial")
        func message(_ text: String) -> String {
            do {
                _ = try DeviceProfile.parse(text, file: "p.profile")
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(message(usb) == "p.profile line 5: key 'counts_per_turn' is required when report is 'powermate-dial'.")
        #expect(
            message(usb + "\ncounts_per_turn = 94\nusb_poll_interval = 8ms\nmax_delta_per_report = 7")
                == "p.profile line 9: key 'counts_per_turn' must be a whole multiple of detents_per_revolution (20) when report is 'powermate-dial', got '94'.")
        let kernel = Self.valid.replacing("report = gpio", with: "report = rotary-encoder-rel")
        #expect(message(kernel + "\naxis = ABS_X") == "p.profile line 9: key 'axis' must be a REL_* axis when report is 'rotary-encoder-rel', got 'ABS_X'.")
        #expect(try DeviceProfile.parse(kernel, file: "p.profile").axis?.name == "REL_X")
        let half = Self.valid.replacing("steps_per_detent = 4", with: "steps_per_detent = 2")
            .replacing("rest = 11", with: "rest = 10")
        #expect(message(half) == "p.profile line 8: key 'rest' must be 00 or 11 with 2 steps per detent (half-period rests), got '10'.")
    }

    @Test func valueForms() {
        #expect(ValueText.duration("0.05ms") == 50_000)
        #expect(ValueText.duration("3ms") == 3_000_000)
        #expect(ValueText.duration("1.5s") == 1_500_000_000)
        #expect(ValueText.duration("300us") == 300_000)
        #expect(ValueText.duration("40ns") == 40)
        #expect(ValueText.duration("200") == nil)
        #expect(ValueText.duration("1e3ms") == nil)
        #expect(ValueText.duration("-3ms") == nil)
        #expect(ValueText.range("0..6", ValueText.integer) == 0...6)
        #expect(ValueText.range("0.05ms..3ms", ValueText.duration) == 50_000...3_000_000)
        #expect(ValueText.perSecond("+30/s") == 30)
        #expect(ValueText.perSecond("-2.5/s") == -2.5)
        #expect(ValueText.number("1e3") == nil)
        #expect(ValueText.durationText(50_000) == "50us")
        #expect(ValueText.durationText(1_500_000_000) == "1500ms")
    }
}
