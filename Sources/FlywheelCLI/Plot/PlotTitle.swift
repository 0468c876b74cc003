/// A plot's title in lines that fit the canvas's width: its clauses (parted by " · ") kept whole
/// where they fit, else broken at their spaces; a word longer than a whole line is shortened with "…".
enum PlotTitle {
    /// The font size of the title.
    static let fontSizePixels = 15.0
    /// From one line's baseline to the next.
    static let lineHeightPixels = 19.0

    /// `title` in lines of at most `widthPixels`, as ``PlotLabel`` estimates them: each clause on the
    /// line before it when it fits there, else on a new line; a clause longer than a line wrapped
    /// at its spaces.
    static func lines(_ title: String, fittingPixels widthPixels: Double) -> [String] {
        let most = max(2, Int(widthPixels / (PlotLabel.characterWidthEms * fontSizePixels)))  // characters a line holds
        var lines: [String] = []
        var line = ""
        for clause in title.split(separator: " · ", omittingEmptySubsequences: true) {
            if !line.isEmpty, line.count + 3 + clause.count <= most {
                line += " · " + clause
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = ""
            for word in clause.split(separator: " ") {
                // A word longer than a whole line: its start, shortened.
                let word = word.count <= most ? String(word) : String(word.prefix(most - 1)) + "…"
                if line.isEmpty {
                    line = word
                } else if line.count + 1 + word.count <= most {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = word
                }
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
