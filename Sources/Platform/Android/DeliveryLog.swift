import SimKernel

/// The times of an app's recent deliveries of one kind (FCM high priority, while-idle
/// alarms), for limits counted over a sliding window. Keeps at most `capacity` times,
/// the newest; a limit of N per window needs a capacity of N. Reserved at creation, so
/// recording does not allocate.
public struct DeliveryLog: Sendable, Equatable {
    var times: [SimTime] = []
    let capacity: Int

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        times.reserveCapacity(self.capacity)
    }

    public mutating func record(_ t: SimTime) {
        if times.count == capacity { times.removeFirst() }
        times.append(t)
    }

    /// Deliveries in (now − window, now].
    public func count(in window: SimDuration, now: SimTime) -> Int {
        var n = 0
        for t in times.reversed() { if t > now - window { n += 1 } else { break } }
        return n
    }

    /// The earliest moment from `now` at which fewer than `limit` deliveries fall in the
    /// window: `now` if already so.
    public func nextSlot(limit: Int, window: SimDuration, now: SimTime) -> SimTime {
        guard limit > 0 else { return SimTime(microseconds: .max) }
        guard count(in: window, now: now) >= limit, times.count >= limit else { return now }
        return times[times.count - limit] + window
    }

    public var last: SimTime? { times.last }
}
