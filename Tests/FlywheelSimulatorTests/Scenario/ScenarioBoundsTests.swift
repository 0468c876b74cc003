import FlywheelCore
import FlywheelSimulator
import Testing

/// Small scenarios cannot ask for unbounded time or memory: each limit is an error naming the
/// file, the line and the limit.
@Suite("Scenario bounds")
struct ScenarioBoundsTests {
    static func error(_ text: String) -> FileLineError? {
        do {
            _ = try Scenario.parse(text, file: "hostile.sim")
            return nil
        } catch let error as FileLineError {
            return error
        } catch {
            return nil
        }
    }

    @Test("ten 'hold 999999999s' lines: refused at the first, naming the limit (they overflowed the plan)")
    func longHolds() {
        let error = Self.error("device ec11\n" + String(repeating: "hold 999999999s\n", count: 10))
        #expect(error?.file == "hostile.sim")
        #expect(error?.line == 2)
    }

    @Test("holds that add up past 10 minutes are refused on the line that crosses the limit")
    func total() {
        let error = Self.error("device ec11\nhold 300s\nturn +100 at 1/s\nhold 300s\n")
        #expect(error?.line == 4)
        #expect(error?.problem.contains("10 minutes") == true)
    }

    @Test("friction 0.000001 with a flick, chatter 10000/s, jitter for 999999999s: each refused with its line")
    func memoryHungry() {
        #expect(Self.error("device ec11\nfriction 0.000001\nflick +10000/s\n")?.line == 2)
        #expect(Self.error("device ec11\nchatter 10000/s width 1ns..1ns\nhold 100s\n")?.line == 2)
        #expect(Self.error("device ec11\njitter 0.4 for 999999999s\n")?.line == 2)
    }

    @Test("'device ../../x' is refused: a scenario names a profile id, not a path")
    func devicePath() {
        let error = Self.error("device ../../x\nhold 1s\n")
        #expect(error?.line == 1)
        #expect(error?.problem.contains("profile id") == true)
    }

    @Test("the scenarios in hardware/ are within every limit")
    func examplesWithin() throws {
        for file in try Fixtures.files(in: "hardware/scenarios", ending: ".sim") {
            _ = try Fixtures.scenario(String(file.dropLast(4)))
        }
    }
}
