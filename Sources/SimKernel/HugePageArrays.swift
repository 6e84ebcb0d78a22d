import MemoryHints

/// Arrays indexed by device id, read at random (one device per event). With 4 KiB pages
/// a fleet of 100,000 devices spreads each such array over thousands of pages, and nearly
/// every read misses the TLB as well as the cache; with 2 MiB pages (Linux's transparent
/// huge pages, asked for before the first write) the TLB covers gigabytes. Only the
/// storage's placement differs: the elements, and every result, are the same.
extension Array {
    /// `count` copies of `value`, in storage advised onto huge pages.
    public init(hugePagesRepeating value: Element, count: Int) {
        self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress {
                fleetsim_advise_huge_pages(base, buffer.count &* MemoryLayout<Element>.stride)
            }
            buffer.initialize(repeating: value)
            initialized = buffer.count
        }
    }

    /// An empty array with room for `capacity` elements (filled by appending) in storage
    /// advised onto huge pages.
    public init(hugePagesCapacity capacity: Int) {
        self.init(unsafeUninitializedCapacity: capacity) { buffer, initialized in
            if let base = buffer.baseAddress {
                fleetsim_advise_huge_pages(base, buffer.count &* MemoryLayout<Element>.stride)
            }
            initialized = 0
        }
    }

    /// Starts loading the cache lines of element `i` (an index in range), for the event
    /// that will read it next.
    @inlinable @inline(__always) public func prefetch(_ i: Int) {
        prefetch(i, bytes: 0 ..< MemoryLayout<Element>.stride)
    }

    /// Starts loading the cache lines that hold bytes `bytes` of element `i` (an index in
    /// range; `bytes` within the element's stride and not empty): the part of a large
    /// element that the next event reads.
    @inlinable @inline(__always) public func prefetch(_ i: Int, bytes: Range<Int>) {
        withUnsafeBufferPointer { p in
            let first = UInt(bitPattern: UnsafeRawPointer(p.baseAddress! + i)) &+ UInt(bytes.lowerBound)
            var line = first & ~63
            let last = first &+ UInt(bytes.count &- 1)
            while line <= last {
                fleetsim_prefetch(UnsafeRawPointer(bitPattern: line))
                line &+= 64
            }
        }
    }
}
