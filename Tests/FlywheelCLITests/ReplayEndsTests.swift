import FlywheelCore
import Glibc
import Testing

/// `flywheel replay` always ends (issue 45): a scenario that ends with a repeating button held
/// down removes its device at its end, which stops the repeat, as a device unplugged does.
@Suite("flywheel replay ends")
struct ReplayEndsTests {
    /// Replays `scenario` with `config`; the messages.
    static func replay(scenario: String, config: String) throws -> (status: Int32, messages: [JSONValue], err: String) {
        var template = Array("/tmp/flywheel-replay-ends-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        defer {
            unlink(directory + "/held.sim")
            unlink(directory + "/flywheel.json5")
            rmdir(directory)
        }
        RepositoryPaths.write(scenario, to: directory + "/held.sim")
        RepositoryPaths.write(config, to: directory + "/flywheel.json5")
        let run = ToolRun.run([
            "replay", directory + "/held.sim", "--config", directory + "/flywheel.json5", "--hardware", RepositoryPaths.path("hardware"),
        ])
        return (run.status, try run.out.split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)) }, run.err)
    }

    @Test("a ShuttleXpress's navigate+ button held to the scenario's end: 18 steps (the press, then 0.5 s … 2.1 s), the device removed, the replay over")
    func heldToTheEnd() throws {
        let run = try Self.replay(
            scenario: "device shuttlexpress\nbounce off\nhold 100ms\npress BTN_4\nhold 2s\n", config: "{ controls: { buttons: { BTN_4: 'navigate+' } } }")
        #expect(run.status == 0, "\(run.err)")
        let steps = run.messages.filter { $0["class"]?.stringValue == "navigate" }
        #expect(steps.count == 18, "\(steps.count)")
        let last = run.messages.last
        #expect(last?["class"]?.stringValue == "device" && last?["action"]?.stringValue == "removed", "\(String(describing: last))")
        // The end comes at the scenario's end, after the last repeat and within one interval of it.
        let end = last?["time"]?.doubleValue ?? 0, lastStep = steps.last?["time"]?.doubleValue ?? 0
        #expect(end >= 2.1 && lastStep <= end && end - lastStep < 0.1, "the last step at \(lastStep), the end at \(end)")
    }
}
