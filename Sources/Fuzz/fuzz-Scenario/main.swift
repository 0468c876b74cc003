// libFuzzer target: the .sim scenario reader, and a short simulation of what it accepts.
import FlywheelCore
import FlywheelSimulator

let profile = try! DeviceProfile.parse("""
    id = ec11
    name = fuzz encoder
    kind = encoder
    report = gpio
    detents_per_revolution = 20
    steps_per_detent = 4
    rest = 11
    bounce_toggles = 0..2
    bounce_window = 0.05ms..1ms
    buttons = BTN_0
    button_debounce = 5ms
    """, file: "fuzz.profile")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let scenario = try? Scenario.parse(text, file: "fuzz.sim") else { return 0 }
    // Keep each run short: every input is parsed; only scenarios of a few seconds are also simulated.
    func cheap(_ gesture: Gesture) -> Bool {
        switch gesture {
        case .turn(let detents, let speed): return Double(abs(detents)) / speed <= 2
        case .flick(let velocity): return abs(velocity) <= 200
        case .hold(let nanoseconds), .jitter(_, let nanoseconds): return nanoseconds <= 2_000_000_000
        case .wiggle(_, let speed): return speed >= 0.5
        case .press, .release: return true
        }
    }
    guard scenario.steps.count <= 8, scenario.steps.allSatisfy({ cheap($0.gesture) }), let simulation = try? Simulation(scenario: scenario, profile: profile) else { return 0 }
    let result = simulation.run()
    guard result.endNanoseconds < 60_000_000_000, result.contactTrace.edges.count < 100_000 else { return 0 }
    var decoder = QuadratureDecoder(stepsPerDetent: .four, initial: result.contactTrace.initial, rest: profile.rest)
    decoder.decode(result.contactTrace.samples)
    return 0
}
