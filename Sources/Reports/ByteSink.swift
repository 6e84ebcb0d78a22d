/// A growable run of bytes written through a pointer: what ``JSONWriter`` appends a
/// report into. A 1,000-phone week's report.json is about 4.4 MB of short numbers; an
/// `Array.append` checks the buffer's uniqueness and capacity at every byte, which cost
/// more than the digits themselves (docs/performance.md, "The report: packed series, one
/// buffer").
///
/// Rules: bytes are only ever appended; ``reserve(_:)`` hands out room for a known most
/// that the caller then ``commit(_:)``s; the storage is freed when the sink ends.
struct ByteSink: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inline(__always) mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: 1) }
        base[count] = byte
        count &+= 1
    }

    /// Appends the bytes of an ASCII literal.
    @inline(__always) mutating func append(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        if capacity - count < n { grow(toHold: n) }
        (base + count).update(from: text.utf8Start, count: n)
        count &+= n
    }

    @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        if capacity - count < bytes.count { grow(toHold: bytes.count) }
        (base + count).update(from: start, count: bytes.count)
        count &+= bytes.count
    }

    /// `n` copies of `byte` (an indentation).
    @inline(__always) mutating func append(repeating byte: UInt8, count n: Int) {
        if capacity - count < n { grow(toHold: n) }
        (base + count).update(repeating: byte, count: n)
        count &+= n
    }

    /// Room for at most `n` bytes past the end, written by the caller and then counted
    /// with ``commit(_:)``.
    @inline(__always) mutating func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if capacity - count < n { grow(toHold: n) }
        return base + count
    }

    @inline(__always) mutating func commit(_ n: Int) { count &+= n }

    /// The bytes written, as an array (one copy).
    consuming func bytes() -> [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }

    private mutating func grow(toHold n: Int) {
        var newCapacity = capacity
        while newCapacity - count < n { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }
}
