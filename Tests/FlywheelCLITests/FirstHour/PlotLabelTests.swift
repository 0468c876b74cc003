@testable import FlywheelCLI
import FlywheelCore
import Testing

/// Every label of `flywheel plot`'s SVG stays inside its canvas and clear of every other label: the
/// title, the axes' units above the plot and their ticks, the time axis and the legend. A new user
/// found the title and the right axis's "detents/s" cut at the edge and the units on the top ticks.
@Suite("plot's labels inside the canvas, none on another")
struct PlotLabelTests {
    /// One `<text>` element: where it is anchored, how it is aligned, its size and what it says.
    struct Text: CustomStringConvertible {
        var x: Double
        var y: Double
        var anchor: String
        var baseline: String
        var fontSize: Double
        var content: String

        /// The box the text fills, estimated from its characters: 0.6 × the font size a character
        /// (a sans-serif face's average advance), 0.8 of the size above the baseline and 0.25 below
        /// (centred on `y` for `dominant-baseline="middle"`).
        var box: (left: Double, top: Double, right: Double, bottom: Double) {
            let width = 0.6 * fontSize * Double(content.count)
            let left = anchor == "middle" ? x - width / 2 : anchor == "end" ? x - width : x
            let top = baseline == "middle" ? y - 0.525 * fontSize : y - 0.8 * fontSize
            return (left, top, left + width, top + 1.05 * fontSize)
        }

        var description: String { "'\(content)' at (\(x), \(y)) \(anchor) \(baseline)" }

        func overlaps(_ other: Text) -> Bool {
            let a = box, b = other.box
            return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom
        }
    }

    /// The value of `name="…"` in an element's opening tag.
    static func attribute(_ name: String, in tag: Substring) -> String? {
        guard let start = tag.firstRange(of: " \(name)=\"") else { return nil }
        let rest = tag[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// The SVG's size and its texts, each with the root's font size unless it has its own.
    static func texts(_ svg: String) throws -> (width: Double, height: Double, texts: [Text]) {
        let root = try #require(svg.firstRange(of: "<svg ").map { svg[$0.lowerBound...].prefix { $0 != ">" } })
        let width = try #require(attribute("width", in: root).flatMap(Double.init))
        let height = try #require(attribute("height", in: root).flatMap(Double.init))
        let rootSize = try #require(attribute("font-size", in: root).flatMap(Double.init))
        var texts: [Text] = []
        for piece in svg.components(separatedBy: "<text ").dropFirst() {
            let tag = piece.prefix { $0 != ">" }
            let body = piece.dropFirst(tag.count + 1)
            let content = try #require(body.firstRange(of: "</text>").map { body[..<$0.lowerBound] })
            texts.append(Text(
                x: try #require(attribute("x", in: " " + tag).flatMap(Double.init)),
                y: try #require(attribute("y", in: " " + tag).flatMap(Double.init)),
                anchor: attribute("text-anchor", in: " " + tag) ?? "start",
                baseline: attribute("dominant-baseline", in: " " + tag) ?? "alphabetic",
                fontSize: attribute("font-size", in: " " + tag).flatMap(Double.init) ?? rootSize,
                content: String(content).replacingAll("&lt;", "<").replacingAll("&gt;", ">").replacingAll("&amp;", "&")))
        }
        return (width, height, texts)
    }

    /// Checks every text of `svg` is inside the canvas and on no other.
    static func checkLabels(_ svg: String) throws {
        let (width, height, texts) = try Self.texts(svg)
        #expect(texts.count >= 10, "\(texts)")
        for text in texts {
            let box = text.box
            #expect(box.left >= 0 && box.right <= width && box.top >= 0 && box.bottom <= height, "\(text) is outside \(width)×\(height): \(box)")
        }
        for (index, text) in texts.enumerated() {
            for other in texts[(index + 1)...] where text.overlaps(other) {
                Issue.record("\(text) overlaps \(other)")
            }
        }
    }

    @Test("plots of the scrub and the tempo, long and short, keep every label in the canvas and off the others", arguments: [
        ["plot", "--flick", "30", "--from", "0"],  // the README's, the golden's
        ["plot", "--flick", "30", "--control", "tempo", "--from", "120"],
        ["plot", "--flick", "-12", "--from", "20", "--damping", "snappy"],
        ["plot", "--flick", "60", "--control", "tempo", "--from", "20", "--acceleration", "strong", "--turn", "40"],
        ["plot", "--flick", "1", "--control", "tempo", "--from", "300"],
        // A long title: the longest scrub, numbers of every option's widest.
        ["plot", "--flick", "-999999.9", "--duration", "999999.9", "--from", "999999.9", "--friction", "ios-normal", "--damping", "1.999",
         "--response", "1.999", "--acceleration", "strong", "--turn", "999999.9"],
    ])
    func labelsInside(_ arguments: [String]) throws {
        let run = ToolRun.run(arguments + ["--format", "svg"])
        #expect(run.status == 0, "\(run.err)")
        try Self.checkLabels(run.out)
    }

    @Test("a title longer than the canvas is wrapped onto more lines, and a word longer than a line is shortened")
    func longTitle() throws {
        let scale = try PlotScale.tempo(fromBPM: 120)
        let samples = (0...240).map { MotionSample(seconds: Double($0) / 240, position: 100 + Double($0) / 24, velocity: 10 - Double($0) / 24, detent: 100 + $0 / 24) }
        let title = "tempo: a title of many words, " + String(repeating: "each of them a word the plot must wrap ", count: 6)
            + "· " + String(repeating: "x", count: 300) + " · friction 4.00/s"
        let svg = MotionPlot.svg(samples, title: title, scale: scale)
        try Self.checkLabels(svg)
        let titles = try Self.texts(svg).texts.filter { $0.fontSize > 12 }
        #expect(titles.count >= 4, "\(titles)")
        #expect(titles.contains { $0.content.hasSuffix("…") }, "\(titles)")
        // Nothing of the words is lost but the shortened one's tail.
        #expect(titles.map(\.content).joined(separator: " ").contains("each of them a word the plot must wrap each of them"))
    }
}
