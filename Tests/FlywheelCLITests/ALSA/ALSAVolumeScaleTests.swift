@testable import FlywheelCLI
import Testing

/// The mixer volume on alsamixer's scale (alsa-utils' volume_mapping.c): for a dB range over 24 dB,
/// volume v maps to the gain 60 dB · log10(v · (1 − m) + m), m = 10^((min − max) / 60 dB), above
/// the range's top; at most 24 dB, linearly in dB; with no dB, linearly in the raw value. The
/// numbers are worked out by hand from that formula.
@Suite("ALSA volume scale")
struct ALSAVolumeScaleTests {
    /// snd-dummy's "Master Volume": raw −50…100, −45.00 dB at −50 in steps of 0.30 dB (0 dB at 100).
    let dummy = ALSAVolumeScale(raw: -50...100, tlv: [1, 8, UInt32(bitPattern: -4500), 30])

    @Test("a DB_SCALE TLV, bare or in a container, is read with its mute flag; others are not dB")
    func parsing() {
        #expect(dummy.curve == .steps(min: -4500, step: 30, muteAtMin: false))
        #expect(dummy.decibelRange! == (-4500, 0))
        let muted = ALSAVolumeScale(raw: 0...255, tlv: [0, 16, 1, 8, UInt32(bitPattern: -6350), UInt32(0x10000 | 25)])
        #expect(muted.curve == .steps(min: -6350, step: 25, muteAtMin: true))
        #expect(muted.decibelRange! == (ALSAVolumeScale.mute, -6350 + 25 * 255))
        #expect(muted.decibels(raw: 0) == ALSAVolumeScale.mute)
        #expect(ALSAVolumeScale(raw: 0...31, tlv: [5, 8, UInt32(bitPattern: -4650), 0]).curve == .minMax(min: -4650, max: 0, muteAtMin: true))
        #expect(ALSAVolumeScale(raw: 0...31, tlv: [0x101, 8, 3, 4]).curve == .raw)
        #expect(ALSAVolumeScale(raw: 0...31, tlv: [1, 8]).curve == .raw)  // cut short
        #expect(ALSAVolumeScale(raw: 0...31, tlv: []).curve == .raw)
    }

    @Test("a 45 dB range is cubic: 50 % is −13.80 dB (raw 54), 75 % −6.00 dB (80), 10 % −35.10 dB (−17), 25 % −24.98 dB (17)")
    func cubic() {
        // m = 10^(−0.75) = 0.177828; 50 %: 60·log10(0.5·0.822172 + 0.177828) = 60·log10(0.588914) = −13.797 dB → −1380;
        // (−1380 + 4500) / 30 = 104 steps above −50 → 54.
        #expect(dummy.raw(percent: 50) == 54)
        #expect(dummy.decibels(raw: 54) == -1380)
        // 75 %: 60·log10(0.794457) = −5.996 dB → −600 → 130 steps → 80.
        #expect(dummy.raw(percent: 75) == 80)
        // 10 %: 60·log10(0.260045) = −35.097 dB → −3510 → 33 steps → −17.
        #expect(dummy.raw(percent: 10) == -17)
        // 25 %: 60·log10(0.383371) = −24.983 dB → −2498 → 66.73 steps → 67 → 17.
        #expect(dummy.raw(percent: 25) == 17)
        #expect(dummy.raw(percent: 0) == -50)
        #expect(dummy.raw(percent: 100) == 100)
        // Back: raw 54 is (10^(−0.23) − m) / (1 − m) = 0.49991 → 50 %; raw 0 (−30 dB) is 0.16833 → 17 %.
        #expect(dummy.percent(raw: 54) == 50)
        #expect(dummy.percent(raw: 0) == 17)
        #expect(dummy.percent(raw: -50) == 0)
        #expect(dummy.percent(raw: 100) == 100)
    }

    @Test("a percent comes back as itself below 60 % (0.3 dB steps finer than a percent); above, each raw value does")
    func roundTrip() {
        // A step of 0.3 dB moves the volume by 0.0115 · (v · (1 − m) + m) / (1 − m): under 1 % below v = 0.65, 1.4 % at the top.
        for percent in 0...60 { #expect(dummy.percent(raw: dummy.raw(percent: percent)) == percent) }
        for raw in 80...100 { #expect(dummy.raw(percent: dummy.percent(raw: raw)) == raw) }
    }

    @Test("a range down to a mute is cubic without the rescaling: 50 % is −18.06 dB")
    func mutedBottom() {
        // raw 0…255, mute at 0, −63.50 dB at 1… in 0.25 dB steps (the top is 0.00 dB at 255): 60·log10(0.5) = −18.06 dB →
        // −1806 → (−1806 + 6350) / 25 = 181.76 → 182.
        let scale = ALSAVolumeScale(raw: 0...254, tlv: [1, 8, UInt32(bitPattern: -6350), UInt32(0x10000 | 25)])
        #expect(scale.raw(percent: 50) == 182)
        #expect(scale.raw(percent: 0) == 0)
        #expect(scale.percent(raw: 0) == 0)
        // raw 182 is −1800: 10^(−0.3) = 0.501 → 50 %.
        #expect(scale.percent(raw: 182) == 50)
    }

    @Test("a range of 24 dB or less is linear in dB; no dB is linear in the raw value")
    func linear() {
        // 0…24 in 1 dB steps from −24 dB: 50 % is −12 dB, raw 12; 33 % is −16.08 dB → raw 8 (7.92 rounded).
        let scale = ALSAVolumeScale(raw: 0...24, curve: .steps(min: -2400, step: 100, muteAtMin: false))
        #expect(scale.raw(percent: 50) == 12)
        #expect(scale.raw(percent: 33) == 8)
        #expect(scale.percent(raw: 6) == 25)
        let plain = ALSAVolumeScale(raw: 0...31, curve: .raw)
        #expect(plain.raw(percent: 50) == 16)  // 15.5 rounded to even by lrint
        #expect(plain.raw(percent: 10) == 3)
        #expect(plain.percent(raw: 31) == 100)
        #expect(plain.percent(raw: 8) == 26)
    }

    @Test("a simple control's elements: NAME Playback Volume, NAME Volume, then NAME; switches likewise")
    func candidates() {
        #expect(ALSABridge.candidates("Master").volume == ["Master Playback Volume", "Master Volume", "Master"])
        #expect(ALSABridge.candidates("Master").switch == ["Master Playback Switch", "Master Switch"])
        #expect(ALSABridge.candidates("PCM Playback Volume").switch == ["PCM Playback Switch", "PCM Switch"])
    }
}
