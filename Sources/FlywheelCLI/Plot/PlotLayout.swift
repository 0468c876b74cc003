/// Where everything of a motion plot goes: the axes' ranges, the plot area and every label, its
/// margins made from the labels it places (``PlotLabel`` estimates their boxes). Top down: the
/// title wrapped to the width, the axes' units in a row of their own above the plot (clear of the
/// top tick labels), the plot with its detent labels on the left and the velocity's on the right,
/// the time axis's labels and the legend's rows; each label inside the canvas and off the others.
struct PlotLayout {
    /// The canvas's width, in pixels.
    static let widthPixels = 800.0
    /// The plot area's height, in pixels.
    static let plotHeightPixels = 320.0
    /// The room left between every label and the canvas's edge, in pixels.
    static let edgePixels = 8.0
    /// From an axis to its labels, in pixels.
    static let axisGapPixels = 8.0
    /// Between two rows of labels (a tick's and a unit's, the time's and the legend's), in pixels.
    static let rowGapPixels = 4.0
    /// The most detent lines.
    static let maximumDetentLines = 20

    /// The canvas's height, in pixels: as much as the title's lines and the legend's rows need.
    private(set) var heightPixels = 0.0
    /// The plot area's edges, in pixels.
    let left: Double, right: Double, top: Double, bottom: Double
    /// The plot's time, in seconds, and its position axis, in detents.
    let durationSeconds: Double, lowDetent: Double, highDetent: Double
    /// The velocity axis's reach either way, in detents per second.
    let peakDetentsPerSecond: Double
    /// The detents with a line.
    let detentLines: [Double]
    /// Every label.
    private(set) var labels: [PlotLabel] = []

    init(_ samples: [MotionSample], title: String, scale: PlotScale) {
        let width = Self.widthPixels, edge = Self.edgePixels, gap = Self.axisGapPixels
        let duration = max(samples.last?.seconds ?? 1, 1e-3), peak = max(samples.map { abs($0.velocity) }.max() ?? 1, 1e-9)
        (durationSeconds, peakDetentsPerSecond) = (duration, peak)
        let positions = samples.map(\.position)
        var low = (positions.min() ?? 0).rounded(.down), high = (positions.max() ?? 1).rounded(.up)
        if high - low < 1 { high = low + 1 }
        (lowDetent, highDetent) = (low, high)
        // Detent lines, no closer than a tick label's height, labelled on the left in the control's
        // units (none past the content's ends, where the daemon's scrubber stops).
        let closest = Int(Self.plotHeightPixels / (PlotLabel.height() + 2))
        let step = max(1.0, ((high - low) / Double(min(Self.maximumDetentLines, closest))).rounded(.up))
        detentLines = Array(stride(from: low, through: high, by: step))
        let detentLabels = detentLines.map { scale.limits.contains($0) ? scale.label(scale.value($0)) : nil }
        let velocityLabels = [peak, 0, -peak].map { v in
            v == 0 ? "0" : (v > 0 ? "+" : "−") + MotionPlot.fixed(abs(v), 1)
        }
        let timeLabels = (0...5).map { "\(MotionPlot.fixed(duration * Double($0) / 5, 2)) s" }
        let velocityUnit = "detents/s"

        // The margins: the left holds the widest detent label (or the unit above them), the right
        // the widest velocity label (or its unit); the time axis's first and last labels are centred
        // on the plot's corners.
        let leftWidth = max(detentLabels.compactMap { $0 }.map { PlotLabel.width(of: $0) }.max() ?? 0, PlotLabel.width(of: scale.unit))
        let rightWidth = max(velocityLabels.map { PlotLabel.width(of: $0) }.max() ?? 0, PlotLabel.width(of: velocityUnit))
        left = max(edge + leftWidth + gap, edge + PlotLabel.width(of: timeLabels[0]) / 2)
        right = width - max(gap + rightWidth + edge, edge + PlotLabel.width(of: timeLabels[5]) / 2)
        for (index, line) in PlotTitle.lines(title, fittingPixels: width - 2 * edge).enumerated() {
            labels.append(PlotLabel.below(
                edge + Double(index) * PlotTitle.lineHeightPixels, text: line, x: edge, fontSizePixels: PlotTitle.fontSizePixels, fill: "#000"))
        }
        let unitsTop = (labels.last?.bottom ?? edge) + gap
        top = unitsTop + PlotLabel.height() + Self.rowGapPixels + PlotLabel.height() / 2
        bottom = top + Self.plotHeightPixels

        labels.append(PlotLabel.below(unitsTop, text: scale.unit, x: left - gap, anchor: .end, fill: "#2060c0"))
        labels.append(PlotLabel.below(unitsTop, text: velocityUnit, x: right + gap, fill: "#e08020"))
        for (detent, label) in zip(detentLines, detentLabels) {
            guard let label else { continue }
            labels.append(PlotLabel(text: label, x: left - gap, baseline: PlotLabel.baseline(centredOn: y(detents: detent)), anchor: .end, fill: "#666"))
        }
        for (v, label) in zip([peak, 0, -peak], velocityLabels) {
            labels.append(PlotLabel(text: label, x: right + gap, baseline: PlotLabel.baseline(centredOn: y(detentsPerSecond: v)), fill: "#e08020"))
        }
        // The time axis's labels, clear of the lowest tick labels.
        let timeTop = bottom + PlotLabel.height() / 2 + Self.rowGapPixels
        for (tick, label) in timeLabels.enumerated() {
            labels.append(PlotLabel.below(timeTop, text: label, x: x(seconds: duration * Double(tick) / 5), anchor: .middle, fill: "#666"))
        }
        // The legend, its entries side by side from the plot's left, on a new row when the width is used up.
        let legend = [
            ("position (\(step == 1 ? "a line a detent" : "a line every \(MotionPlot.fixed(step, 0)) detents"), left axis)", "#2060c0"),
            ("reported detent", "#20a050"), ("velocity (right axis)", "#e08020"),
        ]
        var legendTop = timeTop + PlotLabel.height() + gap
        var legendX = left
        for (text, colour) in legend {
            if legendX > left, legendX + PlotLabel.width(of: text) > width - edge {
                legendX = left
                legendTop += PlotLabel.height() + Self.rowGapPixels
            }
            labels.append(PlotLabel.below(legendTop, text: text, x: legendX, fill: colour))
            legendX += PlotLabel.width(of: text) + 3 * gap
        }
        heightPixels = (legendTop + PlotLabel.height() + edge).rounded(.up)
    }

    /// The x of a time, in seconds.
    func x(seconds: Double) -> Double { left + seconds / durationSeconds * (right - left) }
    /// The y of a position, in detents.
    func y(detents: Double) -> Double { top + (highDetent - detents) / (highDetent - lowDetent) * (bottom - top) }
    /// The y of a velocity, in detents per second.
    func y(detentsPerSecond: Double) -> Double { (top + bottom) / 2 - detentsPerSecond / peakDetentsPerSecond * (bottom - top) / 2 }
}
