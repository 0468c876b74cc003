import FlywheelDaemon
import FlywheelCore
import FlywheelFormats

/// `flywheel decode FILE [--channels A,B] [--steps-per-detent 1|2|4|auto] [--summary]`
enum DecodeCommand {
    static let usage = """
        flywheel decode FILE [--channels A,B] [--steps-per-detent 1|2|4|auto] [--summary | --inputs] [--hardware DIR]
            Decode a quadrature recording (.vcd, .edges) or an evemu recording into detents.
            Prints one JSON line per detent {"t","detent","position"}, or with --summary one object
            {"quarter_steps","detents","valid","invalid","steps_per_detent"}. Default steps per detent: 4.
            --inputs prints what the device backend makes of it, exactly as from the live device: for
            evemu, first {"device":{kind, profile, reason}}, then one line per input (knob, touch, lift,
            button, shuttle, gap).
            Example: flywheel decode knob.edges --steps-per-detent auto --summary
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "decode")
        let channels = try args.option("channels")
        let stepsText = try args.option("steps-per-detent") ?? "4"
        let summary = args.flag("summary")
        let inputs = args.flag("inputs")
        let hardware = try args.option("hardware")
        let path = try args.positionals("one FILE to decode", count: 1...1)[0]

        let input = try ReplayInput.load(path, channels: channels)
        if inputs {
            guard !summary else { throw .usage("choose one of --summary and --inputs") }
            try decodeInputs(input, path: path, stepsText: stepsText, hardware: hardware, console: console)
            return
        }
        switch input {
        case .quadrature(let trace, _, _):
            try decodeQuadrature(trace, stepsText: stepsText, summary: summary, console: console)
        case .evdev(let recording):
            guard stepsText == "4" || stepsText == "auto" || stepsText == "1" else {
                throw .usage("--steps-per-detent applies to quadrature recordings; \(path) holds evdev events")
            }
            try decodeEvdev(recording, path: path, summary: summary, console: console)
        }
    }

    static func decodeQuadrature(_ trace: QuadratureTrace, stepsText: String, summary: Bool, console: Console) throws(ToolError) {
        let steps: StepsPerDetent
        var rest: QuadratureLevels?
        var confidence: Double?
        if stepsText == "auto" {
            let estimate = StepsPerDetentDetector.detect(trace)
            guard let detected = estimate.stepsPerDetent else {
                guard let likeliest = estimate.likeliest else {
                    throw ToolError(
                        "Cannot detect the steps per detent: the encoder never rests for 150 ms in this recording; give --steps-per-detent 1, 2 or 4")
                }
                let confidence = String((estimate.confidence * 100).rounded() / 100)
                throw ToolError(
                    "Cannot detect the steps per detent: \(likeliest.rawValue) is likeliest, at confidence \(confidence), too little to decide (the knob must rest on more detents); give --steps-per-detent 1, 2 or 4")
            }
            steps = detected
            rest = estimate.rest
            confidence = estimate.confidence
        } else {
            guard let value = Int(stepsText), let parsed = StepsPerDetent(rawValue: value) else {
                throw .usage("--steps-per-detent must be 1, 2, 4 or auto, not '\(stepsText)'")
            }
            steps = parsed
        }
        var decoder = QuadratureDecoder(stepsPerDetent: steps, initial: trace.initial, rest: rest)
        let samples = trace.samples
        if summary {
            decoder.decode(samples)
            var fields: [(String, JSONValue)] = [
                ("quarter_steps", .int(decoder.quarterSteps.count)),
                ("detents", .int(decoder.detents.count)),
                ("valid", .int(decoder.validTransitions)),
                ("invalid", .int(decoder.invalidTransitions)),
                ("steps_per_detent", .int(steps.rawValue)),
            ]
            if let confidence { fields.append(("confidence", .double((confidence * 1000).rounded() / 1000))) }
            console.out(JSONValue.object(fields).encoded() + "\n")
        } else {
            var text = ""
            decoder.decode(samples) { time, direction, position in
                JSONValue.object([
                    ("t", .number(time.secondsText)), ("detent", .int(direction)), ("position", .int(position)),
                ]).encode(into: &text)
                text += "\n"
            }
            console.out(text)
        }
    }

    static func decodeInputs(_ input: ReplayInput, path: String, stepsText: String, hardware: String?, console: Console) throws(ToolError) {
        var text = ""
        let inputs: [DeviceInput]
        switch input {
        case .quadrature(let trace, _, let marks):
            guard let value = Int(stepsText), let steps = StepsPerDetent(rawValue: value) else {
                throw .usage("--inputs takes --steps-per-detent 1, 2 or 4, not '\(stepsText)'")
            }
            inputs = DeviceReplay.inputs(from: trace, stepsPerDetent: steps, rest: nil, kernelEvents: !path.hasSuffix(".vcd"), marks: marks)
        case .evdev(let recording):
            let hints = ProfileLibrary(directories: ProfileLibrary.searchPath(explicit: hardware, scenarioPath: path)).all().map(\.hint)
            let replay = DeviceReplay.inputs(from: recording, profiles: hints)
            let device = replay.classification
            JSONValue.object([
                ("device", .object([
                    ("kind", .string(device.kind.rawValue)), ("profile", device.profileID.map(JSONValue.string) ?? .null), ("reason", .string(device.reason)),
                ]))
            ]).encode(into: &text)
            text += "\n"
            inputs = replay.inputs
        }
        for item in inputs {
            item.json.encode(into: &text)
            text += "\n"
        }
        console.out(text)
    }

    static func decodeEvdev(_ recording: EvemuRecording, path: String, summary: Bool, console: Console) throws(ToolError) {
        guard let report = RotaryReport.infer(from: recording) else {
            throw ToolError("\(path) has no rotary axis to decode (no REL_X, REL_Y, REL_DIAL or REL_WHEEL events, and not one absolute axis with a range)")
        }
        var decoder = RotaryEventDecoder(report: report)
        var text = ""
        var position = 0
        var frameHasCounter = false
        for event in recording.events {
            var fired = 0
            if case .wrappingCounter(let code, _, _) = report {
                // As the live backend reads a Contour device: every report carries the jog counter and
                // the kernel drops a relative 0, so a report without it says the counter is 0.
                if event.type == EventType.rel, event.code == code { frameHasCounter = true }
                if event.type == EventType.syn, event.code == SynCode.report {
                    if !frameHasCounter { fired += decoder.feed(InputEvent(timeNanoseconds: event.timeNanoseconds, type: EventType.rel, code: code, value: 0)) }
                    frameHasCounter = false
                }
            }
            fired += decoder.feed(event)
            guard fired != 0, !summary else { continue }
            for _ in 0..<abs(fired) {
                position += fired > 0 ? 1 : -1
                JSONValue.object([
                    ("t", .number(event.timeNanoseconds.secondsText)), ("detent", .int(fired > 0 ? 1 : -1)),
                    ("position", .int(position)),
                ]).encode(into: &text)
                text += "\n"
            }
        }
        if summary {
            text = JSONValue.object([
                ("quarter_steps", .int(decoder.counts)),
                ("detents", .int(decoder.detents)),
                ("valid", .int(decoder.reports)),
                ("invalid", .int(0)),
                ("steps_per_detent", .int(decoder.countsPerDetent)),
            ]).encoded() + "\n"
        }
        console.out(text)
    }
}

extension RotaryReport {
    /// The rotary report format of a recorded device: from its USB ids when it is a Contour
    /// shuttle (an absolute REL_DIAL counter), else from the axes it declares or uses.
    static func infer(from recording: EvemuRecording) -> RotaryReport? {
        let rel = EventType.rel
        func has(_ code: UInt16) -> Bool {
            recording.has(type: rel, code: code) || recording.events.contains { $0.type == rel && $0.code == code }
        }
        if recording.vendor == 0x0b33, has(RelCode.dial) {
            return .wrappingCounter(code: RelCode.dial, modulus: 256, countsPerDetent: 1)
        }
        if has(RelCode.dial) { return .delta(code: RelCode.dial, countsPerDetent: 1) }
        if has(RelCode.wheelHiRes) || has(RelCode.wheel) { return .highResolutionWheel }
        if has(RelCode.x) { return .delta(code: RelCode.x, countsPerDetent: 1) }
        if has(RelCode.y) { return .delta(code: RelCode.y, countsPerDetent: 1) }
        // One absolute axis besides a tablet's ABS_MISC: the kernel rotary-encoder in absolute mode.
        let axes = recording.deviceDescription.absoluteRanges.filter { $0.key != AbsCode.misc }
        if axes.count == 1, let (code, range) = axes.first, range.count > 2 {
            return .absoluteCounter(code: code, modulus: Int(range.upperBound) - Int(range.lowerBound), countsPerDetent: 1)
        }
        return nil
    }
}
