@testable import FlywheelCore
import Testing

/// udev/flywheel.json5, which the README calls a configuration "with every setting commented": it
/// shows every key flywheeld takes (it had no `controls.volume` at all), and parses as it is.
@Suite("The example configuration")
struct ExampleConfigurationTests {
    static let text = RepositoryPaths.read(RepositoryPaths.path("udev/flywheel.json5")) ?? ""

    /// The words written as a key (`word:`), in the text or its comments.
    static func keysShown(in text: String) -> Set<String> {
        var keys: Set<String> = []
        var word = ""
        for character in text {
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
                continue
            }
            if character == ":", !word.isEmpty, !(word.first?.isNumber ?? true) { keys.insert(word) }
            word = ""
        }
        return keys
    }

    @Test("every key of every section the daemon takes is shown in the example, commented or not")
    func everyKey() {
        #expect(!Self.text.isEmpty, "udev/flywheel.json5 is missing")
        let shown = Self.keysShown(in: Self.text)
        for (section, keys) in FlywheelConfiguration.keys.sorted(by: { $0.key < $1.key }) {
            let missing = keys.filter { !shown.contains($0) }
            #expect(missing.isEmpty, "udev/flywheel.json5 does not show \(missing) of '\(section.isEmpty ? "the top level" : section)'")
        }
    }

    @Test("the example parses as it is")
    func parses() throws {
        _ = try FlywheelConfiguration.parse(Array(Self.text.utf8), file: "udev/flywheel.json5")
    }
}
