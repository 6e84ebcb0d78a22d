import AppLogic
import SimKernel
import Reports

/// What the background refresh measures (seeds `000`, `002`), accumulated as the run
/// goes: its latencies, each task's time and energy, the test notifications it posted
/// and the logic's analytics events. The refresh host keeps it (``RefreshHost/metrics``)
/// and reports it (Features/Refresh/RefreshReport.swift).
struct RefreshMetrics {
    /// A test becoming available to the first notification of it (each window once).
    var testAvailableToNotified: TimedLatency
    /// A test becoming available to the user seeing it at an open (each window once).
    var testAvailableToSeen: TimedLatency
    /// Each refresh task's time, launch to its end for the OS.
    var taskDuration: TimedLatency
    /// Energy of each refresh task, per cohort.
    var energy: [EventEnergy]
    /// Test-available notifications shown (`notifications.posted`).
    var notificationsPosted: UInt64 = 0
    /// Analytics events, counted by ``AnalyticsCounter/index(of:)``.
    var analytics = [UInt64](repeating: 0, count: AnalyticsCounter.names.count)

    /// `capacities`: each cohort's battery capacity (mAh); `duration`: the run's.
    init(capacities: [Double], duration: SimDuration) {
        energy = capacities.map(EventEnergy.init(capacityMah:))
        testAvailableToNotified = TimedLatency(durationMicroseconds: duration.microseconds)
        testAvailableToSeen = testAvailableToNotified
        taskDuration = testAvailableToNotified
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
