import FlywheelCore
import FlywheelIO

extension ProfileLibrary {
    /// Why a configured device's `profile` cannot be used, as the end of a sentence about its key
    /// (nil: it can): no such profile (with the closest of the `known` ids, for a typo), or one
    /// that could not be read.
    public func problem(naming id: String, known: [String]? = nil) -> String? {
        let path = directories.map { $0 + "/" + id + ".profile" }.first(where: FileSystem.exists)
        guard path != nil else {
            let known = (known ?? all().map(\.id)).sorted()
            let closest = known.map { (id: $0, distance: Self.editDistance($0, id)) }.filter { $0.distance <= 2 }.min { $0.distance < $1.distance }
            let hint = closest.map { " (did you mean '\($0.id)'?)" } ?? ""
            let list = known.isEmpty ? "no profiles were found" : "the profiles are \(known.joined(separator: ", "))"
            return "names no known device profile: '\(id)'\(hint); \(list); give another folder with --hardware DIR"
        }
        do {
            _ = try profile(id)
            return nil
        } catch {
            return "names the profile '\(id)', which could not be read: \(error.description)"
        }
    }

    /// The Levenshtein distance between two ids (single edits: insert, delete, replace).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        var row = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var diagonal = row[0]
            row[0] = i + 1
            for (j, y) in b.enumerated() {
                let above = row[j + 1]
                row[j + 1] = min(above + 1, row[j] + 1, diagonal + (x == y ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }
}
