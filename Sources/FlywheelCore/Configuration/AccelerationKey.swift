/// The `acceleration` key of `controls.<control>` and `devices[]`: a preset name (`"off"`,
/// `"gentle"`, `"strong"`) or `{ curve: [[SPEED, FACTOR], …] }` (``AccelerationCurve``).
enum AccelerationKey {
    /// The curve `key` of `reader` gives, or nil when it is not there.
    static func curve(_ reader: ConfigReader, _ key: String) throws(FileLineError) -> AccelerationCurve? {
        guard let field = reader.value(key) else { return nil }
        let expected = "must be \(AccelerationCurve.presetNames.map { "\"\($0)\"" }.joined(separator: ", ")) or { curve: [[SPEED, FACTOR], …] } (detents per second, steps per detent)"
        if let name = field.stringValue {
            guard let preset = AccelerationCurve.preset(name) else { throw reader.fail(key, "\(expected), got \"\(name)\"") }
            return preset
        }
        guard case .object = field else { throw reader.fail(key, "\(expected), got \(field.encoded())") }
        let object = reader.child(key)
        object.only(FlywheelConfiguration.keys["acceleration"]!)
        guard let list = object.value("curve") else {
            throw object.missing("curve", line: reader.line(key), "give [[SPEED, FACTOR], …]")
        }
        guard case .array(let items) = list else { throw object.fail("curve", "must be a list of [SPEED, FACTOR] pairs, got \(list.encoded())") }
        guard !items.isEmpty else { throw object.fail("curve", "is empty: write acceleration: \"off\" for one step a detent at any speed") }
        var points: [AccelerationCurve.Point] = []
        for item in items {
            guard case .array(let pair) = item, pair.count == 2, let speed = pair[0].doubleValue, let factor = pair[1].doubleValue else {
                throw object.fail("curve", "must be a list of [SPEED, FACTOR] pairs of numbers, got \(item.encoded())")
            }
            points.append(AccelerationCurve.Point(speed: speed, factor: factor))
        }
        if let problem = AccelerationCurve.problem(with: points) { throw object.fail("curve", problem) }
        return AccelerationCurve(points: points)
    }

    /// A device's `inertia` and `acceleration`. `acceleration: true/false` is the old name of
    /// `inertia` (until issue 34): accepted for one release, with a notice naming the new key, and
    /// meaning what it meant: `false`, every detent exactly one step (no inertia, no acceleration).
    static func device(_ device: ConfigReader, notices: inout [ConfigurationNotice]) throws(FileLineError) -> (inertia: Bool, acceleration: AccelerationCurve?) {
        if case .bool(let old)? = device.value("acceleration") {
            if device.value("inertia") != nil {
                throw device.fail("acceleration", "is the old name of 'inertia' (\(old)): give only 'inertia'; 'acceleration' now takes a curve")
            }
            let same = old ? "inertia: true" : "inertia: false, acceleration: \"off\""
            notices.append(ConfigurationNotice(
                key: device.keyPath("acceleration"),
                message: "as true or false is the old name of 'inertia': write \(same) for the same; the old form is accepted until the next release, and 'acceleration' now takes a curve (\"off\", \"gentle\", \"strong\" or { curve: [[SPEED, FACTOR], …] })"))
            return (old, old ? nil : .off)
        }
        return (try device.bool("inertia", default: true), try curve(device, "acceleration"))
    }
}

/// Something in a configuration that works but should change (an old key's new name), with the
/// key it is about.
public struct ConfigurationNotice: Sendable, Hashable {
    /// The key path, such as `devices[0].acceleration`.
    public var key: String
    /// What to do, as the rest of a sentence after the key.
    public var message: String
}
