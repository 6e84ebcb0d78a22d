import Testing
import SimKernel

/// Per-device arrays advised onto huge pages (SimKernel/HugePageArrays) hold exactly what
/// plain arrays hold: only where the storage sits differs.
@Suite struct HugePageArraysTests {
    /// 3 MiB of elements, so the range holds at least one 2 MiB-aligned huge page.
    static let count = (3 << 20) / MemoryLayout<UInt64>.stride

    @Test func aHugePageArrayHoldsWhatARepeatingArrayHolds() {
        let advised = [UInt64](hugePagesRepeating: 0xDEAD_BEEF, count: Self.count)
        #expect(advised == [UInt64](repeating: 0xDEAD_BEEF, count: Self.count))
        #expect([Int8](hugePagesRepeating: -1, count: 0).isEmpty)
    }

    @Test func aReservedArrayIsFilledByAppendingWithoutMoving() {
        var advised = [UInt64](hugePagesCapacity: Self.count)
        #expect(advised.isEmpty && advised.capacity >= Self.count)
        advised.append(0)
        let first = advised.withUnsafeBufferPointer { $0.baseAddress }
        for i in 1 ..< Self.count { advised.append(UInt64(i)) }
        #expect(advised.withUnsafeBufferPointer { $0.baseAddress } == first)
        #expect(advised == (0 ..< UInt64(Self.count)).map { $0 })
    }

    /// A prefetch is a hint: every element, first to last, whole or a part of it, can be
    /// asked for, and the array is unchanged.
    @Test func prefetchingAnyElementChangesNothing() {
        struct Wide: Equatable { var a = SIMD16<UInt64>(repeating: 7); var b: UInt8 = 1 }
        let wide = [Wide](hugePagesRepeating: Wide(), count: 1_000)
        for i in wide.indices { wide.prefetch(i) }
        for i in wide.indices { wide.prefetch(i, bytes: 100 ..< MemoryLayout<Wide>.stride) }
        #expect(wide == [Wide](repeating: Wide(), count: 1_000))
    }
}
