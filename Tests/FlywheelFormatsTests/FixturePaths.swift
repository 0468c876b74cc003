import Glibc
import Testing

/// Where test fixtures live, found from this source file's path.
enum FixturePaths {
    /// The repository root.
    static let root: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    /// This test target's own fixtures.
    static func local(_ name: String) -> String { root + "/Tests/FlywheelFormatsTests/Fixtures/" + name }

    /// `../shared/fixtures` beside the checkout, when present.
    static let shared: String = root + "/../shared/fixtures"

    static func exists(_ path: String) -> Bool { access(path, R_OK) == 0 }

    /// Why a test of these recordings is skipped, in words a newcomer can act on.
    static let absent = Comment(rawValue: SharedFixtures.absentSentence)

    static var sharedPresent: Bool { exists(shared + "/quadrature-vcd") }
    static var touchPresent: Bool { exists(shared + "/touch-evemu") }
}
