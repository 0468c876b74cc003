/// A line of text on a plot: where it sits and the box it is estimated to fill, so the plot makes
/// room for it inside the canvas and keeps it off the other labels. An SVG has no text metrics
/// before a viewer draws it, so the box is estimated from the characters: 0.6 × the font size a
/// character (about the average advance of a sans-serif face: DejaVu Sans's lower-case letters are
/// 0.55–0.65 em, its digits 0.64 em, a full stop 0.32 em), 0.8 of the size above the baseline and
/// 0.25 below it (capitals and descenders).
struct PlotLabel {
    /// Where the text hangs from its x, as SVG's `text-anchor`.
    enum Anchor: String {
        case start, middle, end
    }

    /// The text, unescaped.
    var text: String
    /// The anchor's x, in pixels.
    var x: Double
    /// The baseline's y, in pixels.
    var baseline: Double
    var anchor: Anchor = .start
    var fontSizePixels: Double = PlotLabel.axisFontSizePixels
    /// The colour.
    var fill: String

    /// The font size of the axes, the ticks and the legend (the SVG's own).
    static let axisFontSizePixels = 12.0
    /// The estimated advance of a character, as a fraction of the font size.
    static let characterWidthEms = 0.6
    /// The estimated height above the baseline and below it, as fractions of the font size.
    static let ascentEms = 0.8
    static let descentEms = 0.25

    /// The estimated width of `text` at `fontSizePixels`.
    static func width(of text: String, fontSizePixels: Double = axisFontSizePixels) -> Double {
        characterWidthEms * fontSizePixels * Double(text.count)
    }

    /// The estimated height of a line, from its top to its bottom.
    static func height(fontSizePixels: Double = axisFontSizePixels) -> Double { (ascentEms + descentEms) * fontSizePixels }

    /// The baseline that centres a line of `fontSizePixels` on `y` (a tick's label on its tick).
    static func baseline(centredOn y: Double, fontSizePixels: Double = axisFontSizePixels) -> Double {
        y + (ascentEms - descentEms) / 2 * fontSizePixels
    }

    /// A label whose box's top is at `top`.
    static func below(_ top: Double, text: String, x: Double, anchor: Anchor = .start, fontSizePixels: Double = axisFontSizePixels, fill: String) -> PlotLabel {
        PlotLabel(text: text, x: x, baseline: top + ascentEms * fontSizePixels, anchor: anchor, fontSizePixels: fontSizePixels, fill: fill)
    }

    var width: Double { Self.width(of: text, fontSizePixels: fontSizePixels) }
    var left: Double {
        switch anchor {
        case .start: return x
        case .middle: return x - width / 2
        case .end: return x - width
        }
    }
    var right: Double { left + width }
    var top: Double { baseline - Self.ascentEms * fontSizePixels }
    var bottom: Double { baseline + Self.descentEms * fontSizePixels }

    /// The `<text>` element.
    var svg: String {
        var element = "<text x=\"\(MotionPlot.fixed(x, 1))\" y=\"\(MotionPlot.fixed(baseline, 1))\""
        if anchor != .start { element += " text-anchor=\"\(anchor.rawValue)\"" }
        if fontSizePixels != Self.axisFontSizePixels { element += " font-size=\"\(MotionPlot.fixed(fontSizePixels, 0))\"" }
        return element + " fill=\"\(fill)\">\(MotionPlot.escape(text))</text>"
    }
}
