import Glibc
import Testing

/// `flywheeld --check-config` no longer calls a configuration of missing devices simply valid.
@Suite("flywheeld --check-config warnings")
struct CheckConfigWarningTests {
    @Test("a device node that is not there: valid, with a warning on standard error naming flywheel devices")
    func missingNode() {
        let path = DaemonConfigurationTests.write("{\n  devices: [\n    { profile: 'powermate', path: '/dev/input/flywheel-nothing-here' },\n  ],\n}\n")
        defer { DaemonConfigurationCheckTests.remove(path) }
        let run = DaemonConfigurationCheckTests.check(path)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.hasPrefix("flywheeld: warning: \(path) line 3: key 'devices[0].path' names /dev/input/flywheel-nothing-here, which does not exist now"), "\(run.err)")
        #expect(run.err.contains("`flywheel devices`"))
        #expect(run.out == "\(path): the configuration is valid (with the warnings above).\n")
    }

    @Test("A and B on one pin is refused")
    func sameLine() {
        let path = DaemonConfigurationTests.write("{\n  devices: [\n    { profile: 'ec11', gpio: { chip: 'gpiochip0', a: 17, b: 17 } },\n  ],\n}\n")
        defer { DaemonConfigurationCheckTests.remove(path) }
        let run = DaemonConfigurationCheckTests.check(path)
        #expect(run.status == 1)
        #expect(run.err.hasPrefix("flywheeld: \(path) line 3: key 'devices[0].gpio' gives the same line 17 for 'a' and 'b'"), "\(run.err)")
    }
}
