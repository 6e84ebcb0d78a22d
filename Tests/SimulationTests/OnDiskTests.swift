import Testing
@testable import Simulation

/// What reached a device's disk, kept only while it differs from the state's copy
/// (``OnDisk``): a change records the value before it, later changes keep that one,
/// and a persist forgets it.
@Suite struct OnDiskTests {
    @Test func nothingPendingReadsTheStatesCopy() {
        var disk = OnDisk<Int>()
        #expect(disk.onDisk(3, current: 7) == 7 && disk.pending == 0)
        disk.changed(3, from: 7, to: 7)
        #expect(disk.pending == 0)
        disk.persisted(3)
        #expect(disk.onDisk(3, current: 9) == 9)
    }

    @Test func theFirstChangeSinceAPersistIsWhatTheDiskHolds() {
        var disk = OnDisk<Int>()
        disk.changed(3, from: 7, to: 8)
        disk.changed(3, from: 8, to: 9)
        #expect(disk.onDisk(3, current: 9) == 7 && disk.pending == 1)
        // Another device is untouched by it.
        #expect(disk.onDisk(4, current: 5) == 5)
        // Changing back to what is on disk still leaves the disk's value.
        disk.changed(3, from: 9, to: 7)
        #expect(disk.onDisk(3, current: 7) == 7)
        disk.persisted(4)
        #expect(disk.pending == 1)
        disk.persisted(3)
        #expect(disk.pending == 0 && disk.onDisk(3, current: 7) == 7)
        disk.changed(3, from: 7, to: 1)
        #expect(disk.onDisk(3, current: 1) == 7)
    }

    /// The table against a dictionary: thousands of changes and persists on a few hundred
    /// devices (collisions, growth, removals that shift entries back), each read equal.
    @Test func agreesWithADictionaryThroughGrowthAndRemovals() {
        var disk = OnDisk<Int>()
        var model: [Int: Int] = [:]
        var state = Array(repeating: 0, count: 300)
        var x: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ n: Int) -> Int {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            return Int(x % UInt64(n))
        }
        for step in 0..<20_000 {
            // Devices 0, 256 and 512 apart collide in small tables; spread them out.
            let i = next(300) * (step % 3 == 0 ? 1 : 7)
            let d = i % 300
            if next(3) == 0 {
                disk.persisted(d)
                model[d] = nil
            } else {
                let before = state[d]
                state[d] = next(4)
                disk.changed(d, from: before, to: state[d])
                if before != state[d], model[d] == nil { model[d] = before }
            }
            if step % 97 == 0 {
                for e in 0..<300 { #expect(disk.onDisk(e, current: state[e]) == (model[e] ?? state[e])) }
                #expect(disk.pending == model.count)
            }
        }
        for e in 0..<300 { disk.persisted(e) }
        #expect(disk.pending == 0)
    }
}
