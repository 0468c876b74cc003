import Testing
@testable import FlywheelCore

@Suite("KnobOptions: a device's own direction and detents per step")
struct KnobOptionsTests {
    @Test("knob options: invert, and whole detents per step with the remainder kept")
    func options() {
        var remainder = 0.0
        #expect(KnobOptions(invert: true).steps(3, touching: false, remainder: &remainder) == -3)
        let fine = KnobOptions(detentsPerStep: 4)
        #expect(fine.steps(3, touching: false, remainder: &remainder) == 0)
        #expect(fine.steps(2, touching: false, remainder: &remainder) == 1)
        #expect(remainder == 1)
        #expect(fine.steps(-1, touching: false, remainder: &remainder) == 0)
        #expect(fine.steps(-4, touching: false, remainder: &remainder) == -1)
        #expect(fine.steps(2, touching: true, remainder: &remainder) == 0.5)
        #expect(KnobOptions(detentsPerStep: 0).detentsPerStep == 1)
        #expect(KnobOptions(invert: true).shuttle(3) == -3)
    }
}
