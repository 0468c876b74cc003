
extension DeviceProfile {
    /// What the device classifier needs from this profile: how to recognise the device and how
    /// many evdev counts make a detent. The same file feeds the simulator and the live backends.
    public var hint: DeviceProfileHint {
        let report: DeviceProfileHint.Report
        switch self.report {
        case .gpio: report = .gpio
        case .shuttleCounter: report = .shuttleCounter
        case .hiresWheel: report = .highResolutionWheel
        case .powermateDial, .rotaryEncoderRelative: report = .relativeDelta(code: axis?.code ?? RelCode.dial)
        case .rotaryEncoderAbsolute: report = .absoluteAxis(code: axis?.code ?? AbsCode.x)
        }
        return DeviceProfileHint(
            id: id, kind: kind, vendor: usb?.vendor, product: usb?.product, report: report,
            countsPerDetent: self.report.isKernelRotaryEncoder ? 1 : countsPerDetent ?? 1, buttons: buttons)
    }
}
