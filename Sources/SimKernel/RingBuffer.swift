/// A growable FIFO queue in one contiguous array (no per-element allocation).
public struct RingBuffer<Element> {
    @usableFromInline var storage: [Element?]
    @usableFromInline var head = 0
    @usableFromInline var stored = 0

    public init(capacity: Int = 16) { storage = Array(repeating: nil, count: Swift.max(capacity, 1)) }

    @inlinable public var count: Int { stored }
    @inlinable public var isEmpty: Bool { stored == 0 }

    /// - Complexity: amortized O(1)
    @inlinable public mutating func append(_ element: Element) {
        if stored == storage.count { grow() }
        var tail = head + stored
        if tail >= storage.count { tail -= storage.count }
        storage[tail] = element
        stored += 1
    }

    /// - Complexity: O(1)
    @inlinable public mutating func popFirst() -> Element? {
        guard stored > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = head + 1 == storage.count ? 0 : head + 1
        stored -= 1
        return element
    }

    @usableFromInline mutating func grow() {
        var bigger = [Element?](repeating: nil, count: storage.count * 2)
        for i in 0..<stored { bigger[i] = storage[(head + i) % storage.count] }
        storage = bigger
        head = 0
    }
}

extension RingBuffer: Sendable where Element: Sendable {}
