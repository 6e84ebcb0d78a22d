/// A ``ChunkedArray`` whose elements are released once nothing will read them again, and
/// whose blocks are freed once every element in them is released. An element's index
/// never changes and is never given to another: an index stays an id for the whole run,
/// so an id a model elsewhere still compares (a provider's stored message) can never
/// match a newer element. Reading a released element of a freed block traps.
///
/// For records created all run long and each needed only for a while (the accepted push
/// messages: until they reach the phone or end). Blocks of 256 elements: one element
/// still needed (a message stored for an offline phone) keeps its block, so small
/// blocks free more.
public struct ReleasingChunkedArray<Element> {
    @usableFromInline static var blockShift: Int { 8 }
    @usableFromInline static var blockSize: Int { 1 << blockShift }

    /// Every block but the last holds ``blockSize`` elements, or none once freed.
    @usableFromInline var blocks: [[Element]] = []
    /// Per block: its elements appended and not yet released.
    @usableFromInline var live: [UInt16] = []
    @usableFromInline var stored = 0

    public init() {}

    /// The elements ever appended (released ones too): the next index.
    @inlinable public var count: Int { stored }

    @inlinable public mutating func append(_ element: Element) {
        if stored & (Self.blockSize &- 1) == 0 {
            var block: [Element] = []
            block.reserveCapacity(Self.blockSize)
            blocks.append(block)
            live.append(0)
        }
        blocks[blocks.count &- 1].append(element)
        live[live.count &- 1] += 1
        stored &+= 1
    }

    @inlinable public subscript(i: Int) -> Element {
        get { blocks[i >> Self.blockShift][i & (Self.blockSize &- 1)] }
        _modify { yield &blocks[i >> Self.blockShift][i & (Self.blockSize &- 1)] }
    }

    /// Element `i` will not be read again: a full block with nothing left live is freed.
    /// Releasing more elements of a block than were appended to it traps.
    @inlinable public mutating func release(_ i: Int) {
        let b = i >> Self.blockShift
        precondition(i < stored && !blocks[b].isEmpty, "release of an element not held")
        live[b] -= 1
        if live[b] == 0 && blocks[b].count == Self.blockSize { blocks[b] = [] }
    }

    /// The blocks holding storage (for tests and measurements).
    public var blocksHeld: Int { blocks.count { !$0.isEmpty } }
}

extension ReleasingChunkedArray: Sendable where Element: Sendable {}
