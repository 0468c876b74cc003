/// How much of someone else's text (a client's command or key, a number it wrote, a file's key) a
/// message repeats: the whole of it up to ``limitBytes`` bytes of UTF-8, else its first characters
/// within the limit and "…", so a message about a line of any length stays a short sentence.
public enum Excerpt {
    /// The most bytes of the text a message repeats.
    public static let limitBytes = 48

    /// `text` as a message repeats it.
    package static func of(_ text: String) -> String {
        guard text.utf8.count > limitBytes else { return text }
        var length = 0
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            length += UTF8.width(scalar)
            if length > limitBytes { break }
            kept.append(scalar)
        }
        return String(kept) + "…"
    }
}
