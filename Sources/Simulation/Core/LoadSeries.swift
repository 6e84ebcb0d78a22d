import SimKernel
import AppLogic

/// The backend's load over simulated time, for capacity planning: counts per bucket
/// (``bucket``: a minute for a run of up to 7 days) for the whole run, and the largest
/// values seen in each bucket.
///
/// Memory is bounded whatever the run's length, allocated once: at most
/// ``maximumBuckets`` buckets (``bucket(for:)``), one `UInt32` per bucket and series; 23
/// API series (5 endpoints today, 15 causes, 503s, no-answers, busy workers) and one per
/// time zone of the fleet (9 in the default scenario), and 21
/// `UInt64` series (busy-worker time, in all, by endpoint and by cause) here, and the
/// features' own series in their hosts (8 `UInt32` and 2 `UInt64` today): 3.5 MB with
/// the features' series and the default's zones. report.json
/// writes each series (docs/report.md, "backend.load"), so its size is bounded too.
struct LoadSeries {
    /// The most buckets of a run: a week of minutes.
    static let maximumBuckets: Int64 = 10_080

    /// The bucket width of a run of `duration`: the first of a minute, 5 and 15 minutes,
    /// an hour, 6 hours and a day that keeps the run within ``maximumBuckets`` buckets
    /// (a minute up to 7 days; an hour for 366 days).
    static func bucket(for duration: SimDuration) -> SimDuration {
        let widths: [SimDuration] = [.minutes(1), .minutes(5), .minutes(15), .hours(1), .hours(6)]
        return widths.first { (duration.microseconds + $0.microseconds - 1) / $0.microseconds <= maximumBuckets } ?? .hours(24)
    }

    let bucket: SimDuration
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
    /// Busy-worker time per bucket, by endpoint and by the cause of the request served:
    /// what makes the minute of the most work (docs/report.md, "The peak by work").
    var apiBusyByEndpointOverTime: [[UInt64]]
    var apiBusyByCause: [[UInt64]]
    /// API requests arriving, by the time zone its phone was in (``WorldCore/timeZones``
    /// order): whose local time a peak minute is (docs/report.md, "Local time").
    var byZone: [[UInt32]]

    /// `zones`: the fleet's time zones (none for a load without phones).
    init(duration: SimDuration, zones: Int = 0) {
        bucket = Self.bucket(for: duration)
        buckets = Self.buckets(duration)
        let zeros = [UInt32](repeating: 0, count: buckets)
        requests = Array(repeating: zeros, count: Self.endpointNames.count)
        apiRejected = zeros
        apiUnanswered = zeros
        apiBusyPeak = BucketPeaks(buckets: buckets)
        byCause = Array(repeating: zeros, count: LoadCause.allCases.count)
        apiBusy = [UInt64](repeating: 0, count: buckets)
        apiBusyByEndpointOverTime = Array(repeating: apiBusy, count: Self.endpointNames.count)
        apiBusyByCause = Array(repeating: apiBusy, count: LoadCause.allCases.count)
        byZone = Array(repeating: zeros, count: zones)
    }

    /// A worker serves a request to `endpoint` from `start` for `service`: its time up to
    /// `end` (the run's) counts as busy, in the buckets it spans.
    mutating func addBusy(from start: SimTime, for service: SimDuration, endpoint: Int, cause: LoadCause, end: SimTime) {
        // Compared before adding: a slowdown fault can make a service time near Int64.max.
        let stop = service.microseconds >= end.microseconds - start.microseconds ? end.microseconds : start.microseconds + service.microseconds
        guard stop > start.microseconds else { return }
        apiBusyByEndpoint[endpoint] &+= UInt64(stop - start.microseconds)
        Self.spread(from: start.microseconds, to: stop, bucket: bucket, into: &apiBusy)
        Self.spread(from: start.microseconds, to: stop, bucket: bucket, into: &apiBusyByEndpointOverTime[endpoint])
        Self.spread(from: start.microseconds, to: stop, bucket: bucket, into: &apiBusyByCause[Int(cause.rawValue)])
    }

    /// Adds the interval `[from, to)` (microseconds) to the buckets (of width `bucket`) it
    /// spans, each its part.
    static func spread(from: Int64, to: Int64, bucket: SimDuration, into series: inout [UInt64]) {
        var t = from
        while t < to {
            let b = index(SimTime(microseconds: t), bucket: bucket, buckets: series.count)
            let bucketEnd = b == series.count - 1 ? to : min(to, Int64(b + 1) * bucket.microseconds)
            series[b] &+= UInt64(bucketEnd - t)
            t = bucketEnd
        }
    }

    /// Buckets of a run of `duration` (at least one).
    static func buckets(_ duration: SimDuration) -> Int {
        let bucket = bucket(for: duration)
        return max(1, Int((duration.microseconds + bucket.microseconds - 1) / bucket.microseconds))
    }

    @inline(__always) func index(_ now: SimTime) -> Int { Self.index(now, bucket: bucket, buckets: buckets) }

    @inline(__always) static func index(_ now: SimTime, bucket: SimDuration, buckets: Int) -> Int {
        min(buckets - 1, max(0, Int(now.microseconds / bucket.microseconds)))
    }

    /// Requests of every endpoint, per bucket.
    var total: [UInt32] {
        var sum = requests[0]
        for series in requests.dropFirst() { for b in series.indices { sum[b] &+= series[b] } }
        return sum
    }
}
