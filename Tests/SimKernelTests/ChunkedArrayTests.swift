import Testing
@testable import SimKernel

/// A chunked array holds what a plain array holds at every size, across its block
/// boundaries, and its blocks never move once written.
@Suite struct ChunkedArrayTests {
    static let block = ChunkedArray<Int>.blockSize

    /// `n` appended elements, each `i * 3`, with a plain array alongside.
    static func filled(_ n: Int) -> (ChunkedArray<Int>, [Int]) {
        var chunked = ChunkedArray<Int>()
        var plain: [Int] = []
        for i in 0 ..< n {
            chunked.append(i * 3)
            plain.append(i * 3)
        }
        return (chunked, plain)
    }

    @Test func emptyHoldsNothing() {
        let empty = ChunkedArray<Int>()
        #expect(empty.isEmpty && empty.count == 0 && empty.indices.isEmpty)
        #expect(empty.blocks.isEmpty)
    }

    /// Empty, one element, one short of a block, exactly one block, one past it, and
    /// two blocks and a bit: the same elements, in the same order, as a plain array.
    @Test(arguments: [0, 1, block - 1, block, block + 1, 2 * block + 7])
    func holdsWhatAPlainArrayHolds(_ n: Int) {
        let (chunked, plain) = Self.filled(n)
        #expect(chunked.count == n && chunked.isEmpty == (n == 0))
        #expect(chunked.indices == plain.indices)
        #expect(chunked.indices.map { chunked[$0] } == plain)
        #expect(chunked.blocks.count == (n + Self.block - 1) / Self.block)
    }

    /// Writes in place at the first and last element of each block; the blocks already
    /// full keep their storage when more are appended.
    @Test func writesInPlaceAndFullBlocksNeverMove() {
        var (chunked, plain) = Self.filled(Self.block + 1)
        for i in [0, Self.block - 1, Self.block] {
            chunked[i] += 1
            plain[i] += 1
        }
        #expect(chunked.indices.map { chunked[$0] } == plain)
        let first = chunked.blocks[0].withUnsafeBufferPointer { $0.baseAddress }
        for i in 0 ..< 2 * Self.block { chunked.append(i) }
        #expect(chunked.blocks[0].withUnsafeBufferPointer { $0.baseAddress } == first)
        #expect(chunked[Self.block - 1] == plain[Self.block - 1])
    }
}
