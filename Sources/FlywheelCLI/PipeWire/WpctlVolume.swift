/// `wpctl`'s volume, as flywheeld's 0…100. wpctl reads and sets the volume on the cubic scale
/// desktop sliders show (WirePlumber's mixer API with its `scale` set to cubic: `set-volume 0.5`
/// gives channel volumes of 0.125), so flywheeld's N is wpctl's N/100: 50 on the knob is the
/// desktop slider's 50 %.
enum WpctlVolume {
    /// `wpctl set-volume`'s argument for `volume` (0…100): "0.40".
    static func argument(_ volume: Int) -> String {
        let clamped = max(0, min(100, volume))
        return "\(clamped / 100).\(clamped % 100 < 10 ? "0" : "")\(clamped % 100)"
    }

    /// `wpctl get-volume`'s answer ("Volume: 0.40", "Volume: 0.40 [MUTED]"): the volume on
    /// flywheeld's scale and whether muted, or nil when it is not that.
    static func parse(_ text: String) -> (volume: Int, muted: Bool)? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Volume: ") }) else { return nil }
        let words = line.dropFirst("Volume: ".count).split(separator: " ")
        guard let first = words.first, let value = Double(first), value.isFinite, value >= 0 else { return nil }
        return (Int((value * 100).rounded()), words.contains("[MUTED]"))
    }
}
