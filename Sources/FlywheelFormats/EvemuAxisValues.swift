/// The absolute axes' values an evemu recording's description comments give (`evemu-record` writes,
/// under `#   Event type 3 (EV_ABS)`, `#     Event code 8 (ABS_MISC)` and then `#       Value    5`):
/// where each axis was when the recording began. The `A:` lines carry no value.
struct EvemuAxisValues {
    /// The values read so far, by axis code.
    private(set) var values: [UInt16: Int32] = [:]
    /// Whether the comments are in the EV_ABS section, and the axis they describe.
    private var inAbsolute = false
    private var axis: UInt16?

    /// Reads one comment line (the text after `#`).
    mutating func read(comment: Substring) {
        let words = comment.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 2 else { return }
        if words[0] == "Event", words[1] == "type" {
            inAbsolute = words.count >= 3 && words[2] == "3"
            axis = nil
        } else if inAbsolute, words[0] == "Event", words[1] == "code", words.count >= 3 {
            axis = UInt16(words[2])
        } else if let axis, words[0] == "Value", let value = Int32(words[1]) {
            values[axis] = value
        }
    }
}
