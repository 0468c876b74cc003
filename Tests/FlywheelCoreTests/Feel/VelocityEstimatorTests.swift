import FlywheelSimulator
import Testing
@testable import FlywheelCore

/// The release velocity's fit: a steady hand measures its speed, and the window kept by moving a
/// start index (old samples dropped in one go) answers exactly as dropping each one at once did.
@Suite("Velocity estimator")
struct VelocityEstimatorTests {
    /// The estimator as it was written before it kept a start index: old samples removed from the
    /// front of the array at every sample.
    struct Reference {
        var windowNanoseconds: Nanoseconds
        var stalenessNanoseconds: Nanoseconds
        var samples: [VelocityEstimator.Sample] = []

        mutating func add(_ position: Double, at time: Nanoseconds) {
            samples.append(VelocityEstimator.Sample(timeNanoseconds: time, position: position))
            let cutoff = time - windowNanoseconds
            if let first = samples.firstIndex(where: { $0.timeNanoseconds >= cutoff }), first > 0 { samples.removeFirst(first) }
        }

        mutating func replaceNewest(with position: Double) {
            guard !samples.isEmpty else { return }
            samples[samples.count - 1].position = position
        }

        func velocity(atRelease release: Nanoseconds) -> Double {
            guard let newest = samples.last, release - newest.timeNanoseconds <= stalenessNanoseconds else { return 0 }
            let cutoff = release - windowNanoseconds
            let window = samples.filter { $0.timeNanoseconds >= cutoff }
            guard window.count >= 3 else { return 0 }
            let times = window.map { Double($0.timeNanoseconds - newest.timeNanoseconds) / 1e9 }
            let n = Double(window.count)
            let meanT = times.reduce(0, +) / n, meanX = window.map(\.position).reduce(0, +) / n
            var sxx = 0.0, sxy = 0.0
            for (t, sample) in zip(times, window) {
                sxx += (t - meanT) * (t - meanT)
                sxy += (t - meanT) * (sample.position - meanX)
            }
            return sxx > 0 ? sxy / sxx : 0
        }
    }

    @Test("a hand turning at 50 detents a second measures 50; one that stopped, or too few samples, 0")
    func steadyHand() {
        var estimator = VelocityEstimator()
        for step in 0..<20 { estimator.add(Double(step), at: Nanoseconds(step) * 20_000_000) }
        #expect(abs(estimator.velocity(atRelease: 380_000_000) - 50) < 1e-9)
        #expect(estimator.samples.count == 6)  // the 100 ms window's: 280 to 380 ms
        #expect(estimator.velocity(atRelease: 380_000_000 + 41_000_000) == 0)  // stale: the hand had stopped
        var slow = VelocityEstimator()
        for step in 0..<20 { slow.add(Double(step), at: Nanoseconds(step) * 100_000_000) }
        #expect(slow.velocity(atRelease: 1_900_000_000) == 0)  // two samples in the window: too few
    }

    @Test("samples, velocities and equality are the plain window's, bit for bit, over long seeded hands")
    func matchesThePlainWindow() {
        var random = SplitMix64(seed: 41)
        var compared = 0
        for hand in 0..<300 {
            // Windows of the configuration's range, and a zero one; staleness likewise.
            let window = [0, 5_000_000, 40_000_000, 100_000_000, 400_000_000][hand % 5]
            let staleness = Nanoseconds([0, 40_000_000, 250_000_000][hand % 3])
            var estimator = VelocityEstimator(windowNanoseconds: Nanoseconds(window), stalenessNanoseconds: staleness)
            var reference = Reference(windowNanoseconds: Nanoseconds(window), stalenessNanoseconds: staleness)
            var time: Nanoseconds = Nanoseconds(random.next() % 1_000_000_000)
            var position = 0.0
            for _ in 0..<(200 + Int(random.next() % 400)) {  // far more than 32 samples dropped
                switch random.next() % 20 {
                case 0:
                    estimator.reset()
                    reference.samples.removeAll()
                case 1:
                    position += 0.5
                    estimator.replaceNewest(with: position)
                    reference.replaceNewest(with: position)
                default:
                    // Steps 0 to 60 ms apart (equal times included), forwards and back.
                    time += Nanoseconds(random.next() % 60_000_001) * (random.next() % 8 == 0 ? 0 : 1)
                    position += random.next() % 5 == 0 ? -1 : 1
                    estimator.add(position, at: time)
                    reference.add(position, at: time)
                }
                let release = time + Nanoseconds(random.next() % 60_000_000)
                #expect(estimator.samples == reference.samples)
                #expect(estimator.velocity(atRelease: release).bitPattern == reference.velocity(atRelease: release).bitPattern)
                compared += 1
                if estimator.samples != reference.samples { return }
            }
            // Equal and hashed alike when they hold the same samples, however many were dropped.
            var fresh = VelocityEstimator(windowNanoseconds: Nanoseconds(window), stalenessNanoseconds: staleness)
            for sample in estimator.samples { fresh.add(sample.position, at: sample.timeNanoseconds) }
            if fresh.samples == estimator.samples {
                #expect(fresh == estimator)
                #expect(fresh.hashValue == estimator.hashValue)
            }
        }
        #expect(compared > 60_000)
    }
}
