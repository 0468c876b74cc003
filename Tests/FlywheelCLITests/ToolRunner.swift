import FlywheelCLI
import Glibc

/// Runs the `flywheel` tool in-process and captures what it writes.
struct ToolRun {
    var status: Int32
    var out: String
    var err: String

    /// Box for captured text; the tool runs synchronously on the calling thread.
    final class Capture: @unchecked Sendable {
        var out = ""
        var err = ""
    }

    static func callAsFunction(_ arguments: String...) -> ToolRun { run(arguments) }

    static func run(_ arguments: [String]) -> ToolRun {
        let capture = Capture()
        let status = FlywheelTool.run(arguments, console: Console(out: { capture.out += $0 }, err: { capture.err += $0 }))
        return ToolRun(status: status, out: capture.out, err: capture.err)
    }
}

/// Repository paths found from this file's location.
enum RepositoryPaths {
    static let root: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    static func path(_ relative: String) -> String { root + "/" + relative }

    static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func write(_ text: String, to path: String) {
        guard let file = fopen(path, "w") else { return }
        defer { fclose(file) }
        _ = text.withCString { fputs($0, file) }
    }

    static func list(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }
}
