import SimKernel
import AppLogic

/// The backend's load over simulated time, for capacity planning: counts per minute
/// (``bucket``) for the whole run, and the largest values seen in each minute.
///
/// Memory is bounded by the run's length, allocated once: one `UInt32` per bucket and
/// series, 1,440 buckets a day; 8 API series (5 endpoints, 503s, no-answers, busy
/// workers) here and, with push, 8 push series in the push host's ``PushLoad``. The
/// default week is 10,080 buckets (645 kB with push); the longest run the scenario
/// format allows (366 days) is 527,040 buckets, at most 34 MB.
struct LoadSeries {
    static let bucket = SimDuration.minutes(1)
    /// The endpoints as `backend.requests.byEndpoint` names them, in ``endpointIndex(_:)`` order.
    static let endpointNames = ["/v1/test/history", "/v1/test/active", "/v1/homework/analyze", "/api/v1/steps/sync", "/api/v1/steps"]

    let buckets: Int
    /// API requests arriving, by endpoint (``endpointNames``).
    var requests: [[UInt32]]
    /// API requests answered 503 (queue full).
    var apiRejected: [UInt32]
    /// API requests the server never answered (a `backendOutage`).
    var apiUnanswered: [UInt32]
    /// The most API workers busy at once, seen when a request arrives or a worker finishes.
    var apiBusyPeak: [UInt32]

    init(duration: SimDuration) {
        buckets = Self.buckets(duration)
        let zeros = [UInt32](repeating: 0, count: buckets)
        requests = Array(repeating: zeros, count: Self.endpointNames.count)
        apiRejected = zeros
        apiUnanswered = zeros
        apiBusyPeak = zeros
    }

    /// Buckets of a run of `duration` (at least one).
    static func buckets(_ duration: SimDuration) -> Int {
        max(1, Int((duration.microseconds + bucket.microseconds - 1) / bucket.microseconds))
    }

    @inline(__always) func index(_ now: SimTime) -> Int { Self.index(now, buckets: buckets) }

    @inline(__always) static func index(_ now: SimTime, buckets: Int) -> Int {
        min(buckets - 1, max(0, Int(now.microseconds / bucket.microseconds)))
    }

    static func endpointIndex(_ endpoint: Endpoint) -> Int {
        switch endpoint {
        case .testHistory: return 0
        case .activeSession: return 1
        case .analysis: return 2
        case .syncSteps(let upload): return upload.method == .upsert ? 3 : 4
        }
    }

    /// Requests of every endpoint, per bucket.
    var total: [UInt32] {
        var sum = requests[0]
        for series in requests.dropFirst() { for b in series.indices { sum[b] &+= series[b] } }
        return sum
    }
}
