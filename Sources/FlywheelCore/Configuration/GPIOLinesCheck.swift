/// The lines of an encoder on GPIO: A, B and the button must be different lines.
package enum GPIOLinesCheck {
    /// What is wrong when two of the lines are the same one, or nil.
    package static func clash(a: String, b: String, button: String?) -> String? {
        if a == b { return "gives the same line \(a) for 'a' and 'b': the encoder's two contacts are on two lines (a KY-040's CLK and DT)" }
        if let button, button == a || button == b {
            return "gives the line \(button) for the button and for '\(button == a ? "a" : "b")': the button needs a line of its own (a KY-040's SW)"
        }
        return nil
    }
}
