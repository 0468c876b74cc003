import FlywheelCore
import FlywheelIO

/// flywheeld's state file (`--state FILE`, or `$STATE_DIRECTORY/state` under systemd): what it
/// restores at start and keeps up to date while it runs.
///
/// A change is written ``delayNanoseconds`` after the first change since the last write, and never
/// sooner than that after the last write: at most one write a second, each within a second of the
/// last change, so a turn of under a second is one write and an hour of continuous turning 3,600.
/// Nothing is written at rest, nor when the state comes back to what the file holds. A clean stop
/// writes what is pending at once. Each write replaces the file atomically (``StateFile``).
///
/// The file is data, not configuration: one that cannot be read or used gives the configuration's
/// start values and one sentence naming it, and is replaced at the next change; a file that cannot
/// be written is said once (and again after it could be written, should it fail again), and
/// flywheeld goes on.
@MainActor
final class StateKeeper {
    /// From the first change to its write, and the least time between two writes (1 s).
    static let delayNanoseconds: Nanoseconds = 1_000_000_000

    let path: String
    let log: (String) -> Void
    /// What the file holds, or what ran at start (a change from it is written).
    private(set) var written: SavedState?
    /// When the pending write is due; nil when nothing waits.
    private(set) var dueNanoseconds: Nanoseconds?
    private var lastWriteNanoseconds: Nanoseconds?
    /// Writes made (the tests count them).
    private(set) var writes = 0
    /// Whether the last write failed (said once until one succeeds).
    private var failing = false

    init(path: String, log: @escaping (String) -> Void) {
        self.path = path
        self.log = log
    }

    /// The saved state, or nil with a sentence saying why there is none (a warning when the file
    /// cannot be used; that there is none yet unless `quiet`).
    func load(quiet: Bool) -> SavedState? {
        let bytes: [UInt8]?
        do {
            bytes = try StateFile.read(path, limitBytes: SavedState.limitBytes)
        } catch {
            log("warning: the state file \(path) cannot be read (\(Self.clause(error.description))); starting from the configuration's values, and it is written anew at the next change.")
            return nil
        }
        guard let bytes else {
            if !quiet { log("no saved state in \(path) yet: starting from the configuration's values; it is written at the first change.") }
            return nil
        }
        do {
            let saved = try SavedState.decode(bytes)
            written = saved
            return saved
        } catch {
            log("warning: the state file \(path) is \(error.description); starting from the configuration's values, and it is written anew at the next change.")
            return nil
        }
    }

    /// What runs once the start is done (restored or not): the file is written at the next change
    /// from it, not at start (a missing or broken file is replaced then; a restored state the
    /// configuration clamped stays in the file until then, so a range widened again gets it back).
    func started(with state: SavedState) {
        written = state
    }

    /// The state is now `state`, at `now()`: a write is due within a second unless the file holds it.
    func note(_ state: SavedState, now: () -> Nanoseconds) {
        guard state != written else {
            dueNanoseconds = nil
            return
        }
        if dueNanoseconds == nil {
            let time = now()
            dueNanoseconds = max(time + Self.delayNanoseconds, (lastWriteNanoseconds ?? .min / 2) + Self.delayNanoseconds)
        }
    }

    /// Writes `state` if its write is due by `now`.
    func writeIfDue(_ state: SavedState, at now: Nanoseconds) {
        guard let due = dueNanoseconds, due <= now else { return }
        write(state, at: now)
    }

    /// Writes `state` now if the file does not hold it (a clean stop).
    func flush(_ state: SavedState, at now: Nanoseconds) {
        if state != written { write(state, at: now) }
    }

    private func write(_ state: SavedState, at now: Nanoseconds) {
        dueNanoseconds = nil
        lastWriteNanoseconds = now
        // Taken as written either way: a file that cannot be written is tried again at the next
        // change, not in a loop.
        written = state
        writes += 1
        do {
            try StateFile.replace(path, with: state.encoded())
            failing = false
        } catch {
            if !failing {
                log("warning: the state file \(path) cannot be written (\(Self.clause(error.description))); flywheeld goes on, and tries again at the next change.")
            }
            failing = true
        }
    }

    /// A sentence as a clause inside another: without its final stop.
    static func clause(_ sentence: String) -> String {
        sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
    }
}
