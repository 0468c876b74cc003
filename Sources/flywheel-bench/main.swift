// flywheel-bench: measurements run on demand (never part of the tests). Each prints JSON lines.
//
//   flywheel-bench decode [SAMPLES] [ROUNDS]   pure decoding of an in-memory array of level codes,
//                                              the same random walk as Tests/Benchmarks/table_decoder.c
//   flywheel-bench physics [CALLS]             one state evaluation and one next-deadline computation of
//                                              a released knob's motion (coast + spring), in ns per call
import FlywheelCore
import Glibc

func seconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func decodeBenchmark(samples: Int, rounds: Int) {
    var codes = [UInt8](repeating: 0, count: samples)
    var state: UInt64 = 0x2545F4914F6CDD1D
    var phase = 2
    for i in 0..<samples {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        phase += (state >> 62) == 0 ? -1 : 1
        codes[i] = QuadratureLevels.atPhase(phase).code
    }
    var best = Double.infinity
    var decoder = QuadratureDecoder(stepsPerDetent: .four, initial: QuadratureLevels(code: 3))
    for _ in 0..<rounds {
        decoder = QuadratureDecoder(stepsPerDetent: .four, initial: QuadratureLevels(code: 3))
        let start = seconds()
        codes.withUnsafeBufferPointer { decoder.count(codes: $0) }
        best = min(best, seconds() - start)
    }
    let line = JSONValue.object([
        ("decoder", .string("flywheel")), ("samples", .int(samples)), ("quarter_steps", .int(decoder.quarterSteps.count)),
        ("valid", .int(decoder.validTransitions)), ("invalid", .int(decoder.invalidTransitions)),
        ("detents", .int(decoder.detents.count)), ("seconds", .double(best)),
        ("edges_per_second", .double((Double(samples) / best).rounded())),
    ])
    print(line.encoded())
}

/// Times `calls` evaluations over a flick's whole motion (times spread over it), best of 5 rounds.
func physicsBenchmark(calls: Int) {
    let motion = Motion(releasedAt: 0, position: 0.3, velocity: 30, reportedDetent: 0)
    let span = Double(motion.settleNanoseconds)
    func measure(_ body: (Nanoseconds) -> Double) -> (nanoseconds: Double, checksum: Double) {
        var best = Double.infinity
        var checksum = 0.0
        for _ in 0..<5 {
            checksum = 0
            let start = seconds()
            for i in 0..<calls { checksum += body(Nanoseconds(span * Double(i % 1000) / 1000)) }
            best = min(best, seconds() - start)
        }
        return (best / Double(calls) * 1e9, checksum)
    }
    let state = measure { motion.state(at: $0).position }
    let deadline = measure { Double(motion.nextDeadline(after: $0) ?? 0) }
    print(JSONValue.object([
        ("benchmark", .string("physics")), ("calls", .int(calls)), ("target", .int(motion.target)),
        ("state_ns", .double((state.nanoseconds * 10).rounded() / 10)), ("next_deadline_ns", .double((deadline.nanoseconds * 10).rounded() / 10)),
        ("checksum", .double(state.checksum + deadline.checksum)),
    ]).encoded())
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "decode":
    let samples = arguments.count > 1 ? Int(arguments[1]) ?? 50_000_000 : 50_000_000
    let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
    decodeBenchmark(samples: samples, rounds: rounds)
case "physics":
    physicsBenchmark(calls: arguments.count > 1 ? Int(arguments[1]) ?? 2_000_000 : 2_000_000)
default:
    print("usage: flywheel-bench decode [SAMPLES] [ROUNDS] | physics [CALLS]")
    exit(2)
}
