import Testing
@testable import FlywheelCore

@Suite("Configuration: the scrub's commit policy")
struct ScrubCommitConfigurationTests {
    static func core(_ text: String) throws -> DaemonCore {
        let config = try FlywheelConfiguration.parse(Array(text.utf8), file: "f.json5")
        return DaemonCore(configuration: config, scrubDurationSeconds: 214)
    }

    /// A knob click on the scrub, then the core run until it rests: the scrub's final phase.
    static func clickPhase(_ core: inout DaemonCore) -> String? {
        var messages = core.knob(by: 1, at: 0, route: .pinned(.scrub))
        while let deadline = core.nextDeadline { messages += core.advance(to: deadline) }
        return messages.compactMap { message -> String? in
            guard message.messageClass == .scrub else { return nil }
            let text = String(decoding: message.bytesWithoutSeq, as: UTF8.self)
            return ["committed", "cancelled"].first { text.contains("\"phase\":\"\($0)\"") }
        }.last
    }

    @Test("absent, the input kind decides: a knob commits on rest, a touch is armed")
    func byKind() throws {
        var core = try Self.core("{}")
        #expect(core.scrub.knobCommit == .onRest && core.scrub.touchCommit == .armed)
        #expect(Self.clickPhase(&core) == "committed")
    }

    @Test("commit: 'armed' arms every input: a quick knob click is cancelled")
    func armed() throws {
        var core = try Self.core("{ controls: { scrub: { commit: 'armed' } } }")
        #expect(core.scrub.knobCommit == .armed && core.scrub.touchCommit == .armed)
        #expect(Self.clickPhase(&core) == "cancelled")
        let onRest = try Self.core("{ controls: { scrub: { commit: 'on-rest' } } }")
        #expect(onRest.scrub.knobCommit == .onRest && onRest.scrub.touchCommit == .onRest)
    }

    @Test("an unknown policy is named with its line and key")
    func unknown() {
        do throws(FileLineError) {
            _ = try FlywheelConfiguration.parse(Array("{ controls: { scrub: { commit: 'later' } } }".utf8), file: "f.json5")
            Issue.record("accepted")
        } catch {
            #expect(error.description == "f.json5 line 1: key 'controls.scrub.commit' must be one of \"armed\", \"on-rest\", got \"later\".")
        }
    }
}
