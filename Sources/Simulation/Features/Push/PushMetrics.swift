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
    /// The token lifecycle workload (PushHost+Lifecycle.swift).
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
    /// throttle, or merged into the push it holds) or dropped; then, for each hold (`held`),
    /// delivered or dropped when its time comes (one wake carries every merged push),
    /// delivered at the user's launch before then, or discarded when the user force-quits
    /// the app or something kills it (jetsam, the watchdog, a background task not ended,
    /// an uninstall) before then.
    var silent = [UInt64](repeating: 0, count: PushMetrics.silentNames.count)
    /// Silent pushes that reached the app in the background: delivered at arrival or when
    /// the held one was due (what wakes an iOS app, ``World/silentPushWakes(_:)``); a
    /// held push delivered at the user's launch reaches an app the user opens.
    var silentWakes: UInt64 { silent[0] + silent[3] }
    var opened: UInt64 = 0
    var dismissed: UInt64 = 0
    var timeToOpen = LatencyHistogram()
    var providerLatency = [LatencyHistogram(), LatencyHistogram()]
    var createdToDelivered: [TimedLatency]

    /// Empty, for a run of `duration` (the latencies' hours).
    init(duration: SimDuration) {
        createdToDelivered = Array(repeating: TimedLatency(durationMicroseconds: duration.microseconds), count: Self.priorityNames.count)
    }

    static let sourceNames = ["assignmentDue", "teacherFeedback", "challenge", "announcement", "broadcast"]
    static let priorityNames = ["low", "normal", "high", "blocking"]
    static let suppressionNames = ["optedOut", "activeInApp", "dailyLimit", "weeklyLimit", "noActiveDevice", "payloadTooLarge", "lowPriority"]
    static let statuses = [400, 403, 404, 405, 410, 413, 429, 500, 503]
    static let failureNames = ["unregistered", "clientError", "rateLimited", "serverError", "timedOut", "expired"]
    static let tokenNames = ["active", "inactive", "expired", "revoked"]
    static let silentNames = ["delivered", "coalesced", "dropped", "deliveredAfterWait", "droppedAfterWait",
                              "held", "deliveredAtLaunch", "discardedAtForceQuit", "discardedAtKill"]

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

/// The push service's load over simulated time (``LoadSeries``'s buckets), per provider
/// (APNs 0, FCM 1): `backend.load`'s push series. Empty without a push cohort.
struct PushLoad {
    let bucket: SimDuration
    let buckets: Int
    /// Sends handed to each provider.
    var sends: [[UInt32]]
    /// Sends the push service refused (its queue full) or the provider refused with 429 or 5xx.
    var rejected: [[UInt32]]
    /// The longest push queue, and the most sends awaiting an answer.
    var queuePeak: [[UInt32]]
    /// The most sends awaiting an answer at once (``BucketPeaks``).
    var streamingPeak: [BucketPeaks]
    /// Open-stream time in the bucket, in stream-microseconds: each send's time from taking
    /// a stream to its answer (within the run), added when the provider takes it. Exact,
    /// and it adds up across shards, unlike the peaks.
    var streamBusy: [[UInt64]]

    init(duration: SimDuration, active: Bool) {
        bucket = LoadSeries.bucket(for: duration)
        buckets = LoadSeries.buckets(duration)
        let perProvider: [[UInt32]] = active ? Array(repeating: [UInt32](repeating: 0, count: buckets), count: 2) : [[], []]
        sends = perProvider
        rejected = perProvider
        queuePeak = perProvider
        streamingPeak = Array(repeating: BucketPeaks(buckets: active ? buckets : 0), count: 2)
        streamBusy = active ? Array(repeating: [UInt64](repeating: 0, count: buckets), count: 2) : [[], []]
    }

    /// Provider `p`'s send holds a stream from `start` until its answer `answeredAt`
    /// (counted up to `end`, the run's).
    mutating func addStreamBusy(_ p: Int, from start: SimTime, to answeredAt: SimTime, end: SimTime) {
        LoadSeries.spread(from: start.microseconds, to: min(answeredAt, end).microseconds, bucket: bucket, into: &streamBusy[p])
    }

    @inline(__always) func index(_ now: SimTime) -> Int { LoadSeries.index(now, bucket: bucket, buckets: buckets) }
}
