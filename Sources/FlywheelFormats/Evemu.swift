import FlywheelCore

/// An evemu recording: an optional device description (`N:`, `I:`, `P:`, `B:`, `A:` lines)
/// and events (`E: <sec>.<usec> <type hex> <code hex> <value>`), as `evemu-record` writes them.
public struct EvemuRecording: Hashable, Sendable {
    /// Range and resolution of one absolute axis (`A:` line).
    public struct AbsoluteAxis: Hashable, Sendable {
        /// `ABS_*` code.
        public var code: UInt16
        public var minimum: Int32
        public var maximum: Int32
        public var fuzz: Int32
        public var flat: Int32
        public var resolution: Int32

        /// Creates an axis description.
        public init(code: UInt16, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
            self.code = code
            self.minimum = minimum
            self.maximum = maximum
            self.fuzz = fuzz
            self.flat = flat
            self.resolution = resolution
        }
    }

    /// Device name (`N:`), if given.
    public var name: String?
    /// Bus, vendor, product, version (`I:`), if given.
    public var bus: UInt16?
    public var vendor: UInt16?
    public var product: UInt16?
    public var version: UInt16?
    /// Input properties bitmask bytes (`P:`).
    public var properties: [UInt8] = []
    /// Capability bitmask bytes per event type (`B:` lines, continuation lines appended).
    public var capabilities: [UInt16: [UInt8]] = [:]
    /// Capability bytes a type may have: evdev codes end at KEY_MAX (0x2ff), 96 bytes of bits.
    public static let maximumCapabilityBytes = 96
    /// The largest event type (EV_MAX).
    public static let maximumEventType: UInt8 = 0x1f
    /// Absolute axes (`A:`), in file order.
    public var absoluteAxes: [AbsoluteAxis] = []
    /// Each absolute axis's value when the recording began, where its description comments give it
    /// (`#       Value      0`, as `evemu-record` writes them).
    public var recordedAbsoluteValues: [UInt16: Int32] = [:]
    /// The events, in order.
    public var events: [InputEvent] = []

    /// Creates an empty recording.
    public init() {}

    /// Whether the description says the device has `code` of event `type`.
    public func has(type: UInt16, code: UInt16) -> Bool {
        guard let bits = capabilities[type] else { return false }
        let byte = Int(code / 8)
        return byte < bits.count && bits[byte] & (1 << (code % 8)) != 0
    }

    /// Parses a recording; description and events may come in one file or in two read in turn
    /// (pass the description's result as `into`).
    public static func parse(_ bytes: [UInt8], file: String, into base: EvemuRecording = EvemuRecording()) throws(FileLineError) -> EvemuRecording {
        var recording = base
        var lastTime: Int64 = recording.events.last?.timeNanoseconds ?? .min
        var capabilityBytes: [UInt8: Int] = [:]  // per type, in this file
        var axisValues = EvemuAxisValues()
        for line in LineScanner(bytes: bytes) {
            func fail(_ problem: String) -> FileLineError { FileLineError(file: file, line: line.number, problem: problem) }
            var content = line.bytes
            if let hash = content.firstIndex(of: 0x23) {  // '#' comment
                if hash == content.startIndex, recording.events.isEmpty { axisValues.read(comment: line.text.dropFirst()) }
                content = content[content.startIndex..<hash]
            }
            let fields = content.fields()
            guard let tag = fields.first else { continue }
            switch tag.first {
            case 0x45 where tag.elementsEqual("E:".utf8):
                guard fields.count == 5 else {
                    throw fail("expected 'E: <sec>.<usec> <type hex> <code hex> <value>' but found \(line.bytes.quoted)")
                }
                guard let time = fields[1].decimalSecondsAsNanoseconds(maxFractionDigits: 9, exactFractionDigits: false) else {
                    throw fail("expected a time as <seconds>.<microseconds> but found \(fields[1].quoted)")
                }
                guard let type = hex16(fields[2]) else { throw fail("expected an event type in hex but found \(fields[2].quoted)") }
                guard let code = hex16(fields[3]) else { throw fail("expected an event code in hex but found \(fields[3].quoted)") }
                guard let value = signed32(fields[4]) else {
                    throw fail("expected a decimal event value but found \(fields[4].quoted)")
                }
                guard time >= lastTime else {
                    throw fail("expected event times in order but \(fields[1].quoted) is earlier than the event before")
                }
                lastTime = time
                recording.events.append(InputEvent(timeNanoseconds: time, type: type, code: code, value: value))
            case 0x4E where tag.elementsEqual("N:".utf8):
                let text = line.text
                recording.name = String(text.dropFirst(2).drop(while: { $0 == " " }))
            case 0x49 where tag.elementsEqual("I:".utf8):
                let numbers = fields.dropFirst().map(hex16)
                guard numbers.count == 4, numbers.allSatisfy({ $0 != nil }) else {
                    throw fail("expected 'I: <bus> <vendor> <product> <version>' in hex but found \(line.bytes.quoted)")
                }
                (recording.bus, recording.vendor, recording.product, recording.version) =
                    (numbers[0], numbers[1], numbers[2], numbers[3])
            case 0x50 where tag.elementsEqual("P:".utf8):
                for field in fields.dropFirst() {
                    guard let byte = hex8(field) else { throw fail("expected property bytes in hex but found \(field.quoted)") }
                    recording.properties.append(byte)
                }
            case 0x42 where tag.elementsEqual("B:".utf8):
                guard fields.count >= 2, let type = hex8(fields[1]) else {
                    throw fail("expected 'B: <type hex> <bytes…>' but found \(line.bytes.quoted)")
                }
                guard type <= EvemuRecording.maximumEventType else {
                    throw fail("the event type 0x\(String(type, radix: 16)) is past EV_MAX (0x1f)")
                }
                for field in fields.dropFirst(2) {
                    guard let byte = hex8(field) else { throw fail("expected capability bytes in hex but found \(field.quoted)") }
                    capabilityBytes[type, default: 0] += 1
                    guard capabilityBytes[type]! <= EvemuRecording.maximumCapabilityBytes else {
                        throw fail("more than \(EvemuRecording.maximumCapabilityBytes) capability bytes for type 0x\(String(type, radix: 16)) (evdev codes end at KEY_MAX, 0x2ff)")
                    }
                    recording.capabilities[UInt16(type), default: []].append(byte)
                }
            case 0x41 where tag.elementsEqual("A:".utf8):
                guard fields.count == 6 || fields.count == 7, let code = hex16(fields[1]) else {
                    throw fail("expected 'A: <code hex> <min> <max> <fuzz> <flat> [<resolution>]' but found \(line.bytes.quoted)")
                }
                var numbers: [Int32] = []
                for field in fields.dropFirst(2) {
                    guard let number = signed32(field) else { throw fail("expected a decimal axis value but found \(field.quoted)") }
                    numbers.append(number)
                }
                recording.absoluteAxes.append(
                    AbsoluteAxis(
                        code: code, minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
                        resolution: numbers.count > 4 ? numbers[4] : 0))
            default:
                throw fail("expected an 'E:', 'N:', 'I:', 'P:', 'B:', 'A:' or '#' line but found \(line.bytes.quoted)")
            }
        }
        recording.recordedAbsoluteValues.merge(axisValues.values) { _, new in new }
        return recording
    }

    /// The recording as evemu text (description first when there is one), which ``parse(_:file:into:)`` reads back.
    public func text() -> String {
        var out = "# EVEMU 1.3\n"
        if !recordedAbsoluteValues.isEmpty {  // as evemu-record's description comments
            out += "#   Event type 3 (EV_ABS)\n"
            for code in recordedAbsoluteValues.keys.sorted() {
                out += "#     Event code \(code)\n#       Value \(recordedAbsoluteValues[code]!)\n"
            }
        }
        if let name { out += "N: \(name)\n" }
        if let bus, let vendor, let product, let version {
            out += "I: \(hex(bus, 4)) \(hex(vendor, 4)) \(hex(product, 4)) \(hex(version, 4))\n"
        }
        if !properties.isEmpty { out += "P: " + properties.map { hex($0, 2) }.joined(separator: " ") + "\n" }
        for type in capabilities.keys.sorted() {
            let bytes = capabilities[type]!
            var offset = 0
            repeat {
                let chunk = bytes[offset..<min(offset + 8, bytes.count)]
                out += "B: \(hex(type, 2)) " + chunk.map { hex($0, 2) }.joined(separator: " ") + "\n"
                offset += 8
            } while offset < bytes.count
        }
        for axis in absoluteAxes {
            out += "A: \(hex(axis.code, 2)) \(axis.minimum) \(axis.maximum) \(axis.fuzz) \(axis.flat) \(axis.resolution)\n"
        }
        for event in events { out += Self.line(for: event) }
        return out
    }

    /// One event's `E:` line, with its newline (`flywheel record` streams these).
    public static func line(for event: InputEvent) -> String {
        let micros = (event.timeNanoseconds / 1000)
        let usec = String(micros % 1_000_000)
        return "E: \(micros / 1_000_000).\(String(repeating: "0", count: 6 - usec.count))\(usec) "
            + "\(hex(event.type, 4)) \(hex(event.code, 4)) \(event.value)\n"
    }

    /// A recording's header for a live device: name, ids, capability bitmasks and axis ranges.
    public init(describing device: InputDeviceDescription) {
        self.init()
        name = device.name
        (bus, vendor, product, version) = (device.bus, device.vendor, device.product, device.version)
        var bits: [UInt16: [UInt8]] = [EventType.syn: [0]]
        func set(_ type: UInt16, _ code: UInt16) {
            var bytes = bits[type] ?? []
            let index = Int(code / 8)
            if bytes.count <= index { bytes += [UInt8](repeating: 0, count: index + 1 - bytes.count) }
            bytes[index] |= 1 << (code % 8)
            bits[type] = bytes
        }
        set(EventType.syn, SynCode.report)
        for (type, codes) in device.codes {
            set(EventType.syn, type)
            for code in codes { set(type, code) }
        }
        capabilities = bits
        absoluteAxes = device.absoluteRanges.keys.sorted().map { code in
            AbsoluteAxis(code: code, minimum: device.absoluteRanges[code]!.lowerBound, maximum: device.absoluteRanges[code]!.upperBound)
        }
    }
}

private func hex<T: BinaryInteger>(_ value: T, _ width: Int) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

private func hexValue(_ field: ArraySlice<UInt8>, maxDigits: Int) -> UInt32? {
    var digits = field
    if digits.count > 2, digits.first == 0x30, digits.dropFirst().first == 0x78 { digits = digits.dropFirst(2) }  // 0x
    guard !digits.isEmpty, digits.count <= maxDigits else { return nil }
    var value: UInt32 = 0
    for byte in digits {
        let digit: UInt32
        switch byte {
        case 0x30...0x39: digit = UInt32(byte - 0x30)
        case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
        case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
        default: return nil
        }
        value = value << 4 | digit
    }
    return value
}

private func hex16(_ field: ArraySlice<UInt8>) -> UInt16? { hexValue(field, maxDigits: 4).map { UInt16($0) } }
private func hex8(_ field: ArraySlice<UInt8>) -> UInt8? { hexValue(field, maxDigits: 2).map { UInt8($0) } }

private func signed32(_ field: ArraySlice<UInt8>) -> Int32? {
    let negative = field.first == 0x2D
    guard let magnitude = (negative ? field.dropFirst() : field).unsignedDecimal(), magnitude <= Int64(Int32.max) + 1 else {
        return nil
    }
    let value = negative ? -magnitude : magnitude
    return Int32(exactly: value)
}
