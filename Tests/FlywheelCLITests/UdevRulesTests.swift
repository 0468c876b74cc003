import Testing

/// udev/60-flywheel.rules, checked by a parser of udev's rule syntax (Debian 12's udevadm has no
/// `verify`): every line is comma-separated KEY{attr}OP"value" pairs with known keys and operators,
/// every GOTO has its LABEL, and the file says why it exists and where it installs.
@Suite("udev rules")
struct UdevRulesTests {
    static let text = RepositoryPaths.read(RepositoryPaths.path("udev/60-flywheel.rules")) ?? ""

    static let matchKeys: Set<String> = ["ACTION", "SUBSYSTEM", "KERNEL", "ATTRS", "DRIVERS", "ENV"]
    static let assignKeys: Set<String> = ["GROUP", "MODE", "OPTIONS", "SYMLINK", "TAG", "ENV", "GOTO", "LABEL"]

    /// Splits `KEY{attr}OP"value"` pairs; nil when a pair is malformed.
    static func pairs(_ line: Substring) -> [(key: String, attribute: String?, op: String, value: String)]? {
        var result: [(String, String?, String, String)] = []
        var rest = line[...]
        while !rest.isEmpty {
            rest = rest.drop(while: { $0 == " " || $0 == "," })
            guard !rest.isEmpty else { break }
            let key = String(rest.prefix(while: { $0.isUppercase || $0 == "_" }))
            guard !key.isEmpty else { return nil }
            rest = rest.dropFirst(key.count)
            var attribute: String?
            if rest.first == "{" {
                guard let close = rest.firstIndex(of: "}") else { return nil }
                attribute = String(rest[rest.index(after: rest.startIndex)..<close])
                rest = rest[rest.index(after: close)...]
            }
            let op = String(rest.prefix(while: { "=!+:".contains($0) }))
            guard ["==", "!=", "=", "+=", ":="].contains(op) else { return nil }
            rest = rest.dropFirst(op.count)
            guard rest.first == "\"", let end = rest.dropFirst().firstIndex(of: "\"") else { return nil }
            result.append((key, attribute, op, String(rest[rest.index(after: rest.startIndex)..<end])))
            rest = rest[rest.index(after: end)...]
        }
        return result
    }

    @Test("opens with why and where it installs")
    func header() {
        let lines = Self.text.split(separator: "\n")
        #expect(lines.first?.hasPrefix("# Flywheel") == true)
        #expect(Self.text.contains("installs it to /usr/lib/udev/rules.d/60-flywheel.rules"))
    }

    @Test("every rule parses, uses known keys and operators, and every GOTO has its LABEL")
    func syntax() throws {
        var gotos: Set<String> = [], labels: Set<String> = []
        for (number, line) in Self.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty && !line.hasPrefix("#") {
            let parsed = try #require(Self.pairs(line), "line \(number + 1) does not parse: \(line)")
            for pair in parsed {
                let isMatch = pair.op == "==" || pair.op == "!="
                #expect((isMatch ? Self.matchKeys : Self.assignKeys).contains(pair.key), "line \(number + 1): \(pair.key)\(pair.op)")
                if pair.key == "GOTO" { gotos.insert(pair.value) }
                if pair.key == "LABEL" { labels.insert(pair.value) }
                if pair.key == "ATTRS" || (pair.key == "ENV" && isMatch) { #expect(pair.attribute != nil) }
            }
        }
        #expect(!gotos.isEmpty && gotos.isSubset(of: labels), "GOTO without LABEL: \(gotos.subtracting(labels))")
    }

    @Test("each documented device gets a symlink, ID_FLYWHEEL, uaccess and the systemd wants; gpiochips get gpio 0660")
    func devices() {
        for (ids, link) in [("077d", "flywheel-powermate"), ("\"0020\"", "flywheel-shuttlexpress"), ("\"0030\"", "flywheel-shuttlepro"),
                            ("Surface Dial System Multi Axis", "flywheel-surface-dial"), ("rotary-encoder", "flywheel-encoder-%n")] {
            let line = Self.text.split(separator: "\n").first { $0.contains(ids) && !$0.hasPrefix("#") }
            #expect(line?.contains("SYMLINK+=\"input/\(link)\"") == true, "\(ids)")
            #expect(line?.contains("GOTO=\"flywheel_device\"") == true, "\(ids)")
        }
        #expect(Self.text.contains("ENV{ID_FLYWHEEL}=\"1\""))
        #expect(Self.text.contains("TAG+=\"uaccess\""))
        #expect(Self.text.contains("TAG+=\"systemd\", ENV{SYSTEMD_WANTS}+=\"flywheeld.service\""))
        #expect(Self.text.contains("KERNEL==\"gpiochip*\", GROUP=\"gpio\", MODE=\"0660\""))
    }

    @Test("/dev/uinput gets group uinput, mode 0660 (flywheel-keys.service's), the static node before the module loads too")
    func uinput() {
        let rule = #"SUBSYSTEM=="misc", KERNEL=="uinput", GROUP="uinput", MODE="0660", OPTIONS+="static_node=uinput", GOTO="flywheel_end""#
        #expect(Self.text.split(separator: "\n").contains { $0 == rule })
        // Before the input devices' rules, which end at SUBSYSTEM!="input".
        let lines = Self.text.split(separator: "\n")
        #expect((lines.firstIndex { $0 == rule } ?? .max) < (lines.firstIndex { $0.hasPrefix(#"SUBSYSTEM!="input""#) } ?? -1))
    }

    @Test("the parser rejects malformed rules")
    func parserCatchesMistakes() {
        #expect(Self.pairs("KERNEL==event*") == nil)
        #expect(Self.pairs("KERNEL=~\"x\"") == nil)
        #expect(Self.pairs("ATTRS{idVendor==\"077d\"") == nil)
        #expect(Self.pairs("KERNEL==\"event*\", GOTO=\"x\"")?.count == 2)
    }
}
