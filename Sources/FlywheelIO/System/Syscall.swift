import Glibc

/// The one seam every libc call goes through: retries EINTR, turns a failure into a
/// ``SystemError`` naming the function and subject, and treats EBADF as a bug.
package enum Syscall {
    /// Calls `body` until it does not fail with EINTR; a negative result becomes a `SystemError`.
    @inline(__always)
    package static func call<T: BinaryInteger>(
        _ function: String, _ subject: @autoclosure () -> String, _ body: () -> T
    ) throws(SystemError) -> T {
        while true {
            let result = body()
            if result >= 0 { return result }
            let error = Glibc.errno
            if error == EINTR { continue }
            precondition(error != EBADF, "\(function) on \(subject()) used a closed file descriptor: a bug in Flywheel")
            throw SystemError(function: function, subject: subject(), errno: error)
        }
    }
}

/// The result of a call on a non-blocking descriptor: what it did, or that it would have had to
/// wait (EAGAIN), which is not an error.
package enum IOResult<T> {
    /// The call did its work and returned this.
    case processed(T)
    /// The descriptor is not ready (EAGAIN/EWOULDBLOCK): try again when the loop says so.
    case wouldBlock
}

extension IOResult: Equatable where T: Equatable {}

extension Syscall {
    /// A call on a non-blocking descriptor: EINTR retried, EAGAIN a ``IOResult/wouldBlock`` result,
    /// any other failure a `SystemError` (EBADF a bug, as in ``call(_:_:_:)``).
    @inline(__always)
    package static func nonBlocking<T: BinaryInteger>(
        _ function: String, _ subject: @autoclosure () -> String, _ body: () -> T
    ) throws(SystemError) -> IOResult<T> {
        while true {
            let result = body()
            if result >= 0 { return .processed(result) }
            let error = Glibc.errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK { return .wouldBlock }
            precondition(error != EBADF, "\(function) on \(subject()) used a closed file descriptor: a bug in Flywheel")
            throw SystemError(function: function, subject: subject(), errno: error)
        }
    }
}

extension Syscall {
    /// A libevdev call: a negative result is `-errno`.
    package static func evdev(_ function: String, _ subject: @autoclosure () -> String, _ body: () -> Int32) throws(SystemError) -> Int32 {
        while true {
            let result = body()
            if result >= 0 { return result }
            if -result == EINTR { continue }
            throw SystemError(function: function, subject: subject(), errno: -result)
        }
    }

    /// A C-library call returning a pointer: nil means failure with `errno` set.
    package static func pointer<T>(_ function: String, _ subject: @autoclosure () -> String, _ body: () -> T?) throws(SystemError) -> T {
        Glibc.errno = 0
        if let result = body() { return result }
        let error = Glibc.errno
        throw SystemError(function: function, subject: subject(), errno: error == 0 ? ENODEV : error)
    }
}
