import SimKernel
import Reports

/// What a run measures, accumulated as it goes.
struct Metrics {
    var testAvailableToNotified = LatencyHistogram()
    var testAvailableToSeen = LatencyHistogram()
    var refreshTaskDuration = LatencyHistogram()
    var queueingLatency = LatencyHistogram()
    /// Energy of each background refresh task, per cohort, in nano-mAh for the histogram.
    var refreshEnergy: [[Double]]

    var requestsHistory: UInt64 = 0
    var requestsActive: UInt64 = 0
    var rejected: UInt64 = 0
    var unanswered: UInt64 = 0
    var timeouts: UInt64 = 0
    var transportFailures: UInt64 = 0
    var unauthorized: UInt64 = 0
    /// Requests arriving at the server, per second of simulated time.
    var arrivalsPerSecond: [UInt32]

    var launches: UInt64 = 0
    var submitUnavailable: UInt64 = 0
    var launchesHeldBack: UInt64 = 0
    var expirations: UInt64 = 0
    var earlyExpirations: UInt64 = 0
    var watchdogKills: UInt64 = 0
    var jetsamKills: UInt64 = 0
    var notificationsPosted: UInt64 = 0
    var notificationsSuppressed: UInt64 = 0
    var appOpens: UInt64 = 0
    var testsTaken: UInt64 = 0
    /// Analytics events by name, in a fixed order.
    var analytics: [String: UInt64] = [:]

    init(cohorts: Int, seconds: Int) {
        refreshEnergy = Array(repeating: [], count: cohorts)
        arrivalsPerSecond = Array(repeating: 0, count: max(1, seconds))
    }
}
