import FlywheelCore

extension Scenario {
    /// The longest accepted speed, in detents per second.
    static let maximumSpeed = 10_000.0
    /// The longest a scenario may last, every command added up, a flick's coast included
    /// (10 minutes): what it simulates is kept in memory, so its length bounds the memory a file
    /// can ask for.
    public static let maximumDurationNanoseconds: Nanoseconds = 600_000_000_000
    /// The most chatter pulses a second a scenario may ask for.
    public static let maximumChatterPerSecond = 100.0

    /// Parses a `.sim` scenario.
    ///
    /// `# name:` and `# notes:` header lines, other `#` comments (whole-line or trailing) and
    /// blank lines; a `device` line; settings (`seed`, `bounce`, `chatter`, `friction`,
    /// `counter`) before the first command; then one command per line.
    /// - Throws: ``ScenarioError`` naming the file, the line and what was expected.
    public static func parse(_ text: String, file: String) throws -> Scenario {
        var scenario = Scenario(file: file, device: "")
        var notes: [String] = []
        var settingLines: [String: Int] = [:]
        var lineNumber = 0
        var totalNanoseconds: Nanoseconds = 0
        var totalTravelDetents = 0.0
        func fail(_ problem: String) -> ScenarioError {
            ScenarioError(file: file, line: lineNumber, problem: problem)
        }
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let whole = ValueText.trimmed(rawLine)
            if whole.hasPrefix("#") {
                let comment = ValueText.trimmed(whole.dropFirst())
                if comment.hasPrefix("name:") {
                    scenario.name = ValueText.trimmed(comment.dropFirst(5))
                } else if comment.hasPrefix("notes:") {
                    notes.append(ValueText.trimmed(comment.dropFirst(6)))
                }
                continue
            }
            var content = Substring(whole)
            if let hash = content.firstIndex(of: "#") { content = content[..<hash] }
            let words = ValueText.words(content)
            guard let keyword = words.first else { continue }
            let shown = ValueText.trimmed(content)

            if Self.settingKeywords.contains(keyword) {
                if !scenario.steps.isEmpty {
                    throw fail("expected a command, got the setting '\(keyword)' (settings come before the first command)")
                }
                if let earlier = settingLines[keyword] {
                    throw fail("expected each setting once, got a second '\(keyword)' (the first is on line \(earlier))")
                }
                settingLines[keyword] = lineNumber
                try parseSetting(words, shown: shown, into: &scenario, line: lineNumber, fail: fail)
            } else {
                let gesture = try parseCommand(words, shown: shown, fail: fail)
                // Settings come first, so the friction a flick coasts against is known here.
                var mechanics = MechanicsSettings()
                if let friction = scenario.friction { mechanics.friction = friction }
                totalNanoseconds += gesture.plannedNanoseconds(mechanics)
                guard totalNanoseconds <= maximumDurationNanoseconds else {
                    throw fail("the scenario would last longer than the limit of \(durationLimitText) with '\(shown)'")
                }
                totalTravelDetents += gesture.travelDetents(mechanics)
                guard totalTravelDetents <= Double(maximumTravelDetents) else {
                    throw fail("the knob would travel more than the scenario limit of \(countText(maximumTravelDetents, "detents")) with '\(shown)'")
                }
                scenario.steps.append(ScenarioStep(gesture: gesture, line: lineNumber))
            }
        }
        scenario.notes = notes.joined(separator: " ")
        if scenario.device.isEmpty {
            throw ScenarioError(
                file: file, line: max(1, lineNumber),
                problem: "expected a 'device <profile-id>' line, but the file has none")
        }
        return scenario
    }

    /// The duration limit in words: `10 minutes`.
    static let durationLimitText = "\(maximumDurationNanoseconds / 60_000_000_000) minutes"

    /// The message for a value past a scenario limit, such as `'hold 601s' exceeds the scenario limit of 10 minutes`.
    static func overLimit(_ shown: String, _ limit: String) -> String { "'\(shown)' exceeds the scenario limit of \(limit)" }

    static let settingKeywords: Set<String> = ["device", "seed", "bounce", "chatter", "friction", "counter"]

    static func parseSetting(
        _ words: [String], shown: String, into scenario: inout Scenario, line: Int,
        fail: (String) -> ScenarioError
    ) throws {
        switch words[0] {
        case "device":
            guard words.count == 2 else { throw fail("expected 'device <profile-id>', got '\(shown)'") }
            guard words[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw fail("expected a profile id (letters, digits, - and _) after 'device', not a path, got '\(words[1])'")
            }
            scenario.device = words[1]
            scenario.deviceLine = line
        case "seed":
            guard words.count == 2, let seed = ValueText.unsigned(words[1]) else {
                throw fail("expected 'seed N' with N a whole number from 0 to 2^64−1, got '\(shown)'")
            }
            scenario.seed = seed
        case "bounce":
            if words.count == 2, words[1] == "off" {
                scenario.bounce = BounceSettings.none
                return
            }
            guard words.count == 5, words[1] == "toggles", words[3] == "window",
                let toggles = ValueText.range(words[2], ValueText.integer), toggles.lowerBound >= 0,
                toggles.upperBound <= 100, let window = ValueText.range(words[4], ValueText.duration)
            else {
                throw fail("expected 'bounce toggles LOW..HIGH window SHORTEST..LONGEST' with at most 100 toggles (such as 'bounce toggles 0..6 window 0.05ms..3ms') or 'bounce off', got '\(shown)'")
            }
            scenario.bounce = BounceSettings(toggles: toggles, windowNanoseconds: window)
        case "chatter":
            let rest = words.dropFirst().joined(separator: " ")
            guard let parsed = ChatterText.parse(rest) else {
                throw fail("expected 'chatter RATE/s width SHORTEST..LONGEST' (such as 'chatter 2/s width 20us..200us') or 'chatter off', got '\(shown)'")
            }
            if let rate = parsed?.ratePerSecond, rate > maximumChatterPerSecond {
                throw fail("expected a chatter rate of at most \(Int(maximumChatterPerSecond))/s, got '\(shown)'")
            }
            scenario.chatter = parsed.map { ChatterOverride.on($0) } ?? .off
        case "friction":
            let value = words.count == 2 ? (ValueText.perSecond(words[1]) ?? ValueText.number(words[1])) : nil
            guard let friction = value, friction >= 0.1, friction <= 1000 else {
                throw fail("expected 'friction K' with K per second from 0.1 to 1000 (such as 'friction 6'), got '\(shown)'")
            }
            scenario.friction = friction
        case "counter":
            guard words.count == 2, let value = ValueText.integer(words[1]), (0...255).contains(value) else {
                throw fail("expected 'counter N' with N from 0 to 255, got '\(shown)'")
            }
            scenario.counterStart = value
        default:
            break
        }
    }

    /// A speed `V/s`, above 0 and at most ``maximumSpeed``.
    static func speed(_ text: String) -> Double? {
        guard let value = ValueText.perSecond(text), value > 0, value <= maximumSpeed else { return nil }
        return value
    }

    static func parseCommand(_ words: [String], shown: String, fail: (String) -> ScenarioError) throws -> Gesture {
        switch words[0] {
        case "turn":
            let expected = "expected 'turn ±N at V/s' with N a non-zero whole number and V above 0 and at most \(Int(maximumSpeed)) detents per second"
            guard words.count == 2 || (words.count == 4 && words[2] == "at"),
                let detents = ValueText.integer(words[1]), detents != 0
            else { throw fail("\(expected), got '\(shown)'") }
            guard detents.magnitude <= maximumTravelDetents.magnitude else {
                throw fail(overLimit(shown, countText(maximumTravelDetents, "detents")))
            }
            var rate = 8.0
            if words.count == 4 {
                guard let value = speed(words[3]) else { throw fail("\(expected), got '\(shown)'") }
                rate = value
            }
            return .turn(detents: detents, speed: rate)
        case "flick":
            guard words.count == 2, let velocity = ValueText.perSecond(words[1]), velocity != 0,
                abs(velocity) <= maximumSpeed
            else {
                throw fail("expected 'flick ±V/s' with V a non-zero speed of at most \(Int(maximumSpeed)) detents per second (such as 'flick +30/s'), got '\(shown)'")
            }
            return .flick(velocity: velocity)
        case "hold":
            guard words.count == 2, let duration = ValueText.duration(words[1]), duration > 0 else {
                throw fail("expected 'hold DURATION' with a unit s, ms, us or ns (such as 'hold 200ms'), got '\(shown)'")
            }
            guard duration <= maximumDurationNanoseconds else { throw fail(overLimit(shown, durationLimitText)) }
            return .hold(nanoseconds: duration)
        case "wiggle":
            let expected = "expected 'wiggle ±F [at V/s]' with F a fraction of a detent, 0 < |F| < 0.5, and V above 0 and at most \(Int(maximumSpeed)) detents per second"
            guard words.count == 2 || (words.count == 4 && words[2] == "at"),
                let fraction = ValueText.number(words[1]), fraction != 0, abs(fraction) < 0.5
            else { throw fail("\(expected), got '\(shown)'") }
            var rate = 3.0
            if words.count == 4 {
                guard let value = speed(words[3]) else { throw fail("\(expected), got '\(shown)'") }
                rate = value
            }
            return .wiggle(fraction: fraction, speed: rate)
        case "jitter":
            guard words.count == 4, words[2] == "for", let amplitude = ValueText.number(words[1]), amplitude > 0,
                amplitude < 0.5, let duration = ValueText.duration(words[3]), duration > 0
            else {
                throw fail("expected 'jitter A for DURATION' with 0 < A < 0.5 detents (such as 'jitter 0.1 for 300ms'), got '\(shown)'")
            }
            guard duration <= maximumDurationNanoseconds else { throw fail(overLimit(shown, durationLimitText)) }
            return .jitter(amplitude: amplitude, nanoseconds: duration)
        case "press", "release":
            var button: UInt16?
            if words.count == 2 {
                guard let code = EvdevNames.key(named: words[1]) else {
                    throw fail("expected '\(words[0])' or '\(words[0]) KEY' with KEY a key name such as BTN_0, got '\(shown)'")
                }
                button = code
            } else if words.count != 1 {
                throw fail("expected '\(words[0])' or '\(words[0]) KEY' with KEY a key name such as BTN_0, got '\(shown)'")
            }
            return words[0] == "press" ? .press(button: button) : .release(button: button)
        default:
            throw fail(
                "expected a command (turn, flick, hold, wiggle, jitter, press, release) or a setting (device, seed, bounce, chatter, friction, counter), got '\(shown)'"
            )
        }
    }
}
