import SimKernel
import AppLogic

/// The refresh feature's judge-only ground truth, one entry per device: what the
/// user and the OS truly saw, never what the logic believes. A window is named by its
/// number in the truth (``TestAvailabilityTruth/window(_:)``), ``RefreshSlot/noWindow``
/// for none; the window last notified is the model's (``RefreshSlot/notifiedWindow``).
struct RefreshChecker {
    /// One device's truth: one entry, so that an event reads one line of it rather than
    /// one of each of several arrays (docs/performance.md#state-grouped-by-event-kind).
    /// 24 bytes: the two times, then the window and the small fields in one word
    /// (``DeviceLayoutTests``).
    struct Entry {
        var lastTrueOpen = SimTime.never
        /// When the last refresh finished: a task that received a history answer
        /// completed successfully (`refreshedTooSoon`).
        var lastRefreshAt = SimTime.never
        /// The window of a history response the running task received while that window
        /// was truly open, or ``RefreshSlot/noWindow``.
        var taskSawOpenWindow = RefreshSlot.noWindow
        /// Notifications shown in the window last notified.
        var notificationsInWindow: UInt8 = 0
        /// What the running task has done so far (cleared at its launch).
        var task: TaskFlags = []
    }

    /// What the running task has done, as the OS and the network saw it: one byte.
    struct TaskFlags: OptionSet {
        let rawValue: UInt8
        /// It asked the OS for the next refresh.
        static let submitted = TaskFlags(rawValue: 1 << 0)
        /// A test-history answer reached it.
        static let historyReceived = TaskFlags(rawValue: 1 << 1)
        /// The user was signed in at its launch.
        static let signedInAtLaunch = TaskFlags(rawValue: 1 << 2)
        /// The user's permission allowed notifications at its launch.
        static let permittedAtLaunch = TaskFlags(rawValue: 1 << 3)
        /// It asked for the test history (`refreshRequestRetried`).
        static let historySent = TaskFlags(rawValue: 1 << 4)
        /// A 401 answer reached it (`unauthorizedNotSignedOut`).
        static let unauthorized = TaskFlags(rawValue: 1 << 5)
        /// An active-session answer saying a test is in progress reached it (`notifiedDuringTest`).
        static let sawTestInProgress = TaskFlags(rawValue: 1 << 6)
    }

    /// Whether the OS shows an app's notification with permission `p`: authorized, or
    /// provisional (delivered quietly); the judge's own reading, not the logic's.
    static func allowsPosting(_ p: NotificationAuthorization) -> Bool {
        switch p {
        case .authorized, .provisional: return true
        case .notDetermined, .denied: return false
        }
    }

    /// Per device, in device order.
    var devices: [Entry]

    init(devices n: Int) { devices = Array(hugePagesRepeating: Entry(), count: n) }

    /// Starts loading device `i`'s entry, for the next event (Core/Prefetch).
    @inline(__always) func prefetch(_ i: Int) { devices.prefetch(i) }
}

extension WorldCore {
    /// The user opens the app (the truth `notifiedDespiteRecentOpen` is judged by).
    func observeAppOpened(_ i: Int) {
        guard oracle.watching else { return }
        oracle.refresh.devices[i].lastTrueOpen = now
    }

    /// The OS starts a refresh task (iOS) or job (Android): it has done nothing yet.
    func observeTaskLaunched(_ i: Int) {
        guard oracle.watching else { return }
        oracle.refresh.devices[i].taskSawOpenWindow = RefreshSlot.noWindow
        var flags: RefreshChecker.TaskFlags = []
        if devices[i].signedIn { flags.insert(.signedInAtLaunch) }
        if RefreshChecker.allowsPosting(devices[i].permission) { flags.insert(.permittedAtLaunch) }
        oracle.refresh.devices[i].task = flags
    }

    /// A test-history response reached the running task; `openWindow` is the window
    /// truly open when the server answered, or ``RefreshSlot/noWindow``.
    @inline(__always) func observeHistoryReceived(_ i: Int, openWindow: UInt32) {
        guard oracle.watching else { return }
        oracle.refresh.devices[i].taskSawOpenWindow = openWindow
        oracle.refresh.devices[i].task.insert(.historyReceived)
    }

    /// The refresh asks for the active session: `activeSessionNotNeeded` unless the
    /// running task's history answer saw a window truly open (the server's truth when it
    /// answered: ``RefreshHost/serve(_:user:serverTime:core:)``). Only availability is
    /// judged here: the 24 h and once-per-window conditions have judges of their own.
    func observeActiveSessionRequested(_ i: Int) {
        guard oracle.watching else { return }
        let needed = oracle.refresh.devices[i].taskSawOpenWindow != RefreshSlot.noWindow
        verify(needed, .activeSessionNotNeeded, device: i, time: now,
               detail: needed ? nil : "active session asked for in task \(devices[i].task.serial), whose history answer showed no available test")
    }

    /// An active-session answer reached the running task saying a test is in progress
    /// (the server's truth when it answered).
    func observeTestInProgressAnswered(_ i: Int) {
        guard oracle.watching else { return }
        oracle.refresh.devices[i].task.insert(.sawTestInProgress)
    }

    /// A 401 answered a request of the running task (the answer the world delivered).
    func observeRefreshUnauthorized(_ i: Int) {
        guard oracle.watching else { return }
        oracle.refresh.devices[i].task.insert(.unauthorized)
    }

    /// The refresh asks the OS for its next run no earlier than `earliestWall` (µs on the
    /// device's wall clock, `earliestBeginDate`): `refreshRequestDateWrong` unless that is
    /// the declared preferred interval after the device's wall clock now (the world's
    /// clock, skew included), exactly (seed `000`, "Refresh Frequency"), or within the
    /// jitter the spec declares around it (``JudgedSpecs/refreshJitter``, both ends in).
    @inline(__always) func observeRefreshSubmitted(_ i: Int, earliestWall: Int64) {
        guard oracle.watching else { return }
        if devices[i].task.running { oracle.refresh.devices[i].task.insert(.submitted) }
        let ahead = earliestWall - devices[i].clock.wallMicroseconds(at: now, startUnixSeconds: startUnixSeconds)
        let preferred = oracle.judged.refresh.preferredInterval.microseconds
        let jitter = oracle.judged.refreshJitter
        let lowest = preferred + jitter.lowerBound.microseconds, highest = preferred + jitter.upperBound.microseconds
        let holds = ahead >= lowest && ahead <= highest
        verify(holds, .refreshRequestDateWrong, device: i, time: now,
               detail: holds ? nil : "next refresh asked for \(human(SimDuration(microseconds: ahead))) after the device's clock, not "
                   + (lowest == highest ? human(SimDuration(microseconds: preferred))
                      : "\(human(SimDuration(microseconds: lowest))) to \(human(SimDuration(microseconds: highest)))"))
    }

    /// The refresh asks for the test history with `limit`: the running task must have
    /// asked for its next run first (`refreshRequestDateWrong`: "Schedule next refresh
    /// before starting work"), and the last refresh that finished must be at least the
    /// minimum interval old, in true time (`refreshedTooSoon`: "Skip if last refresh was <
    /// 12 hours ago"); the user signed in (at the launch or now: `refreshWhileSignedOut`),
    /// the device online now (`refreshRequestWhileOffline`), the latest test alone
    /// (`historyNotLimitOne`), and once in the task (`refreshRequestRetried`: no retry
    /// inside the task) (seed `000`, "Conditional Execution", "Minimal Network Requests",
    /// Decision 5).
    func observeHistoryRequested(_ i: Int, limit: Int) {
        guard oracle.watching else { return }
        let entry = oracle.refresh.devices[i]
        oracle.refresh.devices[i].task.insert(.historySent)
        let again = entry.task.contains(.historySent)
        verify(!again, .refreshRequestRetried, device: i, time: now,
               detail: again ? "test history asked for again in task \(devices[i].task.serial)" : nil)
        let signedIn = devices[i].signedIn || entry.task.contains(.signedInAtLaunch)
        verify(signedIn, .refreshWhileSignedOut, device: i, time: now,
               detail: signedIn ? nil : "test history asked for while signed out since the task's launch")
        let online = devices[i].online
        verify(online, .refreshRequestWhileOffline, device: i, time: now,
               detail: online ? nil : "test history asked for while the device is offline")
        verify(limit == 1, .historyNotLimitOne, device: i, time: now,
               detail: limit == 1 ? nil : "test history asked for with limit=\(limit)")
        let submitted = entry.task.contains(.submitted)
        verify(submitted, .refreshRequestDateWrong, device: i, time: now,
               detail: submitted ? nil : "test history asked for before the next refresh was")
        let minimum = oracle.judged.refresh.minimumInterval
        let recent = entry.lastRefreshAt != SimTime.never && now - entry.lastRefreshAt < minimum
        verify(!recent, .refreshedTooSoon, device: i, time: now,
               detail: recent ? "refresh \(human(now - entry.lastRefreshAt)) after the last one finished (minimum \(human(minimum)))" : nil)
    }

    /// The refresh asks the OS to post its test notification: `postedWithoutPermission`
    /// unless the permission allowed posting at the task's launch or now (seed `000`,
    /// Phase 3.1), so a permission answered during the task is no violation;
    /// `notifiedDuringTest` if the task's active-session answer said a test was in progress.
    @inline(__always) func observeRefreshPosts(_ i: Int) {
        guard oracle.watching else { return }
        let testInProgress = oracle.refresh.devices[i].task.contains(.sawTestInProgress)
        verify(!testInProgress, .notifiedDuringTest, device: i, time: now,
               detail: testInProgress ? "test notification posted in task \(devices[i].task.serial), whose active-session answer said a test was in progress" : nil)
        let permitted = RefreshChecker.allowsPosting(devices[i].permission) || oracle.refresh.devices[i].task.contains(.permittedAtLaunch)
        verify(permitted, .postedWithoutPermission, device: i, time: now,
               detail: permitted ? nil : "refresh: test notification posted with permission \(devices[i].permission) since the task's launch")
    }

    /// The refresh reports `background_refresh_completed` with `duration` (µs):
    /// `refreshAnalyticsWrong` unless it is the task's true time from its launch to now
    /// (the OS's launch time; the event follows the task's completion in the same instant).
    @inline(__always) func observeRefreshCompletedEvent(_ i: Int, duration: Int64) {
        guard oracle.watching else { return }
        let ran = (now - devices[i].task.launchedAt).microseconds
        verify(duration == ran, .refreshAnalyticsWrong, device: i, time: now,
               detail: duration == ran ? nil : "refresh completed event says \(human(SimDuration(microseconds: duration))), the task ran \(human(SimDuration(microseconds: ran)))")
    }

    /// The app's background task ends for the OS (its first completion, the watchdog's or a
    /// termination's kill, JobScheduler's stop): a task the refresh's request launched
    /// (its work holds it; another work's task runs by that work's own limits) must not
    /// have outlived the hard stop, in true time from its launch
    /// (`refreshPastHardStop`; a task that ends at exactly the hard stop keeps it).
    @inline(__always) func observeTaskEnded(_ i: Int) {
        guard oracle.watching, cohorts[Int(devices[i].cohort)].runs(.refresh), devices[i].task.holder == WorkID.refresh.rawValue else { return }
        let ran = now - devices[i].task.launchedAt
        let hardStop = oracle.judged.refresh.hardStop
        verify(ran <= hardStop, .refreshPastHardStop, device: i, time: now,
               detail: ran <= hardStop ? nil : "task \(devices[i].task.serial) ended \(human(ran)) after its launch, \(devices[i].task.completions == 0 ? "not completed" : "completed"); hard stop \(human(hardStop))")
    }

    /// The watchdog killed the app: task `serial` was not completed after its expiration.
    func observeWatchdogKill(_ i: Int, serial: UInt32) {
        guard oracle.watching else { return }
        verify(false, .taskKilledByWatchdog, device: i, time: now,
               detail: "task \(serial) not completed \(cohorts[Int(devices[i].cohort)].scheduler.watchdogGrace) after expiration")
    }
}

/// The checks that read the refresh's ground truth (``RefreshHost/truth``) and what the
/// model notified (``RefreshSlot/notifiedWindow``): handed the host, they only read it.
extension RefreshHost {
    /// The app called `setTaskCompleted(success:)`, already counted by the OS:
    /// `taskCompletedTwice` (seed `002`, issue 1), and at the first successful call of a
    /// running task `availableTestNotNotified`; a task that got a history answer then
    /// is the last refresh (`refreshedTooSoon`). A running task that got a 401 must end
    /// with the user signed out and no request for the next run pending
    /// (`requestPending`, the OS's: `unauthorizedNotSignedOut`). Where the step sync owns
    /// the task (iOS without the refresh) no refresh request is sent, so none applies.
    @inline(__always) func observeTaskCompleted(_ i: Int, success: Bool, requestPending: Bool, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let calls = core.devices[i].task.completions
        if core.devices[i].task.running, calls == 1, core.oracle.refresh.devices[i].task.contains(.unauthorized) {
            let signedIn = core.devices[i].signedIn
            core.verify(!signedIn && !requestPending, .unauthorizedNotSignedOut, device: i, time: core.now,
                   detail: signedIn || requestPending ? "task \(core.devices[i].task.serial) got a 401 and completed \(signedIn ? "signed in" : "signed out")\(requestPending ? ", its next refresh still scheduled" : "")" : nil)
        }
        if success, core.devices[i].task.running, calls == 1 {
            judgeNotifiedIfDue(i, core: core)
            if core.oracle.refresh.devices[i].task.contains(.historyReceived) { core.oracle.refresh.devices[i].lastRefreshAt = core.now }
        }
        core.verify(calls == 1, .taskCompletedTwice, device: i, time: core.now,
               detail: calls == 1 ? nil : "setTaskCompleted called \(calls) times for task \(core.devices[i].task.serial)")
    }

    /// `availableTestNotNotified`: judged when a task completes successfully, from the
    /// truth at the history response and now (the window is still open, no test in
    /// progress, no open in the last 24 h, notifications allowed, none shown yet).
    @inline(__always) private func judgeNotifiedIfDue(_ i: Int, core: borrowing WorldCore) {
        let now = core.now
        let window = core.oracle.refresh.devices[i].taskSawOpenWindow
        guard window != RefreshSlot.noWindow, truth.window(i) == window, !truth.inProgress(i, at: now),
              core.devices[i].permission.allowsPosting else { return }
        let opened = core.oracle.refresh.devices[i].lastTrueOpen
        guard opened == SimTime.never || now - opened >= core.oracle.judged.refresh.recentOpenSuppression else { return }
        let notified = slots[i].notifiedWindow == window
        core.verify(notified, .availableTestNotNotified, device: i, time: now,
               detail: notified ? nil : "test available since \(core.format(truth.availableAt(i))) and this refresh saw it, but no notification")
    }

    /// A test-available notification is shown: not before the test is truly available,
    /// once per window, and not within 24 h of an open (seed `000`). Called before the
    /// model moves ``RefreshSlot/notifiedWindow`` (``RefreshHost/testNotified(_:window:)``).
    @inline(__always) func observeTestNotificationShown(_ i: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let now = core.now
        let availableAt = truth.availableAt(i)
        let window = truth.window(i)
        core.verify(now >= availableAt, .notifiedBeforeAvailable, device: i, time: now,
               detail: now >= availableAt ? nil : "notified at \(core.format(now)), test available only at \(core.format(availableAt))")
        if slots[i].notifiedWindow != window {
            core.oracle.refresh.devices[i].notificationsInWindow = 1
        } else {
            core.oracle.refresh.devices[i].notificationsInWindow &+= 1
        }
        let inWindow = core.oracle.refresh.devices[i].notificationsInWindow
        core.verify(inWindow == 1, .notifiedTwiceInWindow, device: i, time: now,
               detail: inWindow == 1 ? nil : "notification \(inWindow) for the window opened at \(core.format(availableAt))")
        let opened = core.oracle.refresh.devices[i].lastTrueOpen
        let openedRecently = opened != SimTime.never && now - opened < core.oracle.judged.refresh.recentOpenSuppression
        core.verify(!openedRecently, .notifiedDespiteRecentOpen, device: i, time: now,
               detail: openedRecently ? "app opened \(core.hours(now - opened)) before the notification" : nil)
    }
}

// The rules of the refresh and the app's background task it holds (seed `000`) that the checks judge: a static member each
// (``ViolationKind``) and their list.
extension ViolationKind {
    /// `setTaskCompleted` called more than once for one task (seed `002`, issue 1).
    public static var taskCompletedTwice: ViolationKind { .rule() }
    /// A task not completed after its expiration was killed by the watchdog.
    public static var taskKilledByWatchdog: ViolationKind { .rule() }
    /// A test-available notification before the test was truly available.
    public static var notifiedBeforeAvailable: ViolationKind { .rule() }
    /// More than one test-available notification in one test window.
    public static var notifiedTwiceInWindow: ViolationKind { .rule() }
    /// A notification although the app was opened less than 24 h before (seed `000`).
    public static var notifiedDespiteRecentOpen: ViolationKind { .rule() }
    /// A refresh fetched the history of a truly available, not yet notified test and
    /// completed successfully without notifying, although the user (by ground truth)
    /// had not opened the app for 24 h, was not taking the test and allows notifications.
    public static var availableTestNotNotified: ViolationKind { .rule() }
    /// The next refresh was asked for at other than the preferred interval (4 h) after the
    /// device's wall clock at the request, or a task asked for the test history before it
    /// had asked for its next refresh (seed `000`: "Refresh Frequency", "Schedule next
    /// refresh before starting work").
    public static var refreshRequestDateWrong: ViolationKind { .rule() }
    /// A refresh asked for the test history less than the minimum interval (12 h) after
    /// the last refresh that finished: a task that got a history answer and completed
    /// successfully (seed `000`, "Conditional Execution"). Measured in true elapsed time,
    /// as the logic documents (the boot clock; no reboots are modelled): a wall clock
    /// set back or forward changes nothing.
    public static var refreshedTooSoon: ViolationKind { .rule() }
    /// The app's background task, run by the refresh, ended (completed, stopped or killed)
    /// later than the hard stop (20 s) after its launch (seed `000`, Phase 5.1 "Enforce
    /// 20-second max").
    public static var refreshPastHardStop: ViolationKind { .rule() }
    /// A refresh asked for the test history while the user was signed out, at the task's
    /// launch and at the request (seed `000`, "Skip if user is unauthenticated").
    public static var refreshWhileSignedOut: ViolationKind { .rule() }
    /// A refresh asked for the test history while the device was offline (seed `000`,
    /// "Skip if network is unavailable (fail fast)").
    public static var refreshRequestWhileOffline: ViolationKind { .rule() }
    /// A refresh asked for more of the test history than the latest test, `limit` ≠ 1
    /// (seed `000`, "Minimal Network Requests").
    public static var historyNotLimitOne: ViolationKind { .rule() }
    /// The app asked the OS to post a notification while the user's permission allowed
    /// none, at the task's launch and at the request (seed `000`, Phase 3.1: "guard
    /// status == .authorized"). The detail names the feature.
    public static var postedWithoutPermission: ViolationKind { .rule() }
    /// A `background_refresh_completed` event whose duration is not the task's true time
    /// from its launch to now (seed `000`, Decision 6: "success/failure, duration").
    public static var refreshAnalyticsWrong: ViolationKind { .rule() }
    /// A refresh task asked for the test history a second time: a failure ends the task
    /// with `success: false` and waits for the next launch, no retry inside the task
    /// (seed `000`, Decision 5).
    public static var refreshRequestRetried: ViolationKind { .rule() }
    /// A refresh task got a 401 and completed with the user still signed in, or with a
    /// request for its next run still pending (iOS's `BGAppRefreshTask` request, Android's
    /// refresh work enqueued) (seed `000`, Phase 5.3: "log out user, clear refresh schedule").
    public static var unauthorizedNotSignedOut: ViolationKind { .rule() }
    /// A refresh asked for the active session although its history answer showed no
    /// available test: the window was not truly open when the server answered (seed
    /// `000`, "Data to Fetch": "use active endpoint only if needed").
    public static var activeSessionNotNeeded: ViolationKind { .rule() }
    /// A refresh posted its test notification although the active-session answer its task
    /// got said a test was in progress (the server's truth when it answered) (seed `000`,
    /// "Check active session": a test in progress means nothing is due).
    public static var notifiedDuringTest: ViolationKind { .rule() }
}

extension RefreshFeature {
    /// Its rules, in the order report.json lists them (``FeatureList/rules``).
    static let rules: [ViolationKind] = [
        .taskCompletedTwice, .taskKilledByWatchdog, .notifiedBeforeAvailable, .notifiedTwiceInWindow,
        .notifiedDespiteRecentOpen, .availableTestNotNotified, .refreshRequestDateWrong, .refreshedTooSoon,
        .refreshPastHardStop, .refreshWhileSignedOut, .refreshRequestWhileOffline, .historyNotLimitOne,
        .postedWithoutPermission, .refreshAnalyticsWrong, .refreshRequestRetried, .unauthorizedNotSignedOut,
        .activeSessionNotNeeded, .notifiedDuringTest
    ]
}
