import AppLogic
import SimKernel
import Reports

/// What the push pipeline measured (seed `001`'s "Aggregated Push Metrics").
struct PushMetrics {
    /// Created, by source (``Scenario/PushSourceName`` order, then broadcasts) and by priority.
    var createdBySource = [UInt64](repeating: 0, count: 5)
    var createdByPriority = [UInt64](repeating: 0, count: 4)
    /// Final outcomes by ``PushOutcome``, filled when the run closes; `inFlight` and `lost` besides.
    var outcomes = [UInt64](repeating: 0, count: PushOutcome.allCases.count)
    var inFlightAtEnd: UInt64 = 0
    var lost: UInt64 = 0
    var suppressedByReason = [UInt64](repeating: 0, count: PushMetrics.suppressionNames.count)
    var held: UInt64 = 0
    var summaries: UInt64 = 0
    /// Sends by provider (APNs 0, FCM 1) and their answers.
    var sends = [UInt64](repeating: 0, count: 2)
    var accepted = [UInt64](repeating: 0, count: 2)
    var byStatus = [[UInt64]](repeating: [UInt64](repeating: 0, count: PushMetrics.statuses.count), count: 2)
    var unanswered = [UInt64](repeating: 0, count: 2)
    var rejectedByQueue = [UInt64](repeating: 0, count: 2)
    var retries: UInt64 = 0
    var failuresByReason = [UInt64](repeating: 0, count: PushMetrics.failureNames.count)
    var emailFallbacks = [UInt64](repeating: 0, count: 2)
    var tokens = [UInt64](repeating: 0, count: PushMetrics.tokenNames.count)
    var registrations: UInt64 = 0
    /// The token lifecycle workload (World+PushLifecycle.swift).
    var rotations: UInt64 = 0
    var uninstalls: UInt64 = 0
    var reinstalls: UInt64 = 0
    var purged: UInt64 = 0
    /// Seed `001`: "User notified via email before purging".
    var purgeNotices: UInt64 = 0
    var shown: UInt64 = 0
    var shownQuietly: UInt64 = 0
    var notShownWithoutPermission: UInt64 = 0
    var collapsedInPlace: UInt64 = 0
    /// Silent pushes by ``silentNames``: at arrival delivered, coalesced (held by the
    /// throttle, or merged into the push it holds) or dropped; then, for each held one,
    /// delivered or dropped when its time comes (one wake carries every merged push).
    var silent = [UInt64](repeating: 0, count: 5)
    var opened: UInt64 = 0
    var dismissed: UInt64 = 0
    var timeToOpen = LatencyHistogram()
    var providerLatency = [LatencyHistogram(), LatencyHistogram()]
    var createdToDelivered = [LatencyHistogram(), LatencyHistogram(), LatencyHistogram(), LatencyHistogram()]

    static let sourceNames = ["assignmentDue", "teacherFeedback", "challenge", "announcement", "broadcast"]
    static let priorityNames = ["low", "normal", "high", "blocking"]
    static let suppressionNames = ["optedOut", "activeInApp", "dailyLimit", "weeklyLimit", "noActiveDevice", "payloadTooLarge", "lowPriority"]
    static let statuses = [400, 403, 404, 405, 410, 413, 429, 500, 503]
    static let failureNames = ["unregistered", "clientError", "rateLimited", "serverError", "timedOut", "expired"]
    static let tokenNames = ["active", "inactive", "expired", "revoked"]
    static let silentNames = ["delivered", "coalesced", "dropped", "deliveredAfterWait", "droppedAfterWait"]

    static func index(_ s: PushSuppression) -> Int {
        switch s {
        case .optedOut: return 0
        case .activeInApp: return 1
        case .dailyLimit: return 2
        case .weeklyLimit: return 3
        case .noActiveDevice: return 4
        case .payloadTooLarge: return 5
        case .lowPriority: return 6
        }
    }

    static func index(_ r: PushFailureReason) -> Int {
        switch r {
        case .unregistered: return 0
        case .clientError: return 1
        case .rateLimited: return 2
        case .serverError: return 3
        case .timedOut: return 4
        case .expired: return 5
        }
    }

    static func index(_ s: PushTokenStatus) -> Int {
        switch s {
        case .active: return 0
        case .inactive: return 1
        case .expired: return 2
        case .revoked: return 3
        }
    }
}

/// The backend's load over simulated time, for capacity planning: counts per minute
/// (``bucket``) for the whole run, and the largest values seen in each minute.
///
/// Memory is bounded by the run's length, allocated once: one `UInt32` per bucket and
/// series, 1,440 buckets a day; 8 API series (5 endpoints, 503s, no-answers, busy
/// workers) and, with push, 8 push series. The default week is 10,080 buckets (645 kB
/// with push); the longest run the scenario format allows (366 days) is 527,040
/// buckets, at most 34 MB.
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
    /// Push sends handed to each provider (APNs, FCM); empty without a push cohort.
    var pushSends: [[UInt32]]
    /// Sends the push service refused (its queue full) or the provider refused with 429 or 5xx.
    var pushRejected: [[UInt32]]
    /// The longest push queue, and the most sends awaiting an answer, per provider.
    var pushQueuePeak: [[UInt32]]
    var pushStreamingPeak: [[UInt32]]

    init(duration: SimDuration, push: Bool) {
        buckets = max(1, Int((duration.microseconds + Self.bucket.microseconds - 1) / Self.bucket.microseconds))
        let zeros = [UInt32](repeating: 0, count: buckets)
        requests = Array(repeating: zeros, count: Self.endpointNames.count)
        apiRejected = zeros
        apiUnanswered = zeros
        apiBusyPeak = zeros
        let perProvider: [[UInt32]] = push ? [zeros, zeros] : [[], []]
        pushSends = perProvider
        pushRejected = perProvider
        pushQueuePeak = perProvider
        pushStreamingPeak = perProvider
    }

    @inline(__always) func index(_ now: SimTime) -> Int {
        min(buckets - 1, max(0, Int(now.microseconds / Self.bucket.microseconds)))
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
