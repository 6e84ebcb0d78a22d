/// A growable array in fixed blocks of 4,096 elements that never move: appending
/// allocates a new block when the last is full and copies nothing.
///
/// For records a run appends for its whole length (the push ledger, one entry per
/// notification; the accepted messages): a plain array doubling to millions of elements
/// holds its old and new buffers at once while it copies, and leaves each buffer it
/// outgrew as a hole in the allocator's heap, resident and mostly not reused (80 MB of
/// them at 1,000,000 devices). Here the resident memory is the elements plus at most one
/// part-filled block. Reads and writes cost one more indexing step (the block, then
/// the element); an index outside `0 ..< count` traps, as an array's does (the
/// blocks' own bounds checks: a negative index or one past the end).
public struct ChunkedArray<Element> {
    @usableFromInline static var blockShift: Int { 12 }
    @usableFromInline static var blockSize: Int { 1 << blockShift }

    /// Every block but the last holds ``blockSize`` elements.
    @usableFromInline var blocks: [[Element]] = []
    @usableFromInline var stored = 0

    public init() {}

    @inlinable public var count: Int { stored }
    @inlinable public var isEmpty: Bool { stored == 0 }
    @inlinable public var indices: Range<Int> { 0 ..< stored }

    @inlinable public mutating func append(_ element: Element) {
        if stored & (Self.blockSize &- 1) == 0 {
            var block: [Element] = []
            block.reserveCapacity(Self.blockSize)
            blocks.append(block)
        }
        blocks[blocks.count &- 1].append(element)
        stored &+= 1
    }

    @inlinable public subscript(i: Int) -> Element {
        get { blocks[i >> Self.blockShift][i & (Self.blockSize &- 1)] }
        _modify { yield &blocks[i >> Self.blockShift][i & (Self.blockSize &- 1)] }
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}
