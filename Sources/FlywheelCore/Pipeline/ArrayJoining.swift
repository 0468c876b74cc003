extension Array {
    /// Appends `more`; when this is empty it becomes `more` itself (no new buffer, no copy): the
    /// usual case on the pipeline's path, where one step of several says something.
    mutating func join(_ more: [Element]) {
        if isEmpty { self = more } else if !more.isEmpty { self += more }
    }
}
