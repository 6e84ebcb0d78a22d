/// What of a feature's stored state reached the disk (UserDefaults), per device, kept
/// only for the devices where it differs from the state's own copy: the writes the app
/// made since the last persist. Where nothing is pending, the disk holds exactly the
/// state's copy, so a fleet keeps no second copy of every device's stored state (8 to 48
/// bytes a device, per feature). With the app's
/// `synchronize()` after its writes, a device differs only between a write and the
/// effect that follows it in the same step; without it (`noSynchronize`), until the
/// persistence delay or the next run.
///
/// The host reports each input's change of a device's stored state
/// (``changed(_:from:to:)``, around the logic's `handle`) and each persist, and reads
/// the disk with ``onDisk(_:current:)``. The device changed last is kept apart
/// (``recentDevice``): its write and the persist that follows in the same step then
/// cost two stores. The others are an open-addressing table (linear probing, deletion
/// by backward shift), each operation a multiply and a probe or two, where a
/// `Dictionary`'s hashing cost more than the rest of handling an input of the busiest
/// feature. Looked up by device, never iterated.
struct OnDisk<Stored> {
    /// The device changed last while it has writes pending (`UInt32.max`: none), and
    /// what its disk holds.
    private var recentDevice = UInt32.max
    private var recent: Stored?
    /// The device of each slot; `UInt32.max`: empty. A power of two, at most half full.
    private var keys: [UInt32] = []
    private var values: [Stored?] = []
    private var tableCount = 0

    /// Devices whose disk differs from the state's copy.
    var pending: Int { tableCount + (recentDevice == .max ? 0 : 1) }

    /// What reached device `i`'s disk, given the state's copy `current`.
    @inline(__always) func onDisk(_ i: Int, current: Stored) -> Stored {
        let key = UInt32(i)
        if key == recentDevice { return recent! }
        guard tableCount > 0, let s = slot(of: key) else { return current }
        return values[s]!
    }

    /// Device `i`'s stored state went from `before` (on disk if nothing was pending) to
    /// `after`. Compared bit by bit: padding that differs only records `before`, which
    /// is what the disk holds then anyway.
    @inline(__always) mutating func changed(_ i: Int, from before: Stored, to after: Stored) {
        guard !Self.sameBits(before, after) else { return }
        let key = UInt32(i)
        if key == recentDevice || (tableCount > 0 && slot(of: key) != nil) { return }
        if recentDevice != .max { insert(recentDevice, recent!) }
        recentDevice = key
        recent = before
    }

    /// Device `i`'s state's copy reached the disk (or the state was rebuilt from it).
    @inline(__always) mutating func persisted(_ i: Int) {
        let key = UInt32(i)
        if key == recentDevice {
            recentDevice = .max
            recent = nil
            return
        }
        guard tableCount > 0, let s = slot(of: key) else { return }
        remove(at: s)
    }

    // MARK: - The table

    @inline(__always) private func home(_ key: UInt32) -> Int {
        // The key times 2^32 / φ (Fibonacci hashing), scaled to the table's size.
        Int(truncatingIfNeeded: (UInt64(key &* 0x9E37_79B9) &* UInt64(keys.count)) >> 32)
    }

    private func slot(of key: UInt32) -> Int? {
        let mask = keys.count - 1
        var s = home(key)
        while keys[s] != .max {
            if keys[s] == key { return s }
            s = (s + 1) & mask
        }
        return nil
    }

    private mutating func insert(_ key: UInt32, _ value: Stored) {
        if (tableCount + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var s = home(key)
        while keys[s] != .max { s = (s + 1) & mask }
        keys[s] = key
        values[s] = value
        tableCount += 1
    }

    /// Empties slot `s`, then moves back each entry after it that the hole would
    /// otherwise cut off from its home, so that every probe still ends at an empty slot.
    private mutating func remove(at s: Int) {
        let mask = keys.count - 1
        var hole = s
        var j = s
        while true {
            j = (j + 1) & mask
            if keys[j] == .max { break }
            let h = home(keys[j])
            // The entry at j may stay if its home lies cyclically in (hole, j].
            let stays = hole < j ? (hole < h && h <= j) : (hole < h || h <= j)
            if stays { continue }
            keys[hole] = keys[j]
            values[hole] = values[j]
            hole = j
        }
        keys[hole] = .max
        values[hole] = nil
        tableCount -= 1
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        let capacity = max(8, keys.count * 2)
        keys = Array(repeating: .max, count: capacity)
        values = Array(repeating: nil, count: capacity)
        tableCount = 0
        for s in oldKeys.indices where oldKeys[s] != .max { insert(oldKeys[s], oldValues[s]!) }
    }

    @inline(__always) private static func sameBits(_ a: Stored, _ b: Stored) -> Bool {
        withUnsafeBytes(of: a) { x in
            withUnsafeBytes(of: b) { y in
                var k = 0
                while k + 8 <= x.count {
                    if x.loadUnaligned(fromByteOffset: k, as: UInt64.self) != y.loadUnaligned(fromByteOffset: k, as: UInt64.self) { return false }
                    k += 8
                }
                while k < x.count {
                    if x[k] != y[k] { return false }
                    k += 1
                }
                return true
            }
        }
    }
}
