import FlywheelCore

/// What flywheeld says once when it starts serving (`--quiet` keeps it silent): where it listens,
/// what it serves, and how to see the events.
struct DaemonBanner: Sendable, Equatable {
    /// What feeds the controls.
    enum Input: Sendable, Equatable {
        /// A scenario through the firmware simulator (`--simulate`), looping or not.
        case scenario(String, loops: Bool)
        /// A recording (`--replay`).
        case recording(String, loops: Bool)
        /// The configured devices, as `name (where)`.
        case configured([String])
        /// Every knob found in the input folder (nothing configured).
        case discovered(inputDirectory: String)
        /// Nothing (`--no-devices`).
        case none

        init(options: DaemonOptions, playedPath: String?, devices: [FlywheelConfiguration.DeviceEntry]) {
            if options.simulate != nil, let playedPath {
                self = .scenario(playedPath, loops: options.loop)
            } else if let replay = options.replay {
                self = .recording(replay, loops: options.loop)
            } else if options.noDevices {
                self = .none
            } else if devices.isEmpty {
                self = .discovered(inputDirectory: options.inputDirectory)
            } else {
                self = .configured(devices.map { "\($0.name) (\(Self.place(of: $0)))" })
            }
        }

        /// Where a configured device is read: its node, or its GPIO lines.
        static func place(of device: FlywheelConfiguration.DeviceEntry) -> String {
            if let path = device.path { return path }
            if let gpio = device.gpio {
                let lines = "lines \(gpio.a),\(gpio.b)" + (gpio.button.map { ", button \($0)" } ?? "")
                switch gpio.chip {
                case .header: return "GPIO \(lines) on the Raspberry Pi header"
                case .named(let chip): return "GPIO \(chip) \(lines)"
                }
            }
            return "a --simulate scenario of profile \(device.profile)"
        }
    }

    /// The played timeline, as its end is said: "the scenario PATH", "the recording PATH".
    var playedName: String {
        switch input {
        case .scenario(let path, _): return "the scenario \(path)"
        case .recording(let path, _): return "the recording \(path)"
        case .configured, .discovered, .none: return "the input"
        }
    }

    /// The socket's path; nil when systemd passed the socket.
    var socket: String?
    var input: Input
    /// The scrub content's length until a client sets it (0: none yet).
    var scrubDurationSeconds: Double

    /// One line, for standard error.
    var sentence: String {
        let place = socket.map { "listening on \($0)" } ?? "listening on the socket systemd passed"
        let serving: String
        switch input {
        case .scenario(let path, let loops): serving = "playing the scenario \(path)" + (loops ? " again and again" : " once")
        case .recording(let path, let loops): serving = "playing the recording \(path)" + (loops ? " again and again" : " once")
        case .configured(let devices): serving = "reading \(devices.joined(separator: ", ")) when present"
        case .discovered(let folder): serving = "taking every knob it recognises in \(folder) as it appears"
        case .none: serving = "with no input (--no-devices): clients may still set, tap and watch"
        }
        let scrub = scrubDurationSeconds > 0 ? " (the scrub is \(Self.clock(scrubDurationSeconds)) long until a client sets it)" : ""
        let watch = socket.map { SocketLocation.clientDefault() == $0 ? "flywheel watch" : "flywheel watch --socket \($0)" } ?? "flywheel watch"
        return "\(place), \(serving)\(scrub); see the events with: \(watch)"
    }

    /// `m:ss` of whole seconds.
    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        let s = whole % 60
        return "\(whole / 60):\(s < 10 ? "0" : "")\(s)"
    }
}
