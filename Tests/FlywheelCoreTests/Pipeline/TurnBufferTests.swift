import Testing
@testable import FlywheelCore

/// The buffers a turn fills and the next turn reuses: nothing of a turn stays behind, the usual
/// storage is kept, and a burst's is let go.
@Suite("Turn buffers")
struct TurnBufferTests {
    @Test("a turn's buffer is emptied with its storage kept, up to 256 elements")
    func keptStorage() {
        var buffer = Array(0..<200)
        let capacity = buffer.capacity
        buffer.clearForNextTurn()
        #expect(buffer.isEmpty)
        #expect(buffer.capacity == capacity)
        buffer.append(contentsOf: 0..<10)
        buffer.clearForNextTurn()
        #expect(buffer.isEmpty && buffer.capacity == capacity)
    }

    @Test("a burst that grew a buffer past 256 elements does not hold its memory: the storage is let go")
    func burstLetGo() {
        var buffer = Array(0..<10_000)
        buffer.clearForNextTurn()
        #expect(buffer.isEmpty)
        #expect(buffer.capacity == 0)
    }

    @Test("a buffer given back comes out of the next take empty, its storage the same")
    func takeAndGiveBack() {
        var buffer = TurnBuffer<Int>(capacity: 8)
        var turn = buffer.take()
        turn.append(contentsOf: 1...5)
        let storage = turn.withUnsafeBufferPointer { $0.baseAddress }
        buffer.giveBack(&turn)
        turn = []
        let next = buffer.take()
        #expect(next.isEmpty)
        #expect(next.withUnsafeBufferPointer { $0.baseAddress } == storage)
    }
}
