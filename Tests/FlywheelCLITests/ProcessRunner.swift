import Glibc

/// Runs a built executable as a real child process and collects its output.
struct ChildProcess {
    var status: Int32
    var out: String
    var err: String

    /// The directory holding the built products: the test bundle lives beside them.
    static let productsDirectory: String = {
        var path = CommandLine.arguments[0]
        if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) } else { path = "." }
        // On Linux the test runner is `<products>/FlywheelPackageTests.xctest`.
        return path
    }()

    static func product(_ name: String) -> String { productsDirectory + "/" + name }

    /// Runs `executable` with `arguments`, feeding `input` on standard input; `environment` entries
    /// (`NAME=value`) are added to this process's own environment.
    static func run(_ executable: String, _ arguments: [String], input: String = "", environment: [String] = []) -> ChildProcess {
        var inPipe: [Int32] = [0, 0], outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        precondition(pipe(&inPipe) == 0 && pipe(&outPipe) == 0 && pipe(&errPipe) == 0)
        for fd in inPipe + outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let envp = ChildProcess.environment(adding: environment).map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        posix_spawn_file_actions_destroy(&actions)
        close(inPipe[0]); close(outPipe[1]); close(errPipe[1])
        guard spawned == 0 else {
            close(inPipe[1]); close(outPipe[0]); close(errPipe[0])
            return ChildProcess(status: -1, out: "", err: "posix_spawn \(executable) failed: \(spawned)")
        }
        // Inputs are small: the pipe buffers 64 KiB, so writing it all before reading cannot block.
        let bytes = Array(input.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(inPipe[1], $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { break }
            offset += n
        }
        close(inPipe[1])
        // Read both pipes until end of file, with poll so that neither can fill up and block the child.
        var out: [UInt8] = [], err: [UInt8] = []
        var fds = [pollfd(fd: outPipe[0], events: Int16(POLLIN), revents: 0), pollfd(fd: errPipe[0], events: Int16(POLLIN), revents: 0)]
        var open = 2
        var buffer = [UInt8](repeating: 0, count: 65536)
        while open > 0 {
            guard poll(&fds, 2, -1) > 0 else { continue }
            for index in 0..<2 where fds[index].fd >= 0 && fds[index].revents != 0 {
                let n = read(fds[index].fd, &buffer, buffer.count)
                if n > 0 {
                    if index == 0 { out += buffer[0..<n] } else { err += buffer[0..<n] }
                } else {
                    close(fds[index].fd)
                    fds[index].fd = -1
                    open -= 1
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return ChildProcess(status: exitStatus, out: String(decoding: out, as: UTF8.self), err: String(decoding: err, as: UTF8.self))
    }
}

extension ChildProcess {
    /// This process's environment with `entries` (`NAME=value`) added or replacing its own.
    static func environment(adding entries: [String]) -> [String] {
        var inherited: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            inherited.append(String(cString: pointer))
            entry += 1
        }
        let names = Set(entries.map { $0.prefix { $0 != "=" } })
        return inherited.filter { !names.contains($0.prefix { $0 != "=" }) } + entries
    }
}
