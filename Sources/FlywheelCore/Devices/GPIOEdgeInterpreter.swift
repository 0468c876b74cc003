/// One edge on a GPIO line, as the kernel timestamps it.
public struct GPIOEdge: Sendable, Hashable {
    /// Which line.
    public enum Line: Sendable, Hashable {
        case a, b, button
    }

    /// Kernel timestamp on the monotonic clock.
    public var timeNanoseconds: Nanoseconds
    /// The line.
    public var line: Line
    /// Rising (the line went high) or falling.
    public var rising: Bool

    /// Creates an edge.
    public init(timeNanoseconds: Nanoseconds, line: Line, rising: Bool) {
        self.timeNanoseconds = timeNanoseconds
        self.line = line
        self.rising = rising
    }
}

/// Turns an encoder's GPIO edges (A, B and an optional push button) into ``DeviceInput``: the
/// quadrature decoder for the knob, a software debounce for the button (libgpiod 1.6 has none).
///
/// Each kernel event is one edge, that is one toggle of its line. Its rising/falling label is the
/// level the kernel read when it handled the interrupt, so while a contact bounces the labels lag
/// (two edges can carry one label) and an edge can even be merged away by the interrupt controller.
/// So within a burst (edges on a line less than ``labelTrustNanoseconds`` apart) the edges are
/// counted as toggles, and the last edge of a burst sets the line to its label — the level after the
/// contact settled — which also corrects a merged edge instead of inverting the line for ever.
/// Lost events are reported, not guessed at: the backend says when a line's read returned the
/// kernel's whole 16-event buffer, and ``overflow(levels:at:)`` gives one `gap` and restarts the
/// decoder from the levels read back.
public struct GPIOEdgeInterpreter: Sendable {
    /// Quarter steps per detent.
    public let stepsPerDetent: StepsPerDetent
    /// The button's debounce: a level must hold this long to count (default 5 ms).
    public var buttonDebounceNanoseconds: Nanoseconds
    /// The code button events carry (BTN_0).
    public var buttonCode: UInt16 = KeyCode.btn0
    /// Whether a low level means pressed (a switch to ground with a pull-up).
    public var buttonActiveLow = true
    /// Edges on a line closer than this are one burst (contact bounce); the last edge's label is the
    /// settled level (1 ms).
    public var labelTrustNanoseconds: Nanoseconds = 1_000_000

    var decoder: QuadratureDecoder
    let rest: QuadratureLevels?
    var buttonLevel: Bool
    var buttonChangedAt: Nanoseconds?
    var buttonReportedPressed: Bool
    /// Gaps reported so far.
    public private(set) var gaps = 0
    /// Bursts whose settled label differed from the toggles counted (an edge was merged away).
    public private(set) var corrections = 0
    /// Net detents so far.
    public var detents: Int { decoder.detents + detentsBeforeGaps }
    var detentsBeforeGaps = 0

    /// Creates an interpreter for lines that start at `initial` (and a button line at `buttonLevel`).
    public init(
        stepsPerDetent: StepsPerDetent, initial: QuadratureLevels, rest: QuadratureLevels? = nil, buttonLevel: Bool = true,
        buttonDebounceNanoseconds: Nanoseconds = 5_000_000
    ) {
        self.stepsPerDetent = stepsPerDetent
        self.rest = rest
        self.decoder = QuadratureDecoder(stepsPerDetent: stepsPerDetent, initial: initial, rest: rest)
        self.buttonLevel = buttonLevel
        self.buttonReportedPressed = !buttonLevel
        self.buttonDebounceNanoseconds = buttonDebounceNanoseconds
    }

    /// The A/B levels the decoder is at.
    public var levels: QuadratureLevels { decoder.levels }

    /// The level a line goes to with this edge: a toggle within a burst, the label at its end.
    mutating func level(after edge: GPIOEdge, current: Bool, burstEnds: Bool) -> Bool {
        guard burstEnds else { return !current }
        if edge.rising == current { corrections += 1 }
        return edge.rising
    }

    /// Feeds edges in time order; edges with the same timestamp change the levels together (an
    /// invalid double step when both A and B change).
    public mutating func feed(_ edges: [GPIOEdge]) -> [DeviceInput] {
        var out: [DeviceInput] = []
        // Whether each edge is the last of its burst: no edge on its line follows within the trust window.
        var burstEnds = [Bool](repeating: true, count: edges.count)
        var following: [GPIOEdge.Line: Nanoseconds] = [:]
        for position in edges.indices.reversed() {
            let edge = edges[position]
            if let next = following[edge.line], next - edge.timeNanoseconds < labelTrustNanoseconds { burstEnds[position] = false }
            following[edge.line] = edge.timeNanoseconds
        }
        var index = 0
        while index < edges.count {
            let time = edges[index].timeNanoseconds
            out += expire(at: time - 1)
            var next = decoder.levels
            while index < edges.count, edges[index].timeNanoseconds == time {
                let edge = edges[index]
                let ends = burstEnds[index]
                index += 1
                switch edge.line {
                case .a, .b:
                    let line: QuadratureLine = edge.line == .a ? .a : .b
                    next = next.setting(line, to: level(after: edge, current: next.level(of: line), burstEnds: ends))
                case .button:
                    buttonLevel = level(after: edge, current: buttonLevel, burstEnds: ends)
                    buttonChangedAt = time
                }
            }
            if next != decoder.levels {
                let fired = decoder.feed(next)
                if fired != 0 { out.append(DeviceInput(.knob(detents: Double(fired)), at: time)) }
            }
        }
        return out
    }

    /// Edges were lost: one `gap`, and the decoder restarts at `levels` (read back from the lines).
    public mutating func overflow(levels: QuadratureLevels, at time: Nanoseconds) -> [DeviceInput] {
        gaps += 1
        detentsBeforeGaps += decoder.detents
        decoder = QuadratureDecoder(stepsPerDetent: stepsPerDetent, initial: levels, rest: rest ?? decoder.rest)
        return [DeviceInput(.gap(reason: "GPIO event buffer overflow"), at: time)]
    }

    /// When the button's level will have held for the debounce time, if it is settling.
    public var nextDeadline: Nanoseconds? { buttonChangedAt.map { $0 + buttonDebounceNanoseconds } }

    /// Time passed: a button level that held for the debounce time is reported.
    public mutating func expire(at time: Nanoseconds) -> [DeviceInput] {
        guard let deadline = nextDeadline, time >= deadline else { return [] }
        buttonChangedAt = nil
        let pressed = buttonLevel != buttonActiveLow
        guard pressed != buttonReportedPressed else { return [] }
        buttonReportedPressed = pressed
        return [DeviceInput(.button(code: buttonCode, pressed: pressed), at: deadline)]
    }
}
