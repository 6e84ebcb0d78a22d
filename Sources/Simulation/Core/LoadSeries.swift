import SimKernel
import AppLogic

/// The backend's load over simulated time, for capacity planning: counts per minute
/// (``bucket``) for the whole run, and the largest values seen in each minute.
///
/// Memory is bounded by the run's length, allocated once: one `UInt32` per bucket and
/// series, 1,440 buckets a day; 23 API series (5 endpoints today, 15 causes, 503s,
/// no-answers, busy workers) and one `UInt64` series (busy-worker time) here, and the
/// features' own series in their hosts (8 `UInt32` and 2 `UInt64` today). The default
/// week is 10,080 buckets (1.5 MB with the features' series); the longest run the
/// scenario format allows (366 days) is 527,040 buckets, at most 78 MB.
struct LoadSeries {
    static let bucket = SimDuration.minutes(1)
    /// The endpoints as `backend.requests.byEndpoint` names them, in the endpoint table's
    /// order (``RequestOwner/endpoints``: each feature declares its own).
    static let endpointNames = RequestOwner.endpoints.map(\.path)

    let buckets: Int
    /// API requests arriving, by endpoint (``endpointNames``).
    var requests: [[UInt32]]
    /// API requests answered 503 (queue full).
    var apiRejected: [UInt32]
    /// API requests the server never answered (a `backendOutage`).
    var apiUnanswered: [UInt32]
    /// The most API workers busy at once in the bucket (``BucketPeaks``).
    var apiBusyPeak: BucketPeaks
    /// API requests arriving, by cause (``LoadCause`` order).
    var byCause: [[UInt32]]
    /// Busy-worker time in the bucket, in worker-microseconds: each service's time within
    /// the bucket (and the run), added when the service starts. Exact, and it adds up
    /// across shards, unlike the peaks.
    var apiBusy: [UInt64]
    /// Busy-worker time of the whole run per endpoint (``endpointNames`` order), in
    /// worker-microseconds.
    var apiBusyByEndpoint = [UInt64](repeating: 0, count: endpointNames.count)

    init(duration: SimDuration) {
        buckets = Self.buckets(duration)
        let zeros = [UInt32](repeating: 0, count: buckets)
        requests = Array(repeating: zeros, count: Self.endpointNames.count)
        apiRejected = zeros
        apiUnanswered = zeros
        apiBusyPeak = BucketPeaks(buckets: buckets)
        byCause = Array(repeating: zeros, count: LoadCause.allCases.count)
        apiBusy = [UInt64](repeating: 0, count: buckets)
    }

    /// A worker serves a request to `endpoint` from `start` for `service`: its time up to
    /// `end` (the run's) counts as busy, in the buckets it spans.
    mutating func addBusy(from start: SimTime, for service: SimDuration, endpoint: Int, end: SimTime) {
        // Compared before adding: a slowdown fault can make a service time near Int64.max.
        let stop = service.microseconds >= end.microseconds - start.microseconds ? end.microseconds : start.microseconds + service.microseconds
        guard stop > start.microseconds else { return }
        apiBusyByEndpoint[endpoint] &+= UInt64(stop - start.microseconds)
        Self.spread(from: start.microseconds, to: stop, into: &apiBusy)
    }

    /// Adds the interval `[from, to)` (microseconds) to the buckets it spans, each its part.
    static func spread(from: Int64, to: Int64, into series: inout [UInt64]) {
        var t = from
        while t < to {
            let b = index(SimTime(microseconds: t), buckets: series.count)
            let bucketEnd = b == series.count - 1 ? to : min(to, Int64(b + 1) * bucket.microseconds)
            series[b] &+= UInt64(bucketEnd - t)
            t = bucketEnd
        }
    }

    /// Buckets of a run of `duration` (at least one).
    static func buckets(_ duration: SimDuration) -> Int {
        max(1, Int((duration.microseconds + bucket.microseconds - 1) / bucket.microseconds))
    }

    @inline(__always) func index(_ now: SimTime) -> Int { Self.index(now, buckets: buckets) }

    @inline(__always) static func index(_ now: SimTime, buckets: Int) -> Int {
        min(buckets - 1, max(0, Int(now.microseconds / bucket.microseconds)))
    }

    /// Requests of every endpoint, per bucket.
    var total: [UInt32] {
        var sum = requests[0]
        for series in requests.dropFirst() { for b in series.indices { sum[b] &+= series[b] } }
        return sum
    }
}
