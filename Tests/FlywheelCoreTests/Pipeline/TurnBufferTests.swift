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

    @Test("a buffer given back comes out of the next take with its storage, each turn's elements after the last turn's")
    func takeAndGiveBack() {
        var buffer = TurnBuffer<Int>(capacity: 8)
        var (turn, start) = buffer.take()
        #expect(start == 0)
        turn.append(contentsOf: 1...5)
        let storage = turn.withUnsafeBufferPointer { $0.baseAddress }
        buffer.giveBack(&turn)
        turn = []
        let (next, nextStart) = buffer.take()
        #expect(nextStart == 5)
        #expect(next == [1, 2, 3, 4, 5])  // what the last turn left, before this turn's start
        #expect(next.withUnsafeBufferPointer { $0.baseAddress } == storage)
    }

    @Test("once it holds as many as it keeps, the buffer is emptied when given back, its storage kept")
    func emptiedWhenFull() {
        var buffer = TurnBuffer<Int>()
        var turns = 0
        while true {
            var (turn, start) = buffer.take()
            if turns > 0 && start == 0 { break }  // emptied by the last give-back
            #expect(start == turns * 3)
            turn.append(contentsOf: 0..<3)
            buffer.giveBack(&turn)
            turns += 1
            #expect(turns < 100, "never emptied")
            if turns >= 100 { return }
        }
        // Emptied after the give-back that brought it to `clearedAt` elements or more.
        #expect(turns == (TurnBuffer<Int>.clearedAt + 2) / 3)
    }
}
