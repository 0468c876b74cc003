import Testing
@testable import FlywheelCore

@Suite("Scrubber")
struct ScrubberTests {
    static let ms: Int64 = 1_000_000

    @Test("resolution scales with the content: a song ~1 s, a podcast ~13 s per detent, clamped")
    func resolution() {
        #expect(abs(Scrubber(durationSeconds: 214).secondsPerDetent - 1.07) < 1e-12)
        #expect(abs(Scrubber(durationSeconds: 2636).secondsPerDetent - 13.18) < 1e-12)
        #expect(Scrubber(durationSeconds: 10).secondsPerDetent == 0.5)
        #expect(Scrubber(durationSeconds: 100_000).secondsPerDetent == 30)
    }

    @Test("released before 0.2 s: cancelled and rolled back to the origin")
    func cancel() {
        var scrub = Scrubber(durationSeconds: 214, positionSeconds: 50)
        let began = scrub.move(byDetents: 3, at: 0)
        #expect(began.map(\.phase) == [.began, .moved])
        #expect(abs(scrub.positionSeconds - 53.21) < 1e-9)
        let end = scrub.end(at: 199 * Self.ms)
        #expect(end.map(\.phase) == [.cancelled])
        #expect(end[0].positionSeconds == 50 && scrub.positionSeconds == 50)
        #expect(scrub.gesture == nil)
    }

    @Test("released after 0.2 s: committed where it is")
    func commit() {
        var scrub = Scrubber(durationSeconds: 214, positionSeconds: 50)
        _ = scrub.move(byDetents: -2, at: 0)
        _ = scrub.move(byDetents: -1, at: 150 * Self.ms)
        let end = scrub.end(at: 200 * Self.ms)
        #expect(end.map(\.phase) == [.committed])
        #expect(abs(end[0].positionSeconds - (50 - 3 * 1.07)) < 1e-9)
        #expect(end[0].originSeconds == 50)
    }

    @Test("position stays within the content")
    func bounds() {
        var scrub = Scrubber(durationSeconds: 100, positionSeconds: 1)
        _ = scrub.move(byDetents: -10, at: 0)
        #expect(scrub.positionSeconds == 0)
        _ = scrub.move(byDetents: 1000, at: 0)
        #expect(scrub.positionSeconds == 100)
        scrub.set(durationSeconds: 50, positionSeconds: nil)
        #expect(scrub.positionSeconds == 50)
    }

    @Test("shuttle: rate × real time, commit when back at centre")
    func shuttle() {
        let rates = ShuttleRates()
        #expect(rates.rate(at: 0) == 0 && rates.rate(at: 3) == 2 && rates.rate(at: -7) == -32 && rates.rate(at: 9) == 32)
        var scrub = Scrubber(durationSeconds: 3600, positionSeconds: 100)
        _ = scrub.shuttle(rate: rates.rate(at: 4), forNanoseconds: 500 * Self.ms, at: 500 * Self.ms)  // 4× for 0.5 s
        #expect(abs(scrub.positionSeconds - 102) < 1e-9)
        let end = scrub.end(at: 600 * Self.ms)
        #expect(end.map(\.phase) == [.committed])
    }
}
