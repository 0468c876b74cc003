import FlywheelCore
import Testing
@testable import FlywheelFormats

@Suite("Edge log (.edges)")
struct EdgeLogTests {
    static let sample = """
        # flywheel-edges 1
        # name: two edges
        # notes: a test
        S: A=1 B=1
        E: 0.001000000 A 0
        E: 0.001000000 B 0
        E: 12.000000001 A 1

        """

    @Test("parses header, start levels and edges; simultaneous lines share a timestamp")
    func parse() throws {
        let log = try EdgeLog.parse(Array(Self.sample.utf8), file: "x.edges")
        #expect(log.name == "two edges")
        #expect(log.notes == "a test")
        #expect(log.trace.initial == QuadratureLevels(code: 3))
        #expect(log.trace.edges.map(\.timeNanoseconds) == [1_000_000, 1_000_000, 12_000_000_001])
        #expect(log.trace.samples.count == 2)
    }

    @Test("text() round-trips")
    func roundTrip() throws {
        let log = try EdgeLog.parse(Array(Self.sample.utf8), file: "x.edges")
        #expect(try EdgeLog.parse(Array(log.text().utf8), file: "y.edges") == log)
        #expect(log.text() == Self.sample)
        // Found by fuzz-EdgeLog: a note ending in "\r" before its newline made "\r\n" one Character, so
        // text() did not split there and the next note lost its '# notes:' prefix.
        let crlf = EdgeLog(name: "n", notes: "first\r\nsecond", trace: log.trace)
        let reread = try EdgeLog.parse(Array(crlf.text().utf8), file: "z.edges")
        #expect(reread.trace == log.trace)
        #expect(reread.notes?.hasSuffix("second") == true)
        // Loss lines (a full kernel buffer, with the levels read back) round-trip in time order.
        let lossy = EdgeLog(name: "l", trace: log.trace, marks: [EdgeLog.Mark(.readBack, timeNanoseconds: 0, levels: QuadratureLevels(code: 3), edgeIndex: 0), EdgeLog.Mark(.loss, timeNanoseconds: 0, levels: QuadratureLevels(code: 1), edgeIndex: 1)])
        #expect(try EdgeLog.parse(Array(lossy.text().utf8), file: "l.edges") == lossy)
        #expect(throws: FileLineError.self) { try EdgeLog.parse(Array("# flywheel-edges 1\nS: A=1 B=1\nL: 0.000000001 A=1\n".utf8), file: "m.edges") }
    }

    static let malformed: [(String, Int, String)] = [
        ("", 0, "expected '# flywheel-edges 1' but the file is empty"),
        ("# flywheel-edges 2\n", 1, "expected the first line to be '# flywheel-edges 1' but found '# flywheel-edges 2'"),
        ("# flywheel-edges 1\nE: 0.000000001 A 1\n", 2, "expected an 'S: A=<0|1> B=<0|1>' line before the first edge"),
        ("# flywheel-edges 1\nS: A=2 B=1\n", 2, "expected 'S: A=<0|1> B=<0|1>' but found 'S: A=2 B=1'"),
        ("# flywheel-edges 1\nS: A=1 B=1\nE: 0.5 A 1\n", 3, "expected a time as <seconds>.<nanoseconds, 9 digits> but found '0.5'"),
        ("# flywheel-edges 1\nS: A=1 B=1\nE: 0.000000001 C 1\n", 3, "expected the line name A or B but found 'C'"),
        ("# flywheel-edges 1\nS: A=1 B=1\nE: 0.000000001 A high\n", 3, "expected the level 0 or 1 but found 'high'"),
        ("# flywheel-edges 1\nS: A=1 B=1\nR: 0.000000002 A=1 B=1\nL: 0.000000001 A=1 B=1\n", 4,
         "expected times in order but '0.000000001' is earlier than the mark before"),
        ("# flywheel-edges 1\nS: A=1 B=1\nS: A=1 B=1\n", 3, "expected one start line but found a second 'S:' line"),
        ("# flywheel-edges 1\nhello\n", 2, "expected an 'S:', 'E:', 'R:', 'L:' or '#' line but found 'hello'"),
        ("# flywheel-edges 1\n# name: nothing\n", 0, "expected an 'S: A=<0|1> B=<0|1>' start line but found none"),
    ]

    @Test("malformed logs name the file, the line and what was expected", arguments: 0..<malformed.count)
    func errors(_ index: Int) {
        let (text, line, problem) = Self.malformed[index]
        #expect(throws: FileLineError(file: "bad.edges", line: line, problem: problem)) {
            try EdgeLog.parse(Array(text.utf8), file: "bad.edges")
        }
    }

    @Test("error descriptions are one sentence with the place first")
    func sentence() {
        let error = FileLineError(file: "bad.edges", line: 3, problem: "expected A or B but found 'C'")
        #expect(error.description == "bad.edges line 3: expected A or B but found 'C'.")
    }
}
