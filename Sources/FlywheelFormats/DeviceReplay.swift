import FlywheelCore

extension EvemuRecording {
    /// The recorded device as the classifier sees a live one: name and ids from the header, codes
    /// from the `B:` bitmasks and from the events themselves (a short recording may have no bitmasks),
    /// axis ranges from the `A:` lines.
    public var deviceDescription: InputDeviceDescription {
        var codes: [UInt16: Set<UInt16>] = [:]
        for (type, bytes) in capabilities where type != EventType.syn {
            for (index, byte) in bytes.enumerated() where byte != 0 {
                for bit in 0..<8 where byte & (1 << bit) != 0 { codes[type, default: []].insert(UInt16(index * 8 + bit)) }
            }
        }
        for event in events where event.type != EventType.syn { codes[event.type, default: []].insert(event.code) }
        var ranges: [UInt16: ClosedRange<Int32>] = [:]
        for axis in absoluteAxes where axis.minimum <= axis.maximum { ranges[axis.code] = axis.minimum...axis.maximum }
        return InputDeviceDescription(
            name: name ?? "", bus: bus ?? 0, vendor: vendor ?? 0, product: product ?? 0, version: version ?? 0, codes: codes, absoluteRanges: ranges)
    }
}

extension EvemuRecording {
    /// Each absolute axis's value when the recording starts, as a uinput playback of it would
    /// start: the value its description comments record, else (evemu's `A:` line has none) the
    /// axis's minimum.
    public var initialAbsoluteValues: [UInt16: Int32] {
        var values: [UInt16: Int32] = [:]
        for axis in absoluteAxes where axis.minimum <= axis.maximum { values[axis.code] = recordedAbsoluteValues[axis.code] ?? axis.minimum }
        return values
    }
}

/// Replays recordings through the backends' own decoding: an evemu recording through the evdev
/// interpreter a live device of its class would get, edges through the GPIO edge interpreter.
public enum DeviceReplay {
    /// What the evdev backend makes of a recorded device, classified as it would be live.
    public static func inputs(
        from recording: EvemuRecording, profiles: [DeviceProfileHint], forced: String? = nil, touchRegion: TouchRegion? = nil
    ) -> (classification: EvdevClassification, inputs: [DeviceInput]) {
        let classification = DeviceClassifier.classify(recording.deviceDescription, profiles: profiles, forced: forced, touchRegion: touchRegion)
        var interpreter = EvdevInterpreter(classification)
        interpreter.start(absoluteValues: recording.initialAbsoluteValues)
        var inputs: [DeviceInput] = []
        for event in recording.events {
            if let deadline = interpreter.nextDeadline, deadline <= event.timeNanoseconds { inputs += interpreter.expire(at: deadline) }
            inputs += interpreter.feed(event)
        }
        if let deadline = interpreter.nextDeadline { inputs += interpreter.expire(at: deadline) }
        return (classification, inputs)
    }

    /// What the GPIO backend makes of recorded edges (a `.edges` log or a VCD capture's A/B pair).
    /// `kernelEvents`: the edges are the kernel's own events (an edge log from `flywheel record`):
    /// each is a toggle whatever its label, and `marks` give the levels the backend read back (a
    /// reconciliation, or a full buffer: a gap). A logic analyser's samples are levels: an edge
    /// that repeats its line's level is dropped.
    public static func inputs(
        from trace: QuadratureTrace, stepsPerDetent: StepsPerDetent, rest: QuadratureLevels?, kernelEvents: Bool,
        marks: [EdgeLog.Mark] = []
    ) -> [DeviceInput] {
        var interpreter = GPIOEdgeInterpreter(stepsPerDetent: stepsPerDetent, initial: trace.initial, rest: rest)
        var levels = trace.initial
        var edges: [GPIOEdge] = []
        var out: [DeviceInput] = []
        var markIndex = 0
        func apply(_ mark: EdgeLog.Mark) {
            out += interpreter.feed(edges)
            edges.removeAll(keepingCapacity: true)
            switch mark.kind {
            case .loss: out += interpreter.overflow(levels: mark.levels, at: mark.timeNanoseconds)
            case .readBack: out += interpreter.reconcile(levels: mark.levels, at: mark.timeNanoseconds)
            }
        }
        edges.reserveCapacity(trace.edges.count)
        for (index, edge) in trace.edges.enumerated() {
            while markIndex < marks.count, marks[markIndex].edgeIndex <= index {
                apply(marks[markIndex])
                markIndex += 1
            }
            if !kernelEvents, levels.level(of: edge.line) == edge.level { continue }
            levels = levels.setting(edge.line, to: edge.level)
            edges.append(GPIOEdge(timeNanoseconds: edge.timeNanoseconds, line: edge.line == .a ? .a : .b, rising: edge.level))
        }
        for mark in marks[markIndex...] { apply(mark) }
        out += interpreter.feed(edges)
        return out
    }
}
