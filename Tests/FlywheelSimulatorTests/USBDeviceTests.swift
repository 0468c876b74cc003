import FlywheelCore
import FlywheelSimulator
import Testing

@Suite struct USBDeviceTests {
    @Test func powermateCapsEachReportAtSevenAndCarriesTheRest() throws {
        let scenario = try Fixtures.scenario("powermate-spin")
        let profile = try Fixtures.profile("powermate")
        let result = try Simulation(scenario: scenario, profile: profile).run()
        let deltas = result.inputEvents.filter { $0.type == EventType.rel && $0.code == RelCode.dial }.map { Int($0.value) }
        #expect(deltas.allSatisfy { $0 != 0 && abs($0) <= 7 })
        #expect(deltas.filter { $0 == 7 }.count > 20)  // the spin outran the cap for many polls
        #expect(deltas.reduce(0, +) == result.truthDetents * (profile.countsPerDetent ?? 0))
        #expect(deltas.reduce(0, +) == result.truthCounts)
        #expect(result.truthDetents > 94)
        // Reports are one poll (8 ms) apart at least, each closed by SYN_REPORT.
        let times = result.usbReports.map(\.timeNanoseconds)
        #expect(zip(times, times.dropFirst()).allSatisfy { ($1 - $0) % 8_000_000 == 0 && $1 > $0 })
        #expect(result.inputEvents.last == InputEvent.synReport(at: result.inputEvents.last?.timeNanoseconds ?? -1))
        // The press arrives as BTN_0 down and up.
        let keys = result.inputEvents.filter { $0.type == EventType.key }
        #expect(keys.map(\.value) == [1, 0])
        #expect(keys.allSatisfy { $0.code == KeyCode.btn0 })
    }

    @Test func powermateCarryIsNeededOnlyWhenTheKnobOutrunsThePolls() throws {
        let profile = try Fixtures.profile("powermate")
        let slow = try Fixtures.run("turn +30 at 100/s", profile: profile)  // < 1 count per poll
        let slowDeltas = slow.inputEvents.filter { $0.type == EventType.rel }.map(\.value)
        #expect(slowDeltas.allSatisfy { abs($0) <= 2 })
        #expect(slowDeltas.reduce(0, +) == 30)
        let fast = try Fixtures.run("turn -200 at 2500/s", profile: profile)  // 20 counts per poll
        let fastDeltas = fast.inputEvents.filter { $0.type == EventType.rel }.map(\.value)
        #expect(fastDeltas.filter { $0 == -7 }.count >= 25)
        #expect(fastDeltas.reduce(0, +) == -200)
        #expect(fast.inputEvents.last!.timeNanoseconds > fast.gestures.last!.endNanoseconds)  // the carry drains late
    }

    /// Unwraps a sequence of 8-bit counter values to net counts (shortest way round).
    func unwrap(_ values: [Int], from start: Int) -> Int {
        var last = start
        var total = 0
        for value in values {
            var step = (value - last) % 256
            if step > 127 { step -= 256 }
            if step < -128 { step += 256 }
            total += step
            last = value
        }
        return total
    }

    @Test func shuttleCounterWrapsBothWays() throws {
        let scenario = try Fixtures.scenario("shuttle-wrap")
        let profile = try Fixtures.profile("shuttlexpress")
        let result = try Simulation(scenario: scenario, profile: profile).run()
        #expect(result.truthDetents == 2)
        #expect(result.profile.counterStart == 250)

        // What the firmware sent: every value, 255 → 0 going forward and 0 → 255 coming back.
        let sent = result.usbReports.map(\.rotary)
        #expect(sent.allSatisfy { (0...255).contains($0) })
        let pairs = Array(zip(sent, sent.dropFirst()))
        #expect(pairs.contains { $0 == 255 && $1 == 0 })
        #expect(pairs.contains { $0 == 0 && $1 == 255 })
        #expect(unwrap(sent, from: 250) == result.truthDetents)

        // What evdev delivered: the counter in every report, except that 0 never arrives.
        let dial = result.inputEvents.filter { $0.type == EventType.rel && $0.code == RelCode.dial }.map { Int($0.value) }
        #expect(!dial.contains(0))
        #expect(dial.contains(255) && dial.contains(1))
        #expect(unwrap(dial, from: 250) == result.truthDetents)
        // The button report repeats the counter.
        let pressFrame = result.inputEvents.firstIndex { $0.type == EventType.key && $0.value == 1 }
        #expect(pressFrame.map { result.inputEvents[$0].code } == KeyCode.btn5)
        #expect(pressFrame.map { result.inputEvents[$0 - 1].code } == RelCode.dial)
    }

    @Test func shuttleCounterAtZeroIsInvisibleToTheHost() throws {
        // From 250, six detents forward end at 0: the firmware sends 0, the input core drops it,
        // so the host's last value is 255 and it is one detent short until the wheel moves again.
        let profile = try Fixtures.profile("shuttlexpress")
        let result = try Fixtures.run("counter 250\nturn +6 at 4/s", profile: profile)
        #expect(result.usbReports.last?.rotary == 0)
        let dial = result.inputEvents.filter { $0.type == EventType.rel }.map { Int($0.value) }
        #expect(dial.last == 255)
        #expect(unwrap(dial, from: 250) == result.truthDetents - 1)
    }

    @Test func hiResWheelSendsFractionsOf120AndWholeDetents() throws {
        let scenario = try Fixtures.scenario("hires-scroll")
        let profile = try Fixtures.profile("hires-wheel")
        let result = try Simulation(scenario: scenario, profile: profile).run()
        let hiRes = result.inputEvents.filter { $0.type == EventType.rel && $0.code == RelCode.wheelHiRes }.map { Int($0.value) }
        let wheel = result.inputEvents.filter { $0.type == EventType.rel && $0.code == RelCode.wheel }.map { Int($0.value) }
        #expect(hiRes.reduce(0, +) == 120 * result.truthDetents)
        #expect(wheel.reduce(0, +) == result.truthDetents)
        #expect(hiRes.allSatisfy { $0 % 30 == 0 })
        #expect(hiRes.contains { abs($0) < 120 })  // partial detents
        #expect(result.truthDetents != 0)
    }

    @Test func hiResWiggleSendsNoWholeDetent() throws {
        let profile = try Fixtures.profile("hires-wheel")
        let result = try Fixtures.run("bounce off\nwiggle 0.45 at 1/s\nwiggle -0.3 at 1/s", profile: profile)
        let hiRes = result.inputEvents.filter { $0.code == RelCode.wheelHiRes && $0.type == EventType.rel }.map(\.value)
        #expect(hiRes.contains(30) && hiRes.contains(-30))
        #expect(hiRes.reduce(0, +) == 0)
        #expect(!result.inputEvents.contains { $0.type == EventType.rel && $0.code == RelCode.wheel })
    }
}
