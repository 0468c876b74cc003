import CGpiodShim
import Glibc

/// libgpiod calls, through Sources/CGpiodShim (one interface to the v1 and v2 APIs): a failure
/// becomes a `SystemError` naming the libgpiod function the shim reports as the one that failed.
extension Syscall {
    /// A shim call returning a pointer: nil means failure with `errno` set.
    static func gpiodPointer(_ subject: @autoclosure () -> String, _ body: () -> OpaquePointer?) throws(SystemError) -> OpaquePointer {
        Glibc.errno = 0
        if let result = body() { return result }
        throw gpiodError(subject())
    }

    /// A shim call returning a count, offset or level: negative means failure with `errno` set;
    /// EINTR is retried.
    static func gpiod<T: BinaryInteger>(_ subject: @autoclosure () -> String, _ body: () -> T) throws(SystemError) -> T {
        while true {
            let result = body()
            if result >= 0 { return result }
            if Glibc.errno == EINTR { continue }
            throw gpiodError(subject())
        }
    }

    /// Reads the edges waiting on descriptor `fdIndex` of `request` into `buffer`, without blocking:
    /// how many were read, 0 when none were waiting (EAGAIN). Sets `lost` when the shim saw events dropped.
    static func gpiodEdges(
        _ request: OpaquePointer, _ fdIndex: Int, into buffer: inout [flywheel_gpiod_edge], lost: inout Bool,
        _ subject: @autoclosure () -> String
    ) throws(SystemError) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { edges in
                flywheel_gpiod_request_read_edges(request, fdIndex, edges.baseAddress, edges.count, &lost)
            }
            if count >= 0 { return count }
            let error = Glibc.errno
            if error == EINTR { continue }
            if error == EAGAIN { return 0 }
            precondition(error != EBADF, "libgpiod read a closed descriptor of \(subject()): a bug in Flywheel")
            throw gpiodError(subject())
        }
    }

    private static func gpiodError(_ subject: String) -> SystemError {
        let error = Glibc.errno
        return SystemError(function: String(cString: flywheel_gpiod_failed_function()), subject: subject, errno: error == 0 ? ENODEV : error)
    }
}
