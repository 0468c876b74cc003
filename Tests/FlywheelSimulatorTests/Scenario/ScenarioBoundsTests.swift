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
        #expect(error?.problem.contains("exceeds the scenario limit of 10 minutes") == true)
    }

    @Test("'hold 601s' and 'jitter … for 999999999s' name the 10-minute limit, not the grammar")
    func longDurationsNameTheLimit() {
        for line in ["hold 601s", "hold 999999999s", "jitter 0.4 for 999999999s", "jitter 0.1 for 601s"] {
            let error = Self.error("device ec11\n\(line)\n")
            #expect(error?.line == 2)
            #expect(error?.problem == "'\(line)' exceeds the scenario limit of 10 minutes")
        }
    }

    @Test("'turn +1000000 at 10000/s' (701 MB before) is refused on its line, naming the 100,000-detent limit")
    func longTurn() {
        let error = Self.error("device ec11\nturn +1000000 at 10000/s\n")
        #expect(error?.line == 2)
        #expect(error?.problem.contains("scenario limit of 100,000 detents") == true)
        // The most negative whole number has no absolute value: refused, not a trap.
        #expect(Self.error("device ec11\nturn -9223372036854775808 at 10/s\n")?.line == 2)
    }

    @Test("20 flicks at 10000/s with friction 0.1 (1842 s simulated, 1.35 GB before): the second crosses the detent limit")
    func farFlicks() {
        let error = Self.error("device ec11\nfriction 0.1\n" + String(repeating: "flick +10000/s\n", count: 20))
        #expect(error?.line == 4)
        #expect(error?.problem.contains("scenario limit of 100,000 detents") == true)
    }

    @Test("a flick's coast counts toward the 10 minutes: ln(100)/0.1 s = 46 s each, the 14th crosses")
    func flickCoastTime() {
        let flicks = "device ec11\nfriction 0.1\n" + String(repeating: "flick +100/s\n", count: 14)
        let error = Self.error(flicks)
        #expect(error?.line == 16)
        #expect(error?.problem.contains("10 minutes") == true)
        #expect(Self.error("device ec11\nfriction 0.1\n" + String(repeating: "flick -100/s\n", count: 13)) == nil)
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
