import FlywheelCore

/// One row of a motion plot.
struct MotionSample {
    var seconds: Double
    var position: Double
    var velocity: Double
    var detent: Int
}

/// Renders a motion as CSV or as an SVG a person tunes the feel by: position and velocity over
/// time, with lines at the detents the motion passes (every one, or every few on a long coast)
/// labelled in the control's units (`scale`), and the velocity on its own axis, zero marked.
enum MotionPlot {
    static func csv(_ samples: [MotionSample], scale: PlotScale) -> String {
        var out = "t,position,velocity,detent,\(scale.column)\n"
        for sample in samples {
            out += "\(fixed(sample.seconds, 6)),\(fixed(sample.position, 6)),\(fixed(sample.velocity, 6)),\(sample.detent),"
                + "\(fixed(scale.value(Double(sample.detent)), 3))\n"
        }
        return out
    }

    /// The SVG: detent lines, the velocity's zero and the time axis, the velocity, the position and
    /// the reported detent, and the labels, where ``PlotLayout`` puts them.
    static func svg(_ samples: [MotionSample], title: String, scale: PlotScale) -> String {
        let layout = PlotLayout(samples, title: title, scale: scale)
        let width = Int(PlotLayout.widthPixels), height = Int(layout.heightPixels)
        let left = fixed(layout.left, 1), right = fixed(layout.right, 1)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" font-family="sans-serif" font-size="\(fixed(PlotLabel.axisFontSizePixels, 0))">
            <rect width="100%" height="100%" fill="white"/>

            """
        for detent in layout.detentLines {
            let y = fixed(layout.y(detents: detent), 2)
            svg += "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(right)\" y2=\"\(y)\" stroke=\"#ddd\"/>\n"
        }
        let zero = fixed(layout.y(detentsPerSecond: 0), 2)
        svg += "<line x1=\"\(left)\" y1=\"\(zero)\" x2=\"\(right)\" y2=\"\(zero)\" stroke=\"#e08020\" stroke-opacity=\"0.4\" stroke-dasharray=\"2 4\"/>\n"
        let bottom = fixed(layout.bottom, 1)
        svg += "<line x1=\"\(left)\" y1=\"\(bottom)\" x2=\"\(right)\" y2=\"\(bottom)\" stroke=\"#999\"/>\n"
        func x(_ sample: MotionSample) -> String { fixed(layout.x(seconds: sample.seconds), 2) }
        func path(_ y: (MotionSample) -> Double) -> String {
            samples.enumerated().map { index, sample in (index == 0 ? "M" : "L") + x(sample) + " " + fixed(y(sample), 2) }.joined(separator: " ")
        }
        svg += "<path d=\"\(path { layout.y(detentsPerSecond: $0.velocity) })\" fill=\"none\" stroke=\"#e08020\" stroke-width=\"1.5\"/>\n"
        svg += "<path d=\"\(path { layout.y(detents: $0.position) })\" fill=\"none\" stroke=\"#2060c0\" stroke-width=\"2\"/>\n"
        // Reported detent as a step line.
        var steps = ""
        var last: Int?
        for sample in samples {
            let y = fixed(layout.y(detents: Double(sample.detent)), 2)
            if last == nil { steps += "M\(x(sample)) \(y)" } else if last != sample.detent {
                steps += " L\(x(sample)) \(fixed(layout.y(detents: Double(last!)), 2)) L\(x(sample)) \(y)"
            }
            last = sample.detent
        }
        if let final = samples.last { steps += " L\(x(final)) \(fixed(layout.y(detents: Double(final.detent)), 2))" }
        svg += "<path d=\"\(steps)\" fill=\"none\" stroke=\"#20a050\" stroke-width=\"1\" stroke-dasharray=\"4 3\"/>\n"
        for label in layout.labels { svg += label.svg + "\n" }
        svg += "</svg>\n"
        return svg
    }

    static func escape(_ text: String) -> String {
        text.replacingAll("&", "&amp;").replacingAll("<", "&lt;").replacingAll(">", "&gt;")
    }

    /// A fixed-point decimal without Foundation's String(format:).
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        var fraction = String(Int(scaled - Double(whole) * scale))
        fraction = String(repeating: "0", count: max(0, digits - fraction.count)) + fraction
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return digits == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
