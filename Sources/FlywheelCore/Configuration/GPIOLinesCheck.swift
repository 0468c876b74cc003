/// The lines of an encoder on GPIO: A, B and the button must be different lines, as the kernel
/// has them (on the header `17` and `"GPIO17"` are one line: ``DeviceClaims/line(_:on:)``).
package enum GPIOLinesCheck {
    /// What is wrong when two of the lines are the same one, or nil.
    package static func clash(a: String, b: String, button: String?, on chip: GPIOChipSelector) -> String? {
        let line = { (written: String) in DeviceClaims.line(written, on: chip) }
        if line(a) == line(b) { return "gives the same line \(a) for 'a' and 'b': the encoder's two contacts are on two lines (a KY-040's CLK and DT)" }
        if let button, line(button) == line(a) || line(button) == line(b) {
            return "gives the line \(button) for the button and for '\(line(button) == line(a) ? "a" : "b")': the button needs a line of its own (a KY-040's SW)"
        }
        return nil
    }
}
