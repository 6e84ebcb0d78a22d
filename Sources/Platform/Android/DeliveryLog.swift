import SimKernel

/// The times of an app's recent deliveries of one kind (FCM high priority, while-idle
/// alarms), for limits counted over a sliding window. Keeps at most `capacity` times,
/// the newest; a limit of N per window needs a capacity of N. A ring buffer that grows to
/// `capacity` as deliveries come (most apps never fill it) and then overwrites the
/// oldest: recording never shifts the older times.
public struct DeliveryLog: Sendable, Equatable {
    var times: [SimTime] = []
    // 32-bit, so a log takes 16 bytes in a device's state instead of 24 (a limit above
    // 2^31 deliveries per window would not fit in memory anyway).
    let capacity: Int32
    /// Where the oldest time is once the buffer is full (the next to be overwritten).
    var head: Int32 = 0

    public init(capacity: Int) {
        self.capacity = Int32(clamping: max(1, capacity))
    }

    public mutating func record(_ t: SimTime) {
        guard times.count == Int(capacity) else { return times.append(t) }
        times[Int(head)] = t
        head = head + 1 == capacity ? 0 : head + 1
    }

    /// The `k`-th newest time (0 is the newest); `k` < number kept.
    private func newest(_ k: Int) -> SimTime {
        let i = Int(head) - 1 - k
        return times[i >= 0 ? i : i + times.count]
    }

    /// Deliveries in (now − window, now].
    public func count(in window: SimDuration, now: SimTime) -> Int {
        var n = 0
        while n < times.count, newest(n) > now - window { n += 1 }
        return n
    }

    /// The earliest moment from `now` at which fewer than `limit` deliveries fall in the
    /// window: `now` if already so.
    public func nextSlot(limit: Int, window: SimDuration, now: SimTime) -> SimTime {
        guard limit > 0 else { return SimTime(microseconds: .max) }
        guard count(in: window, now: now) >= limit, times.count >= limit else { return now }
        return newest(limit - 1) + window
    }

    public var last: SimTime? { times.isEmpty ? nil : newest(0) }
}
