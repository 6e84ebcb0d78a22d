import Testing
@testable import SimKernel

/// Released elements free their block once the block is full and nothing in it is
/// live; indices are never given out again, and the elements still live read as written.
@Suite struct ReleasingChunkedArrayTests {
    static let block = ReleasingChunkedArray<Int>.blockSize

    static func filled(_ n: Int) -> ReleasingChunkedArray<Int> {
        var a = ReleasingChunkedArray<Int>()
        for i in 0 ..< n { a.append(i * 3) }
        return a
    }

    @Test func aFullBlockIsFreedWhenItsLastLiveElementIsReleased() {
        var a = Self.filled(2 * Self.block + 1)
        #expect(a.blocksHeld == 3)
        // Released out of order; the last one held keeps the block.
        for i in stride(from: Self.block - 1, to: 0, by: -1) { a.release(i) }
        #expect(a.blocksHeld == 3 && a[0] == 0)
        a.release(0)
        #expect(a.blocksHeld == 2 && a.count == 2 * Self.block + 1)
        #expect(a[Self.block] == 3 * Self.block && a[2 * Self.block] == 6 * Self.block)
    }

    /// The last block is not full: releasing everything in it keeps it for the appends
    /// to come; it is freed when it is full and its last element released.
    @Test func aPartBlockStaysUntilFullAndReleased() {
        var a = Self.filled(Self.block - 1)
        for i in 0 ..< Self.block - 1 { a.release(i) }
        #expect(a.blocksHeld == 1)
        a.append(7)
        #expect(a.blocksHeld == 1 && a[Self.block - 1] == 7)
        a.release(Self.block - 1)
        #expect(a.blocksHeld == 0)
    }

    /// An index released is never given out again: the next append gets the next index,
    /// in a new block.
    @Test func indicesAreNeverReused() {
        var a = Self.filled(Self.block)
        for i in 0 ..< Self.block { a.release(i) }
        a.append(-1)
        #expect(a.count == Self.block + 1 && a[Self.block] == -1 && a.blocksHeld == 1)
    }

    @Test func aChangeInPlaceReadsBack() {
        var a = Self.filled(Self.block + 2)
        a[Self.block + 1] += 1
        a.release(Self.block)
        #expect(a[Self.block + 1] == 3 * (Self.block + 1) + 1)
    }

    /// Releasing an element of a freed block, or one never appended, traps.
    @Test func releasingWhatIsNotHeldTraps() async {
        await #expect(processExitsWith: .failure) {
            var a = ReleasingChunkedArray<Int>()
            for i in 0 ..< ReleasingChunkedArray<Int>.blockSize { a.append(i) }
            for i in 0 ..< ReleasingChunkedArray<Int>.blockSize { a.release(i) }
            a.release(0)
        }
        await #expect(processExitsWith: .failure) {
            var a = ReleasingChunkedArray<Int>()
            a.append(1)
            a.release(1)
        }
    }
}
