import SimKernel
import Reports
import Scenario

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
    /// A refresh task asked for the test history a second time: a failure ends the task
    /// with `success: false` and waits for the next launch, no retry inside the task
    /// (seed `000`, Decision 5).
    case refreshRequestRetried
    /// A refresh task got a 401 and completed with the user still signed in, or with a
    /// request for its next run still pending (iOS's `BGAppRefreshTask` request, Android's
    /// refresh work enqueued) (seed `000`, Phase 5.3: "log out user, clear refresh schedule").
    case unauthorizedNotSignedOut
    /// A refresh asked for the active session although its history answer showed no
    /// available test: the window was not truly open when the server answered (seed
    /// `000`, "Data to Fetch": "use active endpoint only if needed").
    case activeSessionNotNeeded
    /// A refresh posted its test notification although the active-session answer its task
    /// got said a test was in progress (the server's truth when it answered) (seed `000`,
    /// "Check active session": a test in progress means nothing is due).
    case notifiedDuringTest
    /// When the user opens the app, the badge differs from the number of unread
    /// notifications (seed `002`, issue 3).
    case badgeDiffersFromUnread
    /// A result of seed `004`'s analysis reached the app but was neither seen by the
    /// user nor on disk when the app was terminated.
    case continuationResultLost
    /// An analysis-complete notification without a result in the app (seed `004`).
    case continuationNotifiedWithoutResult
    /// An analysis not ended at its mode's timeout (seed `004`, "Integration with Parsing
    /// Modes": hierarchical 300 s, baseline 180 s, from the request's send, in elapsed
    /// time): its answer reached the app, or the app cancelled it, after the timeout; it
    /// was still running at a kill, a new start or the run's end past it; or the timeout
    /// timer ended it at another instant than the timeout.
    case continuationPastDeadline
    /// An analysis request sent while the device's earlier one was still in flight
    /// (seed `004`, "Known Limitations" 3: one analysis at a time).
    case analysisStartedTwice
    /// The background option offered at another time than `logic.continuation.offerAfter`
    /// (10 s) after the analysis's send, or when no analysis was in flight (seed `004`,
    /// "10-Second Detection": "if still processing").
    case offerTimingWrong
    /// "Move On & Notify" chosen while the analysis was in flight, and the app held no
    /// background task from the OS afterwards (seed `004`, "Background Task Continuation":
    /// the work must go on once the user leaves).
    case moveOnWithoutBackgroundTask
    /// "Move On & Notify" chosen while the notification permission was not determined
    /// (or only provisional), and the user was not asked (seed `004`, "Permission
    /// request: Shown on first use").
    case permissionNotRequested
    /// A successful result reached the app after the user moved on, before any open,
    /// while the permission allowed notifications, and no "Homework Analysis Complete"
    /// was shown (seed `004`, "Background completion: Notification appears").
    case continuationNotNotified
    /// At an open the app held a result the user had not seen and did not show it, or it
    /// showed a result that was not an unseen one (seed `004`, Known Limitations 4:
    /// "Results appear immediately on app open", once).
    case continuationResultShownWrong
    /// A request the provider refused with a client error (400, 403, 405, 413) was sent
    /// again (seed `001`: "no retry on 4xx").
    case pushClientErrorRetried
    /// A send to a token the provider had reported unregistered (410/404) before the
    /// device registered it again (seed `001`: "mark device expired").
    case pushSentToUnregisteredToken
    /// A normal or high push first sent inside the user's quiet hours and displayed inside
    /// them (seed `001`, "Quiet Hours": held, and sent at their end; blocking bypasses them),
    /// judged on the home zone's wall clock by the oracle's own ``OracleZone``.
    case pushDisplayedInQuietHours
    /// A push held for quiet hours although they had not begun, or held until an instant
    /// that is not their end: the first instant after `now` at which the home zone's wall
    /// clock leaves them, at most 25 h away; or a held push (alone or in the summary that
    /// carries it) first sent at another instant than that end (seed `001`, "Quiet Hours":
    /// "queue for after quiet hours").
    case pushHeldOutsideQuietHours
    /// More normal pushes (first sends of alerts and summaries) in one of the user's local
    /// days than `logic.push.normalPerDay` (seed `001`, "Push Frequency Limits": 5 a day).
    case normalDailyLimitExceeded
    /// More high pushes (first sends) in one of the user's local Monday-to-Sunday weeks than
    /// `logic.push.highPerWeek` (seed `001`, "Push Frequency Limits": 10 a week).
    case highWeeklyLimitExceeded
    /// A retry sent at another time than its failed answer plus the wait seed `001` sets
    /// ("Retry Logic": 1 s, 5 s, 25 s for a 5xx or a timeout; 429 from 1 min, doubled;
    /// `Retry-After` when longer), or beyond the number of retries.
    case pushRetryScheduleWrong
    /// A push sent after its TTL, or with another expiration than its TTL gives (seed `001`,
    /// "Notification Expiration": high and blocking 24 h, normal 7 d, low and silent 3 d).
    case pushExpirationWrong
    /// A high push still undelivered (as the server knows it) 15 min after its send got no
    /// email at 15 min + 1 µs, or one delivered or failed in time, or of a user without
    /// email, got that email (seed `001`, "Fallback Mechanism": `logic.push.highEmailDelay`).
    case highEmailFallbackWrong
    /// An email fallback to a user who has not enabled email (seed `001`, "Fallback
    /// Mechanism": "if user has email enabled"), by the settings the scenario drew.
    case emailWithoutConsent
    /// A push displayed again on a device where its collapse id is still shown.
    case pushCollapseIdShownTwice
    /// A created notification neither delivered, emailed, expired by its TTL, suppressed
    /// by a rule, failed on every device, dropped by the provider's rules, nor in flight.
    case pushNotificationLost
    /// A low-priority notification sent as a visible alert (seed `001`, "Priority-Based
    /// Delivery": low is in-app only, with a badge-only silent push).
    case lowPriorityAlerted
    /// A push (other than a retry, which resends its first payload) whose badge is not the
    /// user's unread count: the notifications created and not yet read at an open, counted
    /// by the oracle (seed `001`, "Badge Management": the backend keeps the count per user).
    case pushBadgeCountWrong
    /// A notification created or read changed the user's unread count, no alert of that
    /// input carried it, and the user's active token got no badge-only silent push (seed
    /// `001`, "Badge Management": "push badge-only update when count changes").
    case unreadChangeNotPushed
    /// A normal notification created inside the user's quiet hours first sent as an alert
    /// of its own, not in the summary at their end (seed `001`, "Delivery Batching": held
    /// normal pushes go out as one "You have N updates").
    case normalNotBatched
    /// A blocking notification held for quiet hours, or first sent later than its creation
    /// (seed `001`, "Priority-Based Delivery" and "Quiet Hours": blocking is sent at once
    /// and bypasses quiet hours).
    case blockingDelayed
    /// An alert or summary pushed in a category the user turned off, by the settings the
    /// scenario drew (seed `001`, "Granular Opt-In by Category": "Don't send push for that category").
    case pushToOptedOutCategory
    /// A normal push first sent less than `logic.push.activityWindow` (5 min) after the user
    /// opened the app, by the opens the world delivered (seed `001`, "Channel Selection
    /// Logic": "skip push if user active in last 5 minutes").
    case normalPushWhileActive
    /// A notification failed on every device and nothing carries it any more, and the
    /// user, who enabled email, got no email (seed `001`, "Fallback Mechanism": "If push
    /// fails to all devices: Send email notification (if enabled)"; "Disaster Recovery":
    /// email at once when a provider is down).
    case failedPushNotEmailed
    /// A token marked expired although its provider never reported it gone (410, 404, a 400
    /// naming it) and no validation push of it failed every retry softly (seed `001`,
    /// "Validation Process": "Don't mark as expired unless all retries fail").
    case tokenExpiredWithoutCause
    /// A send to a token older than the one the server was last told of (seed `001`,
    /// "Token Rotation": the new token replaces the old one, which is revoked).
    case pushSentToReplacedToken
    /// A send handed to its provider at a priority other than high (`apns-priority` 10, FCM
    /// high) for a high or blocking alert and normal (5, FCM normal) for everything else,
    /// silent pushes included (seed `001`, "Priority-Based Delivery"; docs/platform-facts.md G, H).
    case providerPriorityWrong
    /// A token registered active with no send for more than `logic.push.validationInterval`
    /// + `maintenanceInterval` (7 d + the daily run) after its last validation (seed `001`,
    /// "Validation Process": "validates tokens weekly by sending silent test push").
    case tokenValidationLate
    /// A token marked inactive before `logic.push.inactiveAfter` (90 d) without use, or a
    /// device purged before `purgeAfter` (180 d) after its expiry or without the email
    /// notice first (seed `001`, "Device Cleanup").
    case registryCleanupWrong
    /// More than one step row for one (user, date, source) (seed `003`: upsert).
    case duplicateStepRows
    /// A local day that ended within the 30 days before a read the server then received,
    /// whose true steps the server does not hold in full (seed `003`: backfill).
    case stepsNeverSynced
    /// A step upload while the battery was truly low (seed `003`: "mandatory"; `docs/platform-facts.md` E).
    case syncedOnLowBattery
    /// A step-sync retry timer set against the schedule (seed `003`, "Retry Strategy",
    /// "Error Handling"): after the k-th failed attempt of a chain (k ≤ 3) the delay must
    /// be the k-th of `logic.stepSync.retryDelays` (5, 10, 15 min, elapsed time); no timer
    /// after the 4th attempt, after a 401 or another 4xx, or outside a failure's answer.
    case stepRetryScheduleWrong
    /// The "not synced for 24 h" notice against its rule (seed `003`, "Notification on
    /// Long Gap"): it fired although a sync succeeded less than
    /// `logic.stepSync.staleNotificationAge` before (elapsed time), or a success did not
    /// set it for exactly that long after, or it was set without a success.
    case staleNoticeWrong
    /// A step sync started (its health-data read) while the device was truly signed out,
    /// offline or in low-power mode (seed `003`, "Constraints Handling": network only;
    /// "Background Sync Task": signed-in users; Non-Goals: no sync in low-power mode).
    case stepSyncWhenForbidden
    /// A step sync started sooner after the start of the last sync the app heard succeed
    /// than its trigger allows (seed `003`, "Configuration", §6): a refresh launch or a
    /// HealthKit delivery `logic.stepSync.syncInterval` (2 h), an open `openSyncAge`
    /// (24 h), in elapsed time; or periodic work asked for at another interval than `syncInterval`.
    case stepSyncTooSoon
    /// An app open started no step sync although the last successful one started at least
    /// `logic.stepSync.openSyncAge` (24 h) before, no upload of the device was in flight
    /// and the device allowed a sync (signed in, online, not in low-power mode, battery
    /// not low) (seed `003`, §6: "If > 24 hours ago, trigger immediate sync").
    case openSyncMissed
    /// A step upload holding a date before the device's own date `logic.stepSync.backfillLimit`
    /// (30 d) before now, on its clock and zone (seed `003`, §6: "up to 30 days max").
    case stepsBackfilledTooFar
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
    /// The oracle's own wall clock of each of the run's zones (`WorldCore.timeZones` order).
    var zones: [OracleZone]
    var continuation: ContinuationChecker
    /// The push judges' truth per push user and per notification (``PushJudgeState``),
    /// filled by the push host as it draws each user's settings.
    var push = PushJudgeState()
    /// The specs the judges read (the logic set's; ``JudgedSpecs``).
    var judged = JudgedSpecs()
    /// Per kind (``ViolationKind`` order), whether its judge is switched off: its
    /// failures are not recorded (docs/architecture.md, "A judge switched off").
    var off = [Bool](repeating: false, count: ViolationKind.allCases.count)
    /// The judges switched off, each with its reason, in ``ViolationKind`` order
    /// (report.json's `judges.off`).
    var offReasons: [(kind: ViolationKind, reason: String)] = []

    init(devices: Int, timeZones: [String] = []) {
        refresh = RefreshChecker(devices: devices)
        steps = StepsChecker(devices: devices)
        zones = (timeZones.isEmpty ? ["UTC"] : timeZones).map(OracleZone.init(identifier:))
        continuation = ContinuationChecker(devices: devices)
    }

    var violations: UInt64 { counts.reduce(0, +) }

    /// Switches off the judges `switches` names, each with its reason; the first of a
    /// rule named twice wins, and a name that is no ``ViolationKind`` switches nothing off.
    mutating func switchOff(_ switches: [JudgeOff]) {
        for judge in switches {
            guard let kind = ViolationKind(rawValue: judge.rule) else { continue }
            let k = ViolationKind.allCases.firstIndex(of: kind)!
            guard !off[k] else { continue }
            off[k] = true
            offReasons.append((kind, judge.reason))
        }
        offReasons.sort { ViolationKind.allCases.firstIndex(of: $0.kind)! < ViolationKind.allCases.firstIndex(of: $1.kind)! }
    }

    /// Records one check; `detail` (built by the caller only when the check fails) says
    /// what went wrong. Returns whether it held.
    @discardableResult
    mutating func check(_ holds: Bool, _ kind: ViolationKind, device: Int, time: SimTime, detail: String?) -> Bool {
        checked &+= 1
        guard !holds else { return true }
        let k = ViolationKind.allCases.firstIndex(of: kind)!
        guard !off[k] else { return true }
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

/// Where a world keeps its ``Oracle`` (``WorldCore/oracle``): a reference, so that a
/// checker handed the core `borrowing` (the model read-only, by type: writing a device,
/// the clock or a stream does not compile) still writes the oracle's own state. Its one
/// property is read and written only through ``WorldCore/oracle`` and never while another
/// access to it is open (a checker does not hand the oracle on `inout`), so its accesses
/// skip the runtime's exclusivity bookkeeping, which would be a call into the runtime at
/// every observation (docs/architecture.md, "The oracle").
final class OracleCell {
    @exclusivity(unchecked) var oracle: Oracle

    init(_ oracle: Oracle) { self.oracle = oracle }
}
