import Glibc

/// A mixer element's volume on the scale `alsamixer` shows (alsa-utils' volume_mapping.c): from
/// the element's dB range, linear in dB when the range is at most 24 dB, else cubic — the
/// perceptual volume is 10^((dB − max) / 60 dB), rescaled so the range's bottom is 0 (unless the
/// bottom is a mute) — and linear in the raw value when the element says nothing of dB.
/// Decibels are hundredths of a dB, as ALSA's TLVs give them.
struct ALSAVolumeScale: Equatable {
    /// How raw values become decibels (from the element's TLV).
    enum Curve: Equatable {
        /// `SNDRV_CTL_TLVT_DB_SCALE`: `min` at the lowest raw value, `step` more at each; the lowest is a mute when `muteAtMin`.
        case steps(min: Int, step: Int, muteAtMin: Bool)
        /// `SNDRV_CTL_TLVT_DB_MINMAX` (`_MUTE`: the lowest raw value is a mute): `min` to `max`, linear in the raw value.
        case minMax(min: Int, max: Int, muteAtMin: Bool)
        /// No dB information this scale understands: the raw value, linearly.
        case raw
    }

    /// ALSA's "muted" gain (`SND_CTL_TLV_DB_GAIN_MUTE`), in hundredths of a dB.
    static let mute = -9_999_999
    /// The widest dB range mapped linearly (24 dB).
    static let maximumLinearRange = 2_400

    let rawRange: ClosedRange<Int>
    let curve: Curve

    init(raw: ClosedRange<Int>, curve: Curve) {
        rawRange = raw
        self.curve = curve
    }

    /// The scale from the element's TLV words (type, length in bytes, value…; a container's
    /// items are searched for the first dB item).
    init(raw: ClosedRange<Int>, tlv: [UInt32]) {
        self.init(raw: raw, curve: Self.curve(tlv[...]) ?? .raw)
    }

    static func curve(_ words: ArraySlice<UInt32>) -> Curve? {
        var rest = words
        while rest.count >= 2 {
            let type = rest[rest.startIndex]
            let count = min(Int(rest[rest.startIndex + 1]) / 4, rest.count - 2)
            let value = rest.dropFirst(2).prefix(count)
            let signed = value.map { Int(Int32(bitPattern: $0)) }
            switch type {
            case 0: if let inner = curve(value) { return inner }  // SNDRV_CTL_TLVT_CONTAINER
            case 1 where signed.count >= 2:  // DB_SCALE
                return .steps(min: signed[0], step: Int(value[value.startIndex + 1] & 0xffff), muteAtMin: value[value.startIndex + 1] & 0x10000 != 0)
            case 4 where signed.count >= 2: return .minMax(min: signed[0], max: signed[1], muteAtMin: false)
            case 5 where signed.count >= 2: return .minMax(min: signed[0], max: signed[1], muteAtMin: true)
            default: break
            }
            rest = rest.dropFirst(2 + count)
        }
        return nil
    }

    /// The dB range as alsa-lib reports it (`snd_tlv_get_dB_range`): nil without dB information.
    var decibelRange: (min: Int, max: Int)? {
        let span = rawRange.upperBound - rawRange.lowerBound
        switch curve {
        case .steps(let low, let step, let muteAtMin): return (muteAtMin ? Self.mute : low, low + step * span)
        case .minMax(let low, let high, _): return (low, high)
        case .raw: return nil
        }
    }

    /// The gain at raw value `raw`.
    func decibels(raw: Int) -> Int? {
        let raw = min(max(raw, rawRange.lowerBound), rawRange.upperBound)
        let offset = raw - rawRange.lowerBound
        let span = rawRange.upperBound - rawRange.lowerBound
        switch curve {
        case .steps(let low, let step, let muteAtMin): return offset == 0 && muteAtMin ? Self.mute : low + step * offset
        case .minMax(let low, let high, let muteAtMin):
            if offset == 0 && muteAtMin { return Self.mute }
            return span == 0 ? low : low + (high - low) * offset / span
        case .raw: return nil
        }
    }

    /// The raw value nearest gain `decibels`.
    func raw(decibels: Int) -> Int {
        let span = rawRange.upperBound - rawRange.lowerBound
        let (low, high): (Int, Int)
        switch curve {
        case .steps(let bottom, let step, _): (low, high) = (bottom, bottom + step * span)
        case .minMax(let bottom, let top, _): (low, high) = (bottom, top)
        case .raw: return rawRange.lowerBound
        }
        guard high > low, decibels > low else { return rawRange.lowerBound }
        if decibels >= high { return rawRange.upperBound }
        return rawRange.lowerBound + ((decibels - low) * span + (high - low) / 2) / (high - low)
    }

    /// The perceptual volume (0…1) of raw value `raw` (volume_mapping.c's get_normalized_volume).
    func perceptual(raw: Int) -> Double {
        let span = Double(rawRange.upperBound - rawRange.lowerBound)
        guard let (low, high) = decibelRange, low < high, let gain = decibels(raw: raw) else {
            return span == 0 ? 0 : Double(min(max(raw, rawRange.lowerBound), rawRange.upperBound) - rawRange.lowerBound) / span
        }
        if high - low <= Self.maximumLinearRange { return Double(gain - low) / Double(high - low) }
        var normalized = pow(10, Double(gain - high) / 6000)
        if low != Self.mute {
            let bottom = pow(10, Double(low - high) / 6000)
            normalized = (normalized - bottom) / (1 - bottom)
        }
        return min(max(normalized, 0), 1)
    }

    /// The raw value for perceptual volume `volume` (0…1) (volume_mapping.c's set_normalized_volume,
    /// rounding to the nearest).
    func raw(perceptual volume: Double) -> Int {
        let volume = min(max(volume, 0), 1)
        guard let (low, high) = decibelRange, low < high else {
            return Int(lrint(volume * Double(rawRange.upperBound - rawRange.lowerBound))) + rawRange.lowerBound
        }
        if high - low <= Self.maximumLinearRange { return raw(decibels: Int(lrint(volume * Double(high - low))) + low) }
        var amplitude = volume
        if low != Self.mute {
            let bottom = pow(10, Double(low - high) / 6000)
            amplitude = volume * (1 - bottom) + bottom
        }
        guard amplitude > 0 else { return rawRange.lowerBound }
        return raw(decibels: Int(lrint(6000 * log10(amplitude))) + high)
    }

    /// The raw value for a volume in percent (0…100).
    func raw(percent: Int) -> Int { raw(perceptual: Double(percent) / 100) }

    /// The volume in percent (0…100) of raw value `raw`, rounded.
    func percent(raw: Int) -> Int { Int(lrint(perceptual(raw: raw) * 100)) }
}
