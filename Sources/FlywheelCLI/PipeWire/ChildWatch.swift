import FlywheelCore
import FlywheelIO
import Glibc

/// A child's output on the bridges' ``SessionLoop``: each read handed to `onOutput`, and its end
/// (the child reaped, its status given) to `onEnd`.
final class ChildWatch: SessionPart {
    private(set) var child: ChildOutput?
    var onOutput: (ArraySlice<UInt8>) -> Void = { _ in }
    var onEnd: (_ status: Int32) -> Void = { _ in }

    var isRunning: Bool { child != nil }

    func start(_ child: ChildOutput) { self.child = child }

    /// Kills the child, if one runs, without a word.
    func cancel() {
        child?.kill()
        child = nil
    }

    var pollRequest: pollfd? { child.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) } }

    func ready(fd: Int32, revents: Int16, at now: Nanoseconds) {
        guard let child, child.fd == fd else { return }
        let open = child.receive { onOutput($0) }
        guard !open, self.child === child else { return }
        self.child = nil
        onEnd(child.reap())
    }
}
