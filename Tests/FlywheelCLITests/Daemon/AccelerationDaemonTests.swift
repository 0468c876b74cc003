import FlywheelCore
import Glibc
import Testing

/// Issue 34's "done when": with the default configuration an EC11 turned fast moves the tempo by
/// at least three times what the same 24 detents turned slowly move, the slow turn moves exactly
/// 24, and a running flywheeld sends the same as `flywheel replay`.
@Suite("flywheeld: acceleration while the hand turns", .serialized)
struct AccelerationDaemonTests {
    /// `turn +24 at RATE/s` on an ec11 from 120 BPM, and time to settle.
    static func scenario(rate: Int) -> String {
        var template = Array("/tmp/flywheel-accel-XXXXXX".utf8CString)
        let path = String(cString: mkdtemp(&template)!) + "/turn-\(rate).sim"
        RepositoryPaths.write("device ec11\nseed 7\nturn +24 at \(rate)/s\nhold 3s\n", to: path)
        return path
    }

    /// The BPM the last tempo message of `lines` settles on.
    static func settledBPM(_ lines: [String]) throws -> Int {
        let last = try #require(lines.last { $0.contains(#""class":"tempo""#) && $0.contains(#""phase":"settled""#) })
        let message = try JSONParser.parse(Array(last.utf8))
        return try #require(message["bpm"]?.doubleValue.map { Int($0) })
    }

    @Test("turn +24 at 40/s moves the tempo at least 3× turn +24 at 3/s, which moves exactly 24; replay equals the socket")
    func fastAndSlow() throws {
        let slow = try ReplayAndSocket.run(Self.scenario(rate: 3))
        let fast = try ReplayAndSocket.run(Self.scenario(rate: 40))
        for run in [slow, fast] {
            #expect(ReplayMatchesSocketTests.normalisedStream(run.replay) == ReplayMatchesSocketTests.normalisedStream(run.socket))
            #expect(try Self.settledBPM(run.socket) == Self.settledBPM(run.replay))
        }
        let slowMoved = try Self.settledBPM(slow.replay) - 120
        let fastMoved = try Self.settledBPM(fast.replay) - 120
        #expect(slowMoved == 24, "the slow turn is one BPM a detent")
        #expect(slow.replay.filter { $0.contains(#""phase":"moved""#) }.count == 24)
        #expect(fastMoved >= 3 * slowMoved, "the fast spin moved \(fastMoved) BPM, the slow turn \(slowMoved)")
    }
}
