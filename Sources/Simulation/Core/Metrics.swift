import AppLogic
import SimKernel
import Reports

/// What a run measures, accumulated as it goes.
struct Metrics {
    var testAvailableToNotified = LatencyHistogram()
    var testAvailableToSeen = LatencyHistogram()
    var refreshTaskDuration = LatencyHistogram()
    var queueingLatency = LatencyHistogram()
    /// Energy of each background refresh task (mAh), per cohort.
    var refreshEnergy: [[Double]]
    /// Step sync (seed `003`).
    var stepsRecordedToSynced = LatencyHistogram()
    /// Energy of each step upload (mAh), per cohort.
    var syncEnergy: [[Double]]
    var requestsStepSync: UInt64 = 0
    var requestsStepInsert: UInt64 = 0
    var stepUploads: UInt64 = 0
    var healthDeliveries: UInt64 = 0
    var staleSyncNotifications: UInt64 = 0

    var requestsHistory: UInt64 = 0
    var requestsActive: UInt64 = 0
    var rejected: UInt64 = 0
    var unanswered: UInt64 = 0
    var timeouts: UInt64 = 0
    var transportFailures: UInt64 = 0
    var unauthorized: UInt64 = 0
    /// Requests arriving at the server, per second of simulated time (grown as traffic comes).
    var arrivalsPerSecond: [UInt32] = []

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
    /// Analytics events, counted by ``AnalyticsCounter/index(of:)``.
    var analytics = [UInt64](repeating: 0, count: AnalyticsCounter.names.count)
    var continuation = ContinuationMetrics()
    var platform = PlatformMetrics()

    init(cohorts: Int) {
        refreshEnergy = Array(repeating: [], count: cohorts)
        syncEnergy = Array(repeating: [], count: cohorts)
    }

    mutating func countArrival(at now: SimTime) {
        let second = Int(now.microseconds / 1_000_000)
        if second >= arrivalsPerSecond.count {
            arrivalsPerSecond.append(contentsOf: repeatElement(0, count: second - arrivalsPerSecond.count + 1))
        }
        arrivalsPerSecond[second] &+= 1
    }
}


/// Seed `000`'s analytics events, counted in an array instead of hashing names per event.
enum AnalyticsCounter {
    static let names = ["background_refresh_started", "background_refresh_completed",
                        "background_refresh_notification_sent", "background_refresh_data_fetched"]

    static func index(of event: AnalyticsEvent) -> Int {
        switch event {
        case .refreshStarted: return 0
        case .refreshCompleted: return 1
        case .notificationSent: return 2
        case .dataFetched: return 3
        }
    }
}
