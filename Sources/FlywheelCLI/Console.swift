/// Where a command writes: standard output and standard error, or strings in tests.
public struct Console {
    /// Writes text to standard output.
    public var out: (String) -> Void
    /// Writes text to standard error.
    public var err: (String) -> Void

    /// Creates a console from two writers.
    public init(out: @escaping (String) -> Void, err: @escaping (String) -> Void) {
        self.out = out
        self.err = err
    }
}
