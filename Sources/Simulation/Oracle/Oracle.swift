import SimKernel
import Reports

/// The invariants, judged from ground truth the world owns (what the OS saw, what
/// the backend knows), never from what the logic believes.
public enum ViolationKind: String, CaseIterable, Sendable {
    /// `setTaskCompleted` called more than once for one task (seed `002`, issue 1).
    case taskCompletedTwice
    /// A task not completed after its expiration was killed by the watchdog.
    case taskKilledByWatchdog
    /// A test-available notification before the test was truly available.
    case notifiedBeforeAvailable
    /// More than one test-available notification in one test window.
    case notifiedTwiceInWindow
    /// A notification although the app was opened less than 24 h before (seed `000`).
    case notifiedDespiteRecentOpen
    /// A refresh fetched the history of a truly available, not yet notified test and
    /// completed successfully without notifying, although the user (by ground truth)
    /// had not opened the app for 24 h, was not taking the test and allows notifications.
    case availableTestNotNotified
    /// The next refresh was asked for at other than the preferred interval (4 h) after the
    /// device's wall clock at the request, or a task asked for the test history before it
    /// had asked for its next refresh (seed `000`: "Refresh Frequency", "Schedule next
    /// refresh before starting work").
    case refreshRequestDateWrong
    /// A refresh asked for the test history less than the minimum interval (12 h) after
    /// the last refresh that finished: a task that got a history answer and completed
    /// successfully (seed `000`, "Conditional Execution"). Measured in true elapsed time,
    /// as the logic documents (the boot clock; no reboots are modelled): a wall clock
    /// set back or forward changes nothing.
    case refreshedTooSoon
    /// The app's background task, run by the refresh, ended (completed, stopped or killed)
    /// later than the hard stop (20 s) after its launch (seed `000`, Phase 5.1 "Enforce
    /// 20-second max").
    case refreshPastHardStop
    /// A refresh asked for the test history while the user was signed out, at the task's
    /// launch and at the request (seed `000`, "Skip if user is unauthenticated").
    case refreshWhileSignedOut
    /// A refresh asked for the test history while the device was offline (seed `000`,
    /// "Skip if network is unavailable (fail fast)").
    case refreshRequestWhileOffline
    /// A refresh asked for more of the test history than the latest test, `limit` ≠ 1
    /// (seed `000`, "Minimal Network Requests").
    case historyNotLimitOne
    /// The app asked the OS to post a notification while the user's permission allowed
    /// none, at the task's launch and at the request (seed `000`, Phase 3.1: "guard
    /// status == .authorized"). The detail names the feature.
    case postedWithoutPermission
    /// A `background_refresh_completed` event whose duration is not the task's true time
    /// from its launch to now (seed `000`, Decision 6: "success/failure, duration").
    case refreshAnalyticsWrong
    /// When the user opens the app, the badge differs from the number of unread
    /// notifications (seed `002`, issue 3).
    case badgeDiffersFromUnread
    /// A result of seed `004`'s analysis reached the app but was neither seen by the
    /// user nor on disk when the app was terminated.
    case continuationResultLost
    /// An analysis-complete notification without a result in the app (seed `004`).
    case continuationNotifiedWithoutResult
    /// A request the provider refused with a client error (400, 403, 405, 413) was sent
    /// again (seed `001`: "no retry on 4xx").
    case pushClientErrorRetried
    /// A send to a token the provider had reported unregistered (410/404) before the
    /// device registered it again (seed `001`: "mark device expired").
    case pushSentToUnregisteredToken
    /// A normal push sent inside the user's quiet hours and displayed inside them (seed `001`).
    case pushDisplayedInQuietHours
    /// A push displayed again on a device where its collapse id is still shown.
    case pushCollapseIdShownTwice
    /// A created notification neither delivered, emailed, expired by its TTL, suppressed
    /// by a rule, failed on every device, dropped by the provider's rules, nor in flight.
    case pushNotificationLost
    /// More than one step row for one (user, date, source) (seed `003`: upsert).
    case duplicateStepRows
    /// A local day that ended within the 30 days before a read the server then received,
    /// whose true steps the server does not hold in full (seed `003`: backfill).
    case stepsNeverSynced
    /// A step upload while the battery was truly low (seed `003`: "mandatory"; `docs/platform-facts.md` E).
    case syncedOnLowBattery
}

public struct Violation: Sendable, Equatable {
    public var kind: ViolationKind
    public var device: Int
    public var time: SimTime
    public var detail: String

    /// The order samples of one kind are kept in: time, then device, then detail.
    func precedes(_ other: Violation) -> Bool {
        time != other.time ? time < other.time : device != other.device ? device < other.device : detail < other.detail
    }
}

/// The judge (after TigerBeetle's `state_checker`): features report observations
/// (`observe...` in this folder, one file per feature), the checkers here keep the
/// judge-only ground truth and decide violations. It only watches: an observation
/// returns nothing, and no model decision reads a checker's state. Counts checks and violations and
/// keeps up to ``samplesPerKind`` violations of every kind.
struct Oracle {
    /// Samples kept per kind: a rare kind keeps its evidence in a run full of a common one.
    /// The merge keeps as many, so they are one constant.
    static let samplesPerKind = ReportMerge.samplesPerKind
    /// Whether the checks run (every `observe...` returns at once when not). The model
    /// never reads a check's outcome nor the checkers' state, so a run with the checks
    /// off reports the same figures but `invariants` (OracleOffTests).
    var watching = true
    var checked: UInt64 = 0
    var counts = [UInt64](repeating: 0, count: ViolationKind.allCases.count)
    /// Per kind (``ViolationKind`` order), the smallest violations by (time, device,
    /// detail), ascending. Not the first detected: which ones are kept must not depend on
    /// the order of checks within an instant, so that shards merged keep the plain run's
    /// (local device order is global order in a shard, ``ShardPlan/global(_:)``).
    var samples = [[Violation]](repeating: [], count: ViolationKind.allCases.count)
    var refresh: RefreshChecker
    var steps: StepsChecker

    init(devices: Int) {
        refresh = RefreshChecker(devices: devices)
        steps = StepsChecker(devices: devices)
    }

    var violations: UInt64 { counts.reduce(0, +) }

    /// Records one check; `detail` (built by the caller only when the check fails) says
    /// what went wrong. Returns whether it held.
    @discardableResult
    mutating func check(_ holds: Bool, _ kind: ViolationKind, device: Int, time: SimTime, detail: String?) -> Bool {
        checked &+= 1
        guard !holds else { return true }
        let k = ViolationKind.allCases.firstIndex(of: kind)!
        counts[k] += 1
        let violation = Violation(kind: kind, device: device, time: time, detail: detail ?? kind.rawValue)
        if samples[k].count < Oracle.samplesPerKind || violation.precedes(samples[k][samples[k].count - 1]) {
            samples[k].insert(violation, at: samples[k].firstIndex { violation.precedes($0) } ?? samples[k].count)
            if samples[k].count > Oracle.samplesPerKind { samples[k].removeLast() }
        }
        return false
    }

    /// Every kept sample in (time, device, kind, detail) order: the order the merge writes.
    var sampleList: [Violation] {
        samples.joined().sorted { a, b in
            a.time != b.time ? a.time < b.time : a.device != b.device ? a.device < b.device
                : a.kind != b.kind ? a.kind.rawValue < b.kind.rawValue : a.detail < b.detail
        }
    }
}
