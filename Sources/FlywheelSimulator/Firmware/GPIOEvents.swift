import FlywheelCore

/// What libgpiod reports for the A/B lines: the contact edges, timestamped by the kernel a
/// little after they happened.
public enum GPIOEvents {
    /// The edges with kernel timestamps: each edge's time plus an interrupt latency drawn from
    /// `latency`, kept in order and strictly increasing (an edge whose interrupt would be
    /// stamped no later than the previous one's is stamped 1 ns after it, as one interrupt
    /// handler runs after another). Every edge is kept: no coalescing is modelled.
    public static func kernelTimestamped(
        _ trace: QuadratureTrace, latency: ClosedRange<Nanoseconds>, random: inout SeededGenerator
    ) -> QuadratureTrace {
        var edges = trace.edges
        var previous = Nanoseconds.min
        for i in edges.indices {
            var stamped = edges[i].timeNanoseconds + random.uniform(latency)
            if previous != .min, stamped <= previous { stamped = previous + 1 }
            edges[i].timeNanoseconds = stamped
            previous = stamped
        }
        return QuadratureTrace(initial: trace.initial, edges: edges)
    }
}

/// The gpio-keys driver for a push switch wired to a GPIO: an `EV_KEY` and `SYN_REPORT` per
/// debounced change.
public enum GPIOKeys {
    /// evdev events for debounced button changes.
    public static func events(for debounced: [ButtonEdge]) -> [InputEvent] {
        var events: [InputEvent] = []
        for edge in debounced {
            events.append(
                InputEvent(timeNanoseconds: edge.timeNanoseconds, type: EventType.key, code: edge.code, value: edge.pressed ? 1 : 0))
            events.append(.synReport(at: edge.timeNanoseconds))
        }
        return events
    }
}
