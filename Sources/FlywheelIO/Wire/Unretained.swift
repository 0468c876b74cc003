extension Array where Element: AnyObject {
    /// Calls `body` with each element in order, lent unretained: the array holds every element
    /// throughout, so the loop needs no retain and release per element (and no bounds check: the
    /// slots are its own). `body` must not keep an element past the call.
    @inline(__always)
    func forEachUnretained(_ body: (Element) -> Void) {
        withUnsafeBufferPointer { elements in
            guard var slot = elements.baseAddress else { return }
            let end = slot + elements.count
            while slot != end {
                Unmanaged.passUnretained(slot.pointee)._withUnsafeGuaranteedRef(body)
                slot += 1
            }
        }
    }
}
