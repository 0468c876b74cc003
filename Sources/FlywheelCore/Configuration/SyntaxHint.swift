/// A configuration syntax error, with the fix when the mistake is a common one.
enum SyntaxHint {
    /// The parser's problem, with a hint where one helps: a number written with a leading zero
    /// (`mode: 0660`; JSON5 has no octal numbers) is a string, `"0660"`.
    static func problem(_ failure: JSONParser.Failure, in bytes: [UInt8]) -> String {
        let offset = failure.offset
        let isDigit: (UInt8) -> Bool = { (0x30...0x39).contains($0) }
        if offset > 0, offset < bytes.count, bytes[offset - 1] == 0x30, isDigit(bytes[offset]), offset < 2 || !isDigit(bytes[offset - 2]) {
            var end = offset
            while end < bytes.count, isDigit(bytes[end]) { end += 1 }
            let digits = String(decoding: bytes[(offset - 1)..<end], as: UTF8.self)
            return "a number cannot start with 0 (JSON5 has no octal numbers); a socket mode is a string: write \"\(digits)\""
        }
        return failure.problem
    }
}
