/// The figures of `report.json` that are derived from other keys (rates, per-device-day
/// and per-second figures, headroom): one formula each, used by the run that writes the
/// report and by `fleetsim merge`, which derives them again from the merged counts. So
/// a merged figure is the one-world run's byte for byte whenever its counts are.
public enum DerivedFigures {
    /// `a / b` at 4 digits (a feature's `deliveryRate`, `failureRate`, `openRate`); `null` when
    /// `b` is 0.
    public static func ratio(_ a: Int64, _ b: Int64) -> ReportValue {
        b > 0 ? .fixed(Double(a) / Double(b), 4) : .null
    }

    /// The run's length in days (never 0): the denominator of per-device-day figures.
    public static func days(durationSeconds: Double) -> Double {
        Swift.max(durationSeconds / 86_400, 1e-9)
    }

    /// `count` per device and day at 3 digits (`scheduling.launchesPerDeviceDay.*`).
    public static func perDeviceDay(_ count: Int64, devices: Int64, durationSeconds: Double) -> ReportValue {
        .fixed(Double(count) / Double(devices) / days(durationSeconds: durationSeconds), 3)
    }

    /// Requests per second over the whole run at 4 digits (`backend.requestsPerSecond.mean`).
    public static func meanRate(_ count: Int64, durationSeconds: Double) -> ReportValue {
        .fixed(Double(count) / Swift.max(durationSeconds, 1e-9), 4)
    }

    /// A bucket's count as a per-second rate at 3 digits (`backend.load.*PerSecond`,
    /// `backend.requestsPerSecond.peak`).
    public static func bucketRate(_ count: Int64, bucketSeconds: Double) -> ReportValue {
        .fixed(Double(count) / bucketSeconds, 3)
    }

    /// ``bucketRate(_:bucketSeconds:)`` of each bucket, as a packed list.
    public static func bucketRates<T: BinaryInteger>(_ counts: [T], bucketSeconds: Double) -> ReportValue {
        .numbers(counts.map { Double(Int64(clamping: $0)) / bucketSeconds }, digits: 3)
    }

    /// Counts per bucket, as a packed list of integers.
    public static func counts<T: BinaryInteger>(_ counts: [T]) -> ReportValue {
        .integers(counts.map { Int64(clamping: $0) })
    }

    /// `1 − busy / capacity` at 4 digits (a capacity of 0 counts as 1).
    public static func headroom(busy: Int64, capacity: Int64) -> ReportValue {
        .fixed(1 - Double(busy) / Double(Swift.max(capacity, 1)), 4)
    }

    /// Utilisation of a pool of `capacity` servers (API workers, a provider's streams) over
    /// `microseconds`: busy time / (capacity × time), the mean number busy over the
    /// capacity, at 4 digits (`backend.load.apiUtilisation`, `backend.queue.*.utilisation`).
    /// Busy time adds up exactly across shards, so a merged utilisation is exact.
    public static func utilisation(busy: Int64, capacity: Int64, microseconds: Int64) -> ReportValue {
        .fixed(utilisationValue(busy: busy, capacity: capacity, microseconds: microseconds), 4)
    }

    static func utilisationValue(busy: Int64, capacity: Int64, microseconds: Int64) -> Double {
        Double(busy) / (Double(Swift.max(capacity, 1)) * Double(Swift.max(microseconds, 1)))
    }

    /// Per-bucket utilisation of a busy-time series (`backend.load.apiBusyWorkerMicroseconds`):
    /// each bucket's busy time over capacity × the bucket's length (the last bucket may be
    /// cut short by the run's end).
    public static func utilisationSeries(busy: [Int64], capacity: Int64, bucketSeconds: Int64, durationMicroseconds: Int64) -> [Double] {
        let bucket = bucketSeconds * 1_000_000
        return busy.indices.map { b in
            let start = Int64(b) * bucket
            let length = b == busy.count - 1 ? Swift.max(durationMicroseconds - start, 1) : bucket
            return utilisationValue(busy: busy[b], capacity: capacity, microseconds: length)
        }
    }

    /// `1 − utilisation` at 4 digits: a bucket's headroom (`backend.load.apiHeadroomOverTime`),
    /// or with the busiest bucket's utilisation the run's (`backend.load.apiHeadroom`,
    /// a provider's `headroom`); 0 when the pool `refused` work (a 503, a send refused
    /// by a full queue): there was no room, whatever the mean use (refused work is never
    /// served, so it would not count as busy time).
    public static func headroom(utilisation: Double, refused: Bool) -> ReportValue {
        .fixed(refused ? 0 : 1 - utilisation, 4)
    }

    /// Per-bucket headroom of a utilisation series with the bucket's refused requests
    /// (``headroom(utilisation:refused:)`` of each bucket), as a packed list.
    public static func headroomSeries(utilisation: [Double], refused: [Int64]) -> ReportValue {
        .numbers(headroomValues(utilisation: utilisation, refused: refused), digits: 4)
    }

    /// The values of ``headroomSeries(utilisation:refused:)``.
    static func headroomValues(utilisation: [Double], refused: [Int64]) -> [Double] {
        utilisation.indices.map { ($0 < refused.count ? refused[$0] : 0) > 0 ? 0 : 1 - utilisation[$0] }
    }

    /// The run's headroom: its least per bucket (1 for a run without buckets).
    public static func leastHeadroom(utilisation: [Double], refused: [Int64]) -> ReportValue {
        headroomValues(utilisation: utilisation, refused: refused).min().map { .fixed($0, 4) } ?? .fixed(1, 4)
    }

    /// The mean wait of a queueing histogram (`backend.queue.*.meanWait`), from its exact
    /// sum; `null` without samples.
    public static func meanWait(_ waits: LatencyHistogram) -> ReportValue {
        .seconds(waits.mean.map { Int64($0.rounded()) })
    }

    /// The share of requests that waited for a worker at all, P(wait > 0), at 4 digits
    /// (`backend.queue.*.pWait`): the histogram's zeros have a bucket of their own.
    public static func pWait(_ waits: LatencyHistogram) -> ReportValue {
        guard waits.count > 0 else { return .null }
        let zeros = waits.buckets().first { $0.lowerBound == 0 }?.count ?? 0
        return .fixed(Double(waits.count - zeros) / Double(waits.count), 4)
    }

    /// The cause with the most requests (`backend.load.peak.cause`, `peakSecond.cause`),
    /// the first by name of equals; `null` when there are none.
    public static func mainCause(_ counts: [String: Int64]) -> ReportValue {
        var best: (name: String, count: Int64)?
        for name in counts.keys.sorted() where counts[name]! > (best?.count ?? 0) { best = (name, counts[name]!) }
        return best.map { .string($0.name) } ?? .null
    }

    /// Expired items (a feature's tokens) per active one and week at 5 digits
    /// (`expirationRatePerWeek`); `null` without active ones.
    public static func expirationRatePerWeek(expired: Int64, active: Int64, durationSeconds: Double) -> ReportValue {
        let weeks = Swift.max(durationSeconds / (7 * 86_400), 1e-9)
        return active > 0 ? .fixed(Double(expired) / Double(active) / weeks, 5) : .null
    }
}
