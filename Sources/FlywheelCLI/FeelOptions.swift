import FlywheelDaemon
import FlywheelCore

/// The feel options shared by `plot` and `replay`: --friction K|preset, --damping Z|preset, --response S.
enum FeelOptions {
    static let usage = "[--friction K|standard|ios-normal|ios-fast] [--damping Z|standard|snappy|critical] [--response SECONDS]"

    static func parse(_ args: inout Arguments, base: FeelParameters = FeelParameters()) throws(ToolError) -> FeelParameters {
        var parameters = base
        if let text = try args.option("friction") {
            if let preset = Friction.preset(text) {
                parameters.friction = preset
            } else if let k = Double(text), k.isFinite, k > 0, k <= 1000 {
                parameters.friction = Friction(perSecond: k)
            } else {
                throw .usage("--friction takes a decay rate per second above 0 (at most 1000) or standard, ios-normal, ios-fast; not '\(text)'")
            }
        }
        if let text = try args.option("damping") {
            if let preset = SpringParameters.preset(text) {
                parameters.spring.damping = preset.damping
            } else if let z = Double(text), SpringParameters.acceptedDamping.contains(z) {
                parameters.spring.damping = z
            } else {
                throw .usage("--damping takes a ratio from 0.1 to 2 or standard, snappy, critical; not '\(text)'")
            }
        }
        if let text = try args.option("response") {
            guard let r = Double(text), SpringParameters.acceptedResponse.contains(r) else {
                throw .usage("--response takes seconds from 0.05 to 2, not '\(text)'")
            }
            parameters.spring.responseSeconds = r
        }
        return parameters
    }

    static func number(_ args: inout Arguments, _ name: String, default value: Double? = nil) throws(ToolError) -> Double? {
        guard let text = try args.option(name) else { return value }
        guard let number = Double(text), number.isFinite else { throw .usage("--\(name) takes a number, not '\(text)'") }
        return number
    }
}
