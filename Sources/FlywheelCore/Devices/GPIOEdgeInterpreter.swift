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
/// quadrature decoder for the knob, a software debounce for the button (libgpiod 1.6 has none;
/// 2.x's kernel debounce stamps an edge when the line has settled, so it stays in software on both).
///
/// Each kernel event is one edge, that is one toggle of its line, and is counted as such. Its
/// rising/falling label is not used: the kernel reads the line when it handles the interrupt, so
/// while a contact bounces the labels lag (two edges can carry one label). What a toggle count can
/// miss — an edge the interrupt controller merged away — the backend corrects with the levels it
/// reads back from the lines at a quiet moment (``reconcile(levels:at:)``). Lost events are reported,
/// not guessed at: when the kernel dropped events (libgpiod 2: a gap in a line's sequence numbers;
/// 1.6: a line's read returned the kernel's whole 16-event buffer), ``overflow(levels:at:)`` gives
/// one `gap` and restarts the decoder from the levels read back.
public struct GPIOEdgeInterpreter: Sendable {
    /// Quarter steps per detent.
    public let stepsPerDetent: StepsPerDetent
    /// The button's debounce: a level must hold this long to count (default 5 ms).
    public var buttonDebounceNanoseconds: Nanoseconds
    /// The code button events carry (BTN_0).
    package var buttonCode: UInt16 = KeyCode.btn0
    /// Whether a low level means pressed (a switch to ground with a pull-up).
    package var buttonActiveLow = true

    var decoder: QuadratureDecoder
    let rest: QuadratureLevels?
    var buttonLevel: Bool
    var buttonChangedAt: Nanoseconds?
    var buttonReportedPressed: Bool
    var reconciledAt: Nanoseconds = .min
    var edgesSeen = 0
    /// Gaps reported so far.
    package private(set) var gaps = 0
    /// Read-backs that differed from the toggles counted (an edge was merged away).
    package private(set) var corrections = 0
    /// Net detents so far.
    public var detents: DetentCount { decoder.detents + detentsBeforeGaps }
    var detentsBeforeGaps: DetentCount = 0

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

    /// Feeds edges in time order; edges with the same timestamp change the levels together (an
    /// invalid double step when both A and B change).
    public mutating func feed(_ edges: [GPIOEdge]) -> [DeviceInput] {
        var out: [DeviceInput] = []
        var index = 0
        while index < edges.count {
            let time = edges[index].timeNanoseconds
            out += expire(at: time - 1)
            var next = decoder.levels
            while index < edges.count, edges[index].timeNanoseconds == time {
                let edge = edges[index]
                index += 1
                // An edge older than the last read-back arrived late: that read-back already has it.
                if edge.timeNanoseconds <= reconciledAt { continue }
                edgesSeen += 1
                switch edge.line {
                case .a, .b:
                    let line: QuadratureLine = edge.line == .a ? .a : .b
                    next = next.setting(line, to: !next.level(of: line))
                case .button:
                    buttonLevel.toggle()
                    buttonChangedAt = time
                }
            }
            if next != decoder.levels {
                let fired = decoder.feed(next)
                if fired != 0 { out.append(DeviceInput(.knob(detents: Double(fired.count)), at: time)) }
            }
        }
        return out
    }

    /// The lines' levels read back at `time`, a quiet moment (no event pending): where they differ
    /// from the toggles counted, an edge was merged away, and the read-back is the truth; the decoder
    /// moves there as if the edge had come now. An edge stamped before `time` that arrives later was
    /// already in the read-back and is not counted again. `button` is the button line's level.
    public mutating func reconcile(levels actual: QuadratureLevels, button: Bool? = nil, at time: Nanoseconds) -> [DeviceInput] {
        var out: [DeviceInput] = []
        reconciledAt = max(reconciledAt, time)
        if let button, button != buttonLevel {
            corrections += 1
            buttonLevel = button
            buttonChangedAt = time
        }
        guard actual != decoder.levels else { return out }
        corrections += 1
        let fired = decoder.feed(actual)
        if fired != 0 { out.append(DeviceInput(.knob(detents: Double(fired.count)), at: time)) }
        return out
    }

    /// The lines' levels once they have settled after the request (pull-ups charged). Before any
    /// edge the decoder simply starts there (nothing moved); after edges it is a read-back.
    public mutating func settle(levels actual: QuadratureLevels, button: Bool?, at time: Nanoseconds) {
        if edgesSeen == 0 {
            decoder = QuadratureDecoder(stepsPerDetent: stepsPerDetent, initial: actual, rest: rest ?? decoder.rest)
            if let button {
                buttonLevel = button
                buttonReportedPressed = buttonActiveLow ? !button : button
            }
            reconciledAt = max(reconciledAt, time)
        } else {
            _ = reconcile(levels: actual, button: button, at: time)
        }
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
