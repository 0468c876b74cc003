
extension DeviceProfile {
    /// Every key a profile may set, in the order `hardware/PROFILES.md` documents them.
    public static let keys: [String] = [
        "id", "name", "kind", "usb", "report", "detents_per_revolution", "steps_per_detent", "rest",
        "counts_per_turn", "counting", "bounce_toggles", "bounce_window", "chatter", "usb_poll_interval",
        "max_delta_per_report", "axis", "rollover", "buttons", "button_debounce", "interrupt_latency",
        "counter_start",
    ]

    /// Parses a profile: `key = value` lines, `#` comments (whole-line or trailing), blank lines.
    ///
    /// Unknown keys, keys set twice, malformed values and missing required keys are errors.
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - file: the file's name, used in error messages.
    /// - Throws: ``ProfileError`` naming the file, line and key.
    public static func parse(_ text: String, file: String) throws -> DeviceProfile {
        var reader = ProfileReader(file: file)
        try reader.read(text)
        return try reader.build()
    }
}

/// The values of a profile file, by key, with the line each was set on.
struct ProfileReader {
    let file: String
    var values: [String: (value: String, line: Int)] = [:]
    var lastLine = 1

    init(file: String) { self.file = file }

    mutating func read(_ text: String) throws {
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(rawLine)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let content = ValueText.trimmed(line)
            if content.isEmpty { continue }
            guard let equals = content.firstIndex(of: "=") else {
                throw ProfileError(
                    file: file, line: lineNumber, key: nil, problem: "expected 'key = value', got '\(content)'")
            }
            let key = ValueText.trimmed(content[..<equals])
            let value = ValueText.trimmed(content[content.index(after: equals)...])
            guard DeviceProfile.keys.contains(key) else {
                throw ProfileError(
                    file: file, line: lineNumber, key: key,
                    problem: "is not a profile key (known keys: \(DeviceProfile.keys.joined(separator: ", ")))")
            }
            if let earlier = values[key] {
                throw ProfileError(
                    file: file, line: lineNumber, key: key, problem: "is set twice (first on line \(earlier.line))")
            }
            guard !value.isEmpty else {
                throw ProfileError(file: file, line: lineNumber, key: key, problem: "has no value")
            }
            values[key] = (value, lineNumber)
        }
        lastLine = max(1, lineNumber)
    }

    func error(_ key: String, _ problem: String) -> ProfileError {
        ProfileError(file: file, line: values[key]?.line ?? lastLine, key: key, problem: problem)
    }

    /// The value of a required key, parsed; errors name what was expected.
    func required<T>(_ key: String, expected: String, _ parse: (String) -> T?) throws -> T {
        guard let entry = values[key] else { throw error(key, "is required but missing") }
        guard let value = parse(entry.value) else { throw error(key, "must be \(expected), got '\(entry.value)'") }
        return value
    }

    /// The value of an optional key, parsed, or nil when absent.
    func optional<T>(_ key: String, expected: String, _ parse: (String) -> T?) throws -> T? {
        guard let entry = values[key] else { return nil }
        guard let value = parse(entry.value) else { throw error(key, "must be \(expected), got '\(entry.value)'") }
        return value
    }

    /// Requires `key` because another key's value needs it; the error is on that other key's line.
    func requiredBecause<T>(_ key: String, because reason: String, at other: String, value: T?) throws -> T {
        if let value { return value }
        throw ProfileError(
            file: file, line: values[other]?.line ?? lastLine, key: key, problem: "is required \(reason)")
    }

    func build() throws -> DeviceProfile {
        let id = try required("id", expected: "letters, digits, '-' or '_'") { text -> String? in
            text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") } ? text : nil
        }
        let name = try required("name", expected: "a name") { $0 }
        let kind = try required("kind", expected: choices(DeviceKind.profileKinds.map(\.rawValue))) {
            DeviceKind(rawValue: $0).flatMap { DeviceKind.profileKinds.contains($0) ? $0 : nil }
        }
        let usb = try optional("usb", expected: "vendor:product in hex, such as 077d:0410", Self.usbID)
        let report = try required("report", expected: choices(ReportKind.allCases.map(\.rawValue))) {
            ReportKind(rawValue: $0)
        }
        let detents = try required("detents_per_revolution", expected: "a whole number from 1 to 10000") {
            ValueText.integer($0).flatMap { (1...10_000).contains($0) ? $0 : nil }
        }
        let steps = try required("steps_per_detent", expected: "1, 2 or 4") {
            ValueText.integer($0).flatMap(StepsPerDetent.init(rawValue:))
        }
        let rest = try required("rest", expected: "two levels A then B (00, 10, 11 or 01)", Self.levels)
        if steps == .two, rest.code != 0, rest.code != 3 {
            throw error("rest", "must be 00 or 11 with 2 steps per detent (half-period rests), got '\(rest)'")
        }
        let countsPerTurn = try optional("counts_per_turn", expected: "a whole number from 1 to 1000000") {
            ValueText.integer($0).flatMap { (1...1_000_000).contains($0) ? $0 : nil }
        }
        let counting =
            try optional("counting", expected: choices(FirmwareCounting.allCases.map(\.rawValue))) {
                FirmwareCounting(rawValue: $0)
            } ?? .detents
        let toggles =
            try optional("bounce_toggles", expected: "a range of toggle counts such as 0..6 (at most 100)") {
                ValueText.range($0, ValueText.integer).flatMap { $0.lowerBound >= 0 && $0.upperBound <= 100 ? $0 : nil }
            } ?? 0...0
        let window =
            try optional("bounce_window", expected: "a range of durations such as 0.05ms..3ms") {
                ValueText.range($0, ValueText.duration)
            } ?? 0...0
        if toggles.upperBound >= 2, window.upperBound == 0 {
            throw error("bounce_window", "is required (and must be longer than 0) when bounce_toggles allows toggles")
        }
        let chatter = try optional(
            "chatter", expected: "'none' or a rate and pulse width such as '2/s width 20us..200us'",
            ChatterText.parse)
        let poll = try optional("usb_poll_interval", expected: "a duration longer than 0, such as 8ms") {
            ValueText.duration($0).flatMap { $0 > 0 ? $0 : nil }
        }
        let maxDelta = try optional("max_delta_per_report", expected: "a whole number from 1 to 32767") {
            ValueText.integer($0).flatMap { (1...32767).contains($0) ? $0 : nil }
        }
        let axis = try optional("axis", expected: "an evdev axis name such as REL_X, REL_DIAL or ABS_X") {
            EvdevNames.axis(named: $0)
        }
        let rollover = try optional("rollover", expected: "yes or no", ValueText.boolean) ?? false
        let buttons = try optional("buttons", expected: "'none' or key names such as BTN_0 or BTN_4, BTN_5", Self.keyList) ?? []
        let debounce = try optional("button_debounce", expected: "a duration such as 5ms", ValueText.duration) ?? 5_000_000
        let latency =
            try optional("interrupt_latency", expected: "a range of durations such as 3us..25us") {
                ValueText.range($0, ValueText.duration)
            } ?? 3_000...25_000
        let counterStart = try optional("counter_start", expected: "a whole number from 0 to 255") {
            ValueText.integer($0).flatMap { (0...255).contains($0) ? $0 : nil }
        } ?? 0

        // Cross-checks: what each report kind needs.
        let reportName = "when report is '\(report.rawValue)'"
        var resolvedAxis = axis
        switch report {
        case .gpio:
            break
        case .rotaryEncoderRelative, .rotaryEncoderAbsolute:
            let wantsRelative = report == .rotaryEncoderRelative
            let chosen = axis ?? EvdevNames.axis(named: wantsRelative ? "REL_X" : "ABS_X")!
            if chosen.isRelative != wantsRelative {
                throw error("axis", "must be \(wantsRelative ? "a REL_*" : "an ABS_*") axis \(reportName), got '\(chosen.name)'")
            }
            resolvedAxis = chosen
            if report == .rotaryEncoderAbsolute {
                _ = try requiredBecause("counts_per_turn", because: reportName, at: "report", value: countsPerTurn)
            }
        case .powermateDial, .shuttleCounter, .hiresWheel:
            let counts = try requiredBecause("counts_per_turn", because: reportName, at: "report", value: countsPerTurn)
            _ = try requiredBecause("usb_poll_interval", because: reportName, at: "report", value: poll)
            if report == .powermateDial {
                _ = try requiredBecause("max_delta_per_report", because: reportName, at: "report", value: maxDelta)
            }
            guard counts % detents == 0 else {
                throw error(
                    "counts_per_turn",
                    "must be a whole multiple of detents_per_revolution (\(detents)) \(reportName), got '\(counts)'")
            }
            let perDetent = counts / detents
            if counting == .quarterSteps, perDetent % steps.rawValue != 0 {
                throw error(
                    "counting",
                    "'quarter-steps' needs counts per detent (\(perDetent)) to be a multiple of steps_per_detent (\(steps.rawValue))")
            }
            if report == .hiresWheel, 120 % perDetent != 0 {
                throw error(
                    "counts_per_turn",
                    "must give a number of counts per detent that divides 120 \(reportName), got \(perDetent) per detent")
            }
            let defaultAxis = report == .hiresWheel ? "REL_WHEEL" : "REL_DIAL"
            let chosen = axis ?? EvdevNames.axis(named: defaultAxis)!
            if report == .hiresWheel, !(chosen.isRelative && (chosen.code == RelCode.wheel || chosen.code == RelCode.hwheel)) {
                throw error("axis", "must be REL_WHEEL or REL_HWHEEL \(reportName), got '\(chosen.name)'")
            }
            if !chosen.isRelative {
                throw error("axis", "must be a REL_* axis \(reportName), got '\(chosen.name)'")
            }
            resolvedAxis = chosen
        }

        return DeviceProfile(
            id: id, name: name, kind: kind, usb: usb, report: report, detentsPerRevolution: detents,
            stepsPerDetent: steps, rest: rest, countsPerTurn: countsPerTurn, counting: counting,
            bounce: BounceSettings(toggles: toggles, windowNanoseconds: window), chatter: chatter ?? nil,
            usbPollIntervalNanoseconds: poll, maxDeltaPerReport: maxDelta, axis: resolvedAxis, rollover: rollover,
            buttons: buttons, buttonDebounceNanoseconds: debounce, interruptLatencyNanoseconds: latency,
            counterStart: counterStart)
    }

    func choices(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().map { "'\($0)'" }.joined(separator: ", ") + " or '\(names.last!)'"
    }

    static func usbID(_ text: String) -> USBID? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 4 }),
            let vendor = UInt16(parts[0], radix: 16), let product = UInt16(parts[1], radix: 16)
        else { return nil }
        return USBID(vendor: vendor, product: product)
    }

    static func levels(_ text: String) -> QuadratureLevels? {
        switch text {
        case "00": return QuadratureLevels(code: 0)
        case "01": return QuadratureLevels(code: 1)
        case "10": return QuadratureLevels(code: 2)
        case "11": return QuadratureLevels(code: 3)
        default: return nil
        }
    }

    static func keyList(_ text: String) -> [UInt16]? {
        if text == "none" { return [] }
        let names = text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
        var codes: [UInt16] = []
        for name in names {
            guard let code = EvdevNames.key(named: name), !codes.contains(code) else { return nil }
            codes.append(code)
        }
        return codes.isEmpty ? nil : codes
    }
}

/// The chatter value form: `none`/`off`, or `RATE/s width LOW..HIGH`.
public enum ChatterText {
    /// `.some(nil)` for none, `.some(settings)` for chatter, nil when malformed.
    public static func parse(_ text: String) -> ChatterSettings?? {
        let words = ValueText.words(text)
        if words == ["none"] || words == ["off"] { return .some(nil) }
        guard words.count == 3, words[1] == "width", let rate = ValueText.perSecond(words[0]), rate > 0, rate <= 10_000,
            let width = ValueText.range(words[2], ValueText.duration), width.lowerBound > 0
        else { return nil }
        return .some(ChatterSettings(ratePerSecond: rate, widthNanoseconds: width))
    }
}
