import FlywheelCore

/// One row of a motion plot.
struct MotionSample {
    var seconds: Double
    var position: Double
    var velocity: Double
    var detent: Int
}

/// Renders a motion as CSV or as an SVG a person tunes the feel by: position and velocity over
/// time, with a line at every detent the motion passes labelled in the control's units (`scale`),
/// and the velocity on its own axis, zero marked.
enum MotionPlot {
    static func csv(_ samples: [MotionSample], scale: PlotScale) -> String {
        var out = "t,position,velocity,detent,\(scale.column)\n"
        for sample in samples {
            out += "\(fixed(sample.seconds, 6)),\(fixed(sample.position, 6)),\(fixed(sample.velocity, 6)),\(sample.detent),"
                + "\(fixed(scale.value(Double(sample.detent)), 3))\n"
        }
        return out
    }

    static func svg(_ samples: [MotionSample], title: String, scale: PlotScale) -> String {
        let width = 800.0, height = 420.0
        let left = 60.0, right = 60.0, top = 40.0, bottom = 50.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let duration = max(samples.last?.seconds ?? 1, 1e-3)
        let positions = samples.map(\.position)
        var low = (positions.min() ?? 0).rounded(.down), high = (positions.max() ?? 1).rounded(.up)
        if high - low < 1 { high = low + 1 }
        let velocities = samples.map { abs($0.velocity) }
        let vMax = max(velocities.max() ?? 1, 1e-9)
        func x(_ t: Double) -> Double { left + t / duration * plotWidth }
        func yPosition(_ p: Double) -> Double { top + (high - p) / (high - low) * plotHeight }
        func yVelocity(_ v: Double) -> Double { top + plotHeight / 2 - v / vMax * plotHeight / 2 }

        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="24" font-size="15">\(escape(title))</text>

            """
        // Detent lines, labelled on the left in the control's units (none past the content's ends,
        // where the daemon's scrubber stops).
        let step = max(1.0, ((high - low) / 20).rounded(.up))
        var detent = low
        svg += "<text x=\"\(left - 8)\" y=\"\(top - 8)\" text-anchor=\"end\" fill=\"#2060c0\">\(escape(scale.unit))</text>\n"
        while detent <= high {
            let y = fixed(yPosition(detent), 2)
            svg += "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(left + plotWidth)\" y2=\"\(y)\" stroke=\"#ddd\"/>"
            if scale.limits.contains(detent) {
                svg += "<text x=\"\(left - 8)\" y=\"\(y)\" text-anchor=\"end\" dominant-baseline=\"middle\" fill=\"#666\">\(escape(scale.label(scale.value(detent))))</text>"
            }
            svg += "\n"
            detent += step
        }
        // The velocity's own axis on the right: its peak either way and its zero, with a line.
        let zero = fixed(yVelocity(0), 2)
        svg += "<line x1=\"\(left)\" y1=\"\(zero)\" x2=\"\(left + plotWidth)\" y2=\"\(zero)\" stroke=\"#e08020\" stroke-opacity=\"0.4\" stroke-dasharray=\"2 4\"/>\n"
        svg += "<text x=\"\(left + plotWidth + 8)\" y=\"\(top - 8)\" fill=\"#e08020\">detents/s</text>\n"
        for v in [vMax, 0, -vMax] {
            let label = v == 0 ? "0" : (v > 0 ? "+" : "−") + fixed(abs(v), 1)
            svg += "<text x=\"\(left + plotWidth + 8)\" y=\"\(fixed(yVelocity(v), 2))\" dominant-baseline=\"middle\" fill=\"#e08020\">\(label)</text>\n"
        }
        // Time axis.
        svg += "<line x1=\"\(left)\" y1=\"\(top + plotHeight)\" x2=\"\(left + plotWidth)\" y2=\"\(top + plotHeight)\" stroke=\"#999\"/>\n"
        for tick in 0...5 {
            let t = duration * Double(tick) / 5
            svg += "<text x=\"\(fixed(x(t), 2))\" y=\"\(top + plotHeight + 18)\" text-anchor=\"middle\" fill=\"#666\">\(fixed(t, 2)) s</text>\n"
        }
        func path(_ point: (MotionSample) -> (Double, Double)) -> String {
            samples.enumerated().map { index, sample in
                let (px, py) = point(sample)
                return (index == 0 ? "M" : "L") + fixed(px, 2) + " " + fixed(py, 2)
            }.joined(separator: " ")
        }
        svg += "<path d=\"\(path { (x($0.seconds), yVelocity($0.velocity)) })\" fill=\"none\" stroke=\"#e08020\" stroke-width=\"1.5\"/>\n"
        svg += "<path d=\"\(path { (x($0.seconds), yPosition($0.position)) })\" fill=\"none\" stroke=\"#2060c0\" stroke-width=\"2\"/>\n"
        // Reported detent as a step line.
        var steps = ""
        var last: Int?
        for sample in samples {
            let y = fixed(yPosition(Double(sample.detent)), 2)
            if last == nil { steps += "M\(fixed(x(sample.seconds), 2)) \(y)" } else if last != sample.detent {
                steps += " L\(fixed(x(sample.seconds), 2)) \(fixed(yPosition(Double(last!)), 2)) L\(fixed(x(sample.seconds), 2)) \(y)"
            }
            last = sample.detent
        }
        if let final = samples.last { steps += " L\(fixed(x(final.seconds), 2)) \(fixed(yPosition(Double(final.detent)), 2))" }
        svg += "<path d=\"\(steps)\" fill=\"none\" stroke=\"#20a050\" stroke-width=\"1\" stroke-dasharray=\"4 3\"/>\n"
        // Legend.
        let legendY = height - 14
        svg += "<text x=\"\(left)\" y=\"\(legendY)\" fill=\"#2060c0\">position (a line a detent, left axis)</text>"
        svg += "<text x=\"\(left + 250)\" y=\"\(legendY)\" fill=\"#20a050\">reported detent</text>"
        svg += "<text x=\"\(left + 380)\" y=\"\(legendY)\" fill=\"#e08020\">velocity (right axis)</text>\n"
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
