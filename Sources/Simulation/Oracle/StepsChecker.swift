import Foundation
import SimKernel
import AppLogic
import Backend
import Platform

/// The step sync's judge-only ground truth (seed `003`), one ``Entry`` per device.
struct StepsChecker {
    /// Each device's truth, in one entry: a step upload's arrival, a sync's start and its
    /// answer read several of its parts, which in arrays of their own took a cache line
    /// each (docs/performance.md#state-grouped-by-event-kind).
    var devices: [Entry]

    /// One device's truth, 48 bytes: the parts that a step-sync event reads, together.
    struct Entry {
        /// The retry chain and the last success, from what the app truly heard (``SyncTruth``).
        var sync = SyncTruth()
        /// The dates moved since the last judged read: judging starts again at the new
        /// calendar's date of the move (the old dates now name other true days).
        var restartPending = false
        /// The device's dates from `firstJudgedDay` on are judged, each once, up to `judgedThrough`.
        var firstJudgedDay: Int32 = 0
        var judgedThrough: Int32 = 0
        /// When a clock skew or time-zone change last moved the device's dates
        /// (`SimTime.never`: never).
        var calendarMovedAt = SimTime.never
        /// When syncs started (``CadenceTruth``: Oracle/StepSyncCadenceChecker).
        var cadence = CadenceTruth()
    }

    /// One device's truth for the retry schedule and the stale notice (seed `003`), 12
    /// bytes (the entry's next field sits in the rest of its 16).
    struct SyncTruth {
        /// What the input being delivered is (``Delivering``).
        enum Delivering: UInt8 { case other, retryTimer, retryableFailure, finalFailure, open, periodicWork, refreshLaunch, healthDelivery }
        /// When the app last heard a sync succeed (an upload answered OK, or a read with
        /// nothing to upload); at first the drawn sync before the run.
        var lastSuccessAt = SimTime.never
        /// Failed attempts of the current chain: a sync the retry timer did not start
        /// begins a new one, a success ends it.
        var failures: UInt8 = 0
        var delivering = Delivering.other
        /// A success was heard and has not yet set the stale notice.
        var noticeDue = false
        /// The open being delivered must start a sync (`openSyncMissed`).
        var openSyncDue = false
    }

    /// Starts loading device `i`'s entries, which a step upload's arrival reads.
    @inline(__always) func prefetch(_ i: Int) { devices.prefetch(i) }

    /// What is wrong with a retry timer set for `after` (nil: nothing) while the world
    /// delivers `delivering`, after `failures` failed attempts of the chain: it belongs
    /// only in the answer of a failure the seed retries, at most after the 3rd failed
    /// attempt, and for that attempt's delay of `delays` (`logic.stepSync.retryDelays`).
    static func retryTimerProblem(after: SimDuration, failures: UInt8, delivering: SyncTruth.Delivering, delays: [SimDuration]) -> String? {
        // The text is built only for a problem: the timer set as the schedule says is
        // the usual case, and its text cost more than the whole judgement.
        let k = Int(failures)
        var set: String { "retry timer set for \(after.exactSeconds)" }
        switch delivering {
        case .finalFailure: return "\(set) after a client error (4xx), which is not retried"
        case .other, .retryTimer, .open, .periodicWork, .refreshLaunch, .healthDelivery: return "\(set) outside a failure's answer"
        case .retryableFailure where k < 1 || k > delays.count:
            return "\(set) after failed attempt \(k); the seed stops after attempt \(delays.count + 1)"
        case .retryableFailure where after != delays[k - 1]:
            return "\(set) after failed attempt \(k); the schedule says \(delays[k - 1].exactSeconds)"
        case .retryableFailure: return nil
        }
    }

    init(devices n: Int) {
        devices = Array(hugePagesRepeating: Entry(), count: n)
    }
}

extension WorldCore {
    /// Device `i`'s date at true time `t`, on its clock as it is now (zone setting and
    /// skew): the calendar the health store buckets by, read with the oracle's own
    /// ``OracleZone``.
    @inline(__always) func oracleDeviceDay(_ i: Int, at t: SimTime) -> Int32 {
        let unix = OracleZone.unixSeconds(t + devices[i].clock.skew, startUnixSeconds: startUnixSeconds)
        return Int32(oracle.zones[Int(devices[i].clock.timeZone)].wall(unix).day)
    }

    /// The true time at which device `i`'s date `day` begins (its clock as it is now).
    @inline(__always) func oracleDeviceDayStart(_ i: Int, _ day: Int32) -> SimTime {
        let unix = oracle.zones[Int(devices[i].clock.timeZone)].dayStart(Int64(day))
        return SimTime(microseconds: (unix - startUnixSeconds) * 1_000_000) - devices[i].clock.skew
    }

    /// The steps user `i` truly recorded in `[from, to)` (true times): the health data
    /// follows the user's home-zone wall clock (``HealthDataGenerator``: a day's steps
    /// recorded before a local clock reading), read with the oracle's own ``OracleZone``,
    /// so a bug in the calendars the app and the health store use cannot move the truth.
    @inline(__always) func oracleTrueSteps(_ i: Int, _ health: HealthDataGenerator, from: SimTime, to: SimTime) -> Int32 {
        guard from < to else { return 0 }
        let zone = Int(devices[i].homeTimeZone), user = rhythmUser(i)
        let start = oracle.zones[zone].wall(OracleZone.unixSeconds(from, startUnixSeconds: startUnixSeconds))
        let end = oracle.zones[zone].wall(OracleZone.unixSeconds(to, startUnixSeconds: startUnixSeconds))
        let endDay = Int32(end.day), startDay = Int32(start.day)
        var total: Int32 = 0
        for day in startDay...endDay { total += health.steps(user: user, day: day, before: endDay, secondOfDay: Int(end.second)) }
        return total - health.steps(user: user, day: startDay, before: startDay, secondOfDay: Int(start.second))
    }

    /// A clock skew or time-zone change moved the device's dates.
    func observeCalendarMoved(_ i: Int) {
        guard oracle.watching else { return }
        oracle.steps.devices[i].calendarMovedAt = now
        oracle.steps.devices[i].restartPending = true
    }
}

extension StepSyncHost {
    /// Set-up: the sync before the run brought local day `day` (in part) to the server;
    /// judging starts there.
    @inline(__always) func observeStepSyncStarted(_ i: Int, firstDay day: Int32, lastSync: SimTime, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        core.oracle.steps.devices[i].firstJudgedDay = day
        core.oracle.steps.devices[i].judgedThrough = day - 1
        core.oracle.steps.devices[i].sync.lastSuccessAt = lastSync
        core.oracle.steps.devices[i].cadence.lastSuccessStartedAt = lastSync
    }

    /// The world delivers `input` to the device's step sync: what it is (a retry timer, a
    /// failure's answer and whether the seed retries it: 5xx, 429 and no answer), and a
    /// success (an upload answered OK, or a read with no day to upload).
    @inline(__always) func observeStepSyncInput(_ i: Int, _ input: StepSyncInput, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        var truth = core.oracle.steps.devices[i].sync
        truth.delivering = .other
        switch input {
        case .retryTimerFired:
            truth.delivering = .retryTimer
        case .httpResponse(_, .ok):
            succeeded(i, &truth, core: core)
        case .httpResponse(_, .failed):
            if truth.failures < .max { truth.failures += 1 }
            truth.delivering = .retryableFailure
        case .httpResponse(_, .status(let code)):
            if truth.failures < .max { truth.failures += 1 }
            truth.delivering = code == 429 || code >= 500 ? .retryableFailure : .finalFailure
        case .healthDataRead(let days) where days.isEmpty:
            succeeded(i, &truth, core: core)
        case .appOpened:
            truth.delivering = .open
            truth.openSyncDue = openSyncIsDue(i, core: core)
        case .periodicWorkRan: truth.delivering = .periodicWork
        case .refreshTaskLaunched: truth.delivering = .refreshLaunch
        case .healthDataDelivered: truth.delivering = .healthDelivery
        case .healthDataRead:
            break
        }
        core.oracle.steps.devices[i].sync = truth
    }

    /// A success: the stale notice of the one before must have been set (``observeStaleNoticeSet(_:after:core:)``).
    @inline(__always) private func succeeded(_ i: Int, _ truth: inout StepsChecker.SyncTruth, core: borrowing WorldCore) {
        if truth.noticeDue { staleNoticeNotSet(i, truth, core: core) }
        truth.lastSuccessAt = core.now
        core.oracle.steps.devices[i].cadence.lastSuccessStartedAt = core.oracle.steps.devices[i].cadence.syncStartedAt
        truth.failures = 0
        truth.noticeDue = true
    }

    @inline(__always) private func staleNoticeNotSet(_ i: Int, _ truth: StepsChecker.SyncTruth, core: borrowing WorldCore) {
        core.verify(false, .staleNoticeWrong, device: i, time: truth.lastSuccessAt,
                    detail: "the sync that succeeded at \(core.format(truth.lastSuccessAt)) did not set the stale-sync notice")
    }

    /// A sync starts (its health-data read): one the retry timer did not start begins a new chain.
    @inline(__always) func observeSyncStarts(_ i: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        if core.oracle.steps.devices[i].sync.delivering != .retryTimer { core.oracle.steps.devices[i].sync.failures = 0 }
    }

    /// `stepSyncWhenForbidden`: a sync starts only while the device is signed in, online
    /// and not in low-power mode (the device's own state at this instant).
    @inline(__always) func observeSyncStartAllowed(_ i: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let signedIn = core.devices[i].signedIn, online = core.devices[i].online, lowPower = core.devices[i].lowPowerMode
        let holds = signedIn && online && !lowPower
        core.verify(holds, .stepSyncWhenForbidden, device: i, time: core.now,
                    detail: holds ? nil : "step sync started while \(!signedIn ? "signed out" : !online ? "offline" : "in low-power mode")")
    }

    /// `stepRetryScheduleWrong`: the app sets its retry timer for `after` (elapsed time).
    @inline(__always) func observeRetryArmed(_ i: Int, after: SimDuration, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let truth = core.oracle.steps.devices[i].sync
        let problem = StepsChecker.retryTimerProblem(after: after, failures: truth.failures, delivering: truth.delivering,
                                                     delays: core.oracle.judged.stepSync.retryDelays)
        core.verify(problem == nil, .stepRetryScheduleWrong, device: i, time: core.now, detail: problem)
    }

    /// `staleNoticeWrong`: the app sets the stale notice `after` from now (elapsed time):
    /// only at a success, for `logic.stepSync.staleNotificationAge`.
    @inline(__always) func observeStaleNoticeSet(_ i: Int, after: SimDuration, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let age = core.oracle.judged.stepSync.staleNotificationAge
        let atSuccess = core.oracle.steps.devices[i].sync.noticeDue && core.oracle.steps.devices[i].sync.lastSuccessAt == core.now
        core.oracle.steps.devices[i].sync.noticeDue = false
        let holds = atSuccess && after == age
        core.verify(holds, .staleNoticeWrong, device: i, time: core.now,
                    detail: holds ? nil : atSuccess ? "a sync succeeded and set the stale-sync notice for \(core.human(after)) later; the rule says \(core.human(age))"
                                                    : "the stale-sync notice was set (for \(core.human(after)) later) without a sync succeeding")
    }

    /// `staleNoticeWrong`: the stale notice fires (shown or not, by the permission) only
    /// when no sync succeeded for `logic.stepSync.staleNotificationAge`.
    @inline(__always) func observeStaleNoticeFires(_ i: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let truth = core.oracle.steps.devices[i].sync, age = core.oracle.judged.stepSync.staleNotificationAge
        if truth.noticeDue { staleNoticeNotSet(i, truth, core: core) }
        core.oracle.steps.devices[i].sync.noticeDue = false
        let holds = core.now - truth.lastSuccessAt >= age
        core.verify(holds, .staleNoticeWrong, device: i, time: core.now,
                    detail: holds ? nil : "stale-sync notice fired \(core.human(core.now - truth.lastSuccessAt)) after a sync succeeded (at \(core.format(truth.lastSuccessAt))); the rule says \(core.human(age))")
    }

    /// The run's end: the last success of each device set its notice.
    @inline(__always) func observeStepSyncRunEnded(core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        for i in core.oracle.steps.devices.indices where core.oracle.steps.devices[i].sync.noticeDue {
            staleNoticeNotSet(i, core.oracle.steps.devices[i].sync, core: core)
        }
    }

    /// The app sends a step upload: never while the battery is truly low (seed `003`:
    /// "mandatory"; `docs/platform-facts.md` section E).
    @inline(__always) func observeStepUploadSent(_ i: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let battery = core.cohorts[Int(core.devices[i].cohort)].battery
        let low = battery.isLow(core.devices[i].battery, at: core.now)
        core.verify(!low, .syncedOnLowBattery, device: i, time: core.now,
                    detail: low ? "step upload at \(String(format: "%.1f", battery.percent(core.devices[i].battery, at: core.now))) % battery, unplugged" : nil)
    }

    /// The server inserted (the buggy `POST`) a day's row: one row per (user, date, source).
    @inline(__always) func observeStepRowInserted(user: Int, rows: Int, date: LocalDate, source: String, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        core.verify(rows <= 1, .duplicateStepRows, device: user, time: core.now,
                    detail: rows <= 1 ? nil : "\(rows) rows for (user \(user), \(date), \(source))")
    }

    /// `stepsNeverSynced`: once the server holds a read that ended at `readTo`, every
    /// date of the device's calendar that ended before it and began within the 30 days
    /// before it must hold the whole true total of that date's span. Each date is judged
    /// once, at the first upload after it ended.
    ///
    /// The dates are the device's own (its zone and clock, as the health store buckets
    /// them), so a device whose clock or zone moved is judged too: the truth of a date is
    /// the steps truly recorded while the device's clock, as it reads now, showed that
    /// date. A move renames the true days, and the app cannot know which dates it has
    /// already sent under the old names, so judging restarts at the date of the move on
    /// the new calendar (the app's read after a move reaches back past it:
    /// `StepSyncLogic`'s read start). A read taken at or before the move is not judged:
    /// its dates follow the old calendar.
    @inline(__always) func observeStepsReceived(user: Int, readTo: SimTime, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        guard readTo > core.oracle.steps.devices[user].calendarMovedAt else { return }
        if core.oracle.steps.devices[user].restartPending {
            core.oracle.steps.devices[user].restartPending = false
            let moved = core.oracleDeviceDay(user, at: core.oracle.steps.devices[user].calendarMovedAt)
            core.oracle.steps.devices[user].firstJudgedDay = moved
            core.oracle.steps.devices[user].judgedThrough = moved - 1
        }
        let end = core.oracleDeviceDay(user, at: readTo)
        let windowStart = core.oracleDeviceDay(user, at: readTo - core.oracle.judged.stepSync.backfillLimit) + 1
        // A declared retention (`backend.stepStore.retentionDays`) removes the dates more
        // than that many days before the server's UTC date: those are not judged.
        let today = Int32(OracleZone.floorDiv(OracleZone.unixSeconds(core.now, startUnixSeconds: core.startUnixSeconds), 86_400))
        let kept = core.scenario.backend.stepRetentionDays.map { today - Int32($0) } ?? .min
        var day = max(windowStart, core.oracle.steps.devices[user].judgedThrough + 1, core.oracle.steps.devices[user].firstJudgedDay, kept)
        while day < end {
            let from = core.oracleDeviceDayStart(user, day), to = core.oracleDeviceDayStart(user, day + 1)
            let truth = core.oracleTrueSteps(user, health, from: from, to: to)
            let stored = store.steps(user: user, day: day)
            let holds = stored.map { $0 >= truth } ?? false
            core.verify(holds, .stepsNeverSynced, device: user, time: core.now,
                        detail: holds ? nil : "\(LocalDate(daysSince1970: day)): \(truth) true steps, the server has \(stored.map(String.init) ?? "no row"), although a read up to \(core.format(readTo)) reached it")
            day += 1
        }
        if end - 1 > core.oracle.steps.devices[user].judgedThrough { core.oracle.steps.devices[user].judgedThrough = end - 1 }
    }
}

fileprivate extension SimDuration {
    /// `300.0 s`, `300.000001 s`: to the microsecond, so a judge's detail shows a
    /// difference of one.
    var exactSeconds: String { "\(Double(microseconds) / 1_000_000) s" }
}

// The rules of the step sync (seed `003`) that the checks judge: a static member each
// (``ViolationKind``) and their list.
extension ViolationKind {
    /// More than one step row for one (user, date, source) (seed `003`: upsert).
    public static var duplicateStepRows: ViolationKind { .rule() }
    /// A local day that ended within the 30 days before a read the server then received,
    /// whose true steps the server does not hold in full (seed `003`: backfill).
    public static var stepsNeverSynced: ViolationKind { .rule() }
    /// A step upload while the battery was truly low (seed `003`: "mandatory"; `docs/platform-facts.md` E).
    public static var syncedOnLowBattery: ViolationKind { .rule() }
    /// A step-sync retry timer set against the schedule (seed `003`, "Retry Strategy",
    /// "Error Handling"): after the k-th failed attempt of a chain (k ≤ 3) the delay must
    /// be the k-th of `logic.stepSync.retryDelays` (5, 10, 15 min, elapsed time); no timer
    /// after the 4th attempt, after a 401 or another 4xx, or outside a failure's answer.
    public static var stepRetryScheduleWrong: ViolationKind { .rule() }
    /// The "not synced for 24 h" notice against its rule (seed `003`, "Notification on
    /// Long Gap"): it fired although a sync succeeded less than
    /// `logic.stepSync.staleNotificationAge` before (elapsed time), or a success did not
    /// set it for exactly that long after, or it was set without a success.
    public static var staleNoticeWrong: ViolationKind { .rule() }
    /// A step sync started (its health-data read) while the device was truly signed out,
    /// offline or in low-power mode (seed `003`, "Constraints Handling": network only;
    /// "Background Sync Task": signed-in users; Non-Goals: no sync in low-power mode).
    public static var stepSyncWhenForbidden: ViolationKind { .rule() }
    /// A step sync started sooner after the start of the last sync the app heard succeed
    /// than its trigger allows (seed `003`, "Configuration", §6): a refresh launch or a
    /// HealthKit delivery `logic.stepSync.syncInterval` (2 h), an open `openSyncAge`
    /// (24 h), in elapsed time; or periodic work asked for at another interval than `syncInterval`.
    public static var stepSyncTooSoon: ViolationKind { .rule() }
    /// An app open started no step sync although the last successful one started at least
    /// `logic.stepSync.openSyncAge` (24 h) before, no upload of the device was in flight
    /// and the device allowed a sync (signed in, online, not in low-power mode, battery
    /// not low) (seed `003`, §6: "If > 24 hours ago, trigger immediate sync").
    public static var openSyncMissed: ViolationKind { .rule() }
    /// A step upload holding a date before the device's own date `logic.stepSync.backfillLimit`
    /// (30 d) before now, on its clock and zone (seed `003`, §6: "up to 30 days max").
    public static var stepsBackfilledTooFar: ViolationKind { .rule() }
}

extension StepSyncFeature {
    /// Its rules, in the order report.json lists them (``FeatureList/rules``).
    static let rules: [ViolationKind] = [
        .duplicateStepRows, .stepsNeverSynced, .syncedOnLowBattery, .stepRetryScheduleWrong, .staleNoticeWrong,
        .stepSyncWhenForbidden, .stepSyncTooSoon, .openSyncMissed, .stepsBackfilledTooFar
    ]
}
