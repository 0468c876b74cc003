extension ControlEvent {
    /// Writes the event's message without its seq — `{"class":"…","seq":` then `,…,"time":…}\n` —
    /// and returns where the seq's digits go: the fields of ``fields`` in their order, each
    /// number as ``JSONValue/encode(into:)`` writes it (checked against it in the tests).
    func writeWire(into out: inout ByteWriter) -> Int {
        switch self {
        case .tempo(let bpm, let value, let phase, _):
            out.write(#"{"class":"tempo","seq":"#)
            let seqIndex = out.count
            if bpm.isWhole { out.field(#","bpm":"#, bpm.tenths / 10) } else { out.field(#","bpm":"#, bpm.value) }
            out.field(#","value":"#, value)
            out.field(#","phase":"#, name: phase.wireName)
            return end(seqIndex, &out)
        case .volume(let volume, let phase, _):
            out.write(#"{"class":"volume","seq":"#)
            let seqIndex = out.count
            out.field(#","volume":"#, volume)
            out.field(#","phase":"#, name: phase.wireName)
            return end(seqIndex, &out)
        case .scrub(let phase, let position, let duration, let origin, _):
            out.write(#"{"class":"scrub","seq":"#)
            let seqIndex = out.count
            out.field(#","phase":"#, name: phase.wireName)
            out.field(#","position":"#, Self.round(position))
            out.field(#","duration":"#, duration)
            out.field(#","origin":"#, Self.round(origin))
            return end(seqIndex, &out)
        case .mode(let control, _):
            out.write(#"{"class":"mode","seq":"#)
            let seqIndex = out.count
            out.field(#","mode":"#, name: control.wireName)
            return end(seqIndex, &out)
        case .navigate(let steps, _):
            out.write(#"{"class":"navigate","seq":"#)
            let seqIndex = out.count
            out.field(#","steps":"#, steps)
            return end(seqIndex, &out)
        case .hint(let control, let direction, let peak, let duration, _):
            out.write(#"{"class":"hint","seq":"#)
            let seqIndex = out.count
            out.field(#","control":"#, name: control.wireName)
            out.field(#","direction":"#, direction)
            out.field(#","peak":"#, Self.round(peak))
            out.field(#","duration":"#, Self.round(duration))
            return end(seqIndex, &out)
        case .frame(let control, let value, let offset, let velocity, _):
            out.write(#"{"class":"frame","seq":"#)
            let seqIndex = out.count
            out.field(#","control":"#, name: control.wireName)
            out.field(#","value":"#, Self.round(value))
            out.field(#","offset":"#, Self.round(offset))
            out.field(#","velocity":"#, Self.round(velocity))
            return end(seqIndex, &out)
        case .switchFrame(let position, let offset, let velocity, _):
            out.write(#"{"class":"frame","seq":"#)
            let seqIndex = out.count
            out.field(#","control":"#, name: #""mode""#)
            out.field(#","value":"#, Self.round(position))
            out.field(#","offset":"#, Self.round(offset))
            out.field(#","velocity":"#, Self.round(velocity))
            return end(seqIndex, &out)
        }
    }

    /// The time and the end of the line; returns `seqIndex`.
    @inline(__always)
    private func end(_ seqIndex: Int, _ out: inout ByteWriter) -> Int {
        out.write(#","time":"#)
        out.writeSeconds(timeNanoseconds)
        out.write("}\n")
        return seqIndex
    }
}

extension ByteWriter {
    /// `key` (`,"name":`) and an integer.
    @inline(__always)
    mutating func field(_ key: StaticString, _ value: Int) {
        write(key)
        writeDecimal(value)
    }

    /// `key` and a number.
    mutating func field(_ key: StaticString, _ value: Double) {
        write(key)
        writeDouble(value)
    }

    /// `key` and a name, quoted (a ``DialPhase/wireName`` or the like).
    @inline(__always)
    mutating func field(_ key: StaticString, name quotedName: StaticString) {
        write(key)
        write(quotedName)
    }
}

extension DialPhase {
    /// ``rawValue`` quoted, as the bytes an event's encoding copies.
    var wireName: StaticString {
        switch self {
        case .began: return #""began""#
        case .moved: return #""moved""#
        case .settled: return #""settled""#
        case .set: return #""set""#
        case .tap: return #""tap""#
        }
    }
}

extension Scrubber.Phase {
    /// ``rawValue`` quoted, as the bytes an event's encoding copies.
    var wireName: StaticString {
        switch self {
        case .began: return #""began""#
        case .moved: return #""moved""#
        case .committed: return #""committed""#
        case .cancelled: return #""cancelled""#
        }
    }
}

extension Control {
    /// ``rawValue`` quoted, as the bytes an event's encoding copies.
    var wireName: StaticString {
        switch self {
        case .tempo: return #""tempo""#
        case .scrub: return #""scrub""#
        case .volume: return #""volume""#
        case .navigate: return #""navigate""#
        }
    }
}
