import Testing
@testable import FlywheelCore

@Suite("Tempo dial and tap tempo")
struct TempoDialTests {
    @Test("integer table: one BPM per detent across 20–300")
    func integer() {
        let dial = TempoDial()
        #expect(dial.detentCount == 281)
        #expect(dial.bpm(atDetent: 0) == 20 && dial.bpm(atDetent: 100) == 120 && dial.bpm(atDetent: 999) == 300)
        #expect(dial.detent(nearest: 96.4) == 76)
    }

    @Test("maelzel table: the 39 markings 40…208, limited by the range")
    func maelzel() {
        let dial = TempoDial(table: .maelzel)
        #expect(dial.detentCount == 39)
        #expect(dial.bpm(atDetent: 0) == 40 && dial.bpm(atDetent: 38) == 208)
        #expect(dial.bpm(atDetent: dial.detent(nearest: 123)) == 120)
        let narrow = TempoDial(range: 60...120, table: .maelzel)
        #expect(narrow.bpm(atDetent: 0) == 60 && narrow.bpm(atDetent: narrow.detentCount - 1) == 120)
    }

    static let ms: Int64 = 1_000_000

    @Test("tap tempo: needs 3 taps, averages the last 4 intervals")
    func taps() {
        var tap = TapTempo()
        #expect(tap.tap(at: 0) == nil)
        #expect(tap.tap(at: 500 * Self.ms) == nil)
        #expect(tap.tap(at: 1000 * Self.ms) == 120)
        // Intervals 500, 500, 520, 480, 510: the mean of the last four is 502.5 ms.
        _ = tap.tap(at: 1520 * Self.ms)
        _ = tap.tap(at: 2000 * Self.ms)
        let bpm = tap.tap(at: 2510 * Self.ms)
        #expect(bpm != nil && abs(bpm! - 60_000 / 502.5) < 1e-9)
    }

    @Test("tap tempo resets after 2 s idle and on a jump over 20 %")
    func reset() {
        var tap = TapTempo()
        _ = tap.tap(at: 0); _ = tap.tap(at: 500 * Self.ms); _ = tap.tap(at: 1000 * Self.ms)
        #expect(tap.tap(at: 3100 * Self.ms) == nil)  // 2.1 s idle
        #expect(tap.tap(at: 3600 * Self.ms) == nil)
        #expect(tap.tap(at: 4100 * Self.ms) == 120)
        #expect(tap.tap(at: 4400 * Self.ms) == nil)  // 300 ms after 500 ms: a 40 % jump starts a new run
        #expect(tap.tap(at: 4700 * Self.ms) == 200)
    }
}
