import SimKernel
import AppLogic

/// The refresh feature's judge-only ground truth, one entry per device: what the
/// user and the OS truly saw, never what the logic believes. A window is named by its
/// number in the truth (``TestAvailabilityTruth/window(_:)``), ``RefreshSlot/noWindow``
/// for none; the window last notified is the model's (``RefreshSlot/notifiedWindow``).
struct RefreshChecker {
    /// One device's truth: one entry, so that an event reads one line of it rather than
    /// one of each of several arrays (docs/speed.md, "Session 15").
    struct Entry {
        var lastTrueOpen = World.never
        /// The window of a history response the running task received while that window
        /// was truly open, or ``RefreshSlot/noWindow``.
        var taskSawOpenWindow = RefreshSlot.noWindow
        /// Notifications shown in the window last notified.
        var notificationsInWindow: UInt8 = 0
    }

    /// Per device, in device order.
    var devices: [Entry]

    init(devices n: Int) { devices = Array(hugePagesRepeating: Entry(), count: n) }

    /// Starts loading device `i`'s entry, for the next event (Core/Prefetch).
    @inline(__always) func prefetch(_ i: Int) { devices.prefetch(i) }
}

extension WorldCore {
    /// The user opens the app (the truth `notifiedDespiteRecentOpen` is judged by).
    mutating func observeAppOpened(_ i: Int) {
        guard oracle.watching else { return }
        oracle.refresh.devices[i].lastTrueOpen = now
    }

    /// The OS starts a refresh task (iOS) or job (Android): it has seen no history yet.
    mutating func observeTaskLaunched(_ i: Int) {
        guard oracle.watching else { return }
        oracle.refresh.devices[i].taskSawOpenWindow = RefreshSlot.noWindow
    }

    /// A test-history response reached the running task; `openWindow` is the window
    /// truly open when the server answered, or ``RefreshSlot/noWindow``.
    mutating func observeHistoryReceived(_ i: Int, openWindow: UInt32) {
        guard oracle.watching else { return }
        oracle.refresh.devices[i].taskSawOpenWindow = openWindow
    }

    /// The watchdog killed the app: task `serial` was not completed after its expiration.
    mutating func observeWatchdogKill(_ i: Int, serial: UInt32) {
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
    /// running task `availableTestNotNotified`.
    func observeTaskCompleted(_ i: Int, success: Bool, core: inout WorldCore) {
        guard core.oracle.watching else { return }
        let calls = core.devices[i].task.completions
        if success, core.devices[i].task.running, calls == 1 { judgeNotifiedIfDue(i, core: &core) }
        core.verify(calls == 1, .taskCompletedTwice, device: i, time: core.now,
               detail: calls == 1 ? nil : "setTaskCompleted called \(calls) times for task \(core.devices[i].task.serial)")
    }

    /// `availableTestNotNotified`: judged when a task completes successfully, from the
    /// truth at the history response and now (the window is still open, no test in
    /// progress, no open in the last 24 h, notifications allowed, none shown yet).
    private func judgeNotifiedIfDue(_ i: Int, core: inout WorldCore) {
        let now = core.now
        let window = core.oracle.refresh.devices[i].taskSawOpenWindow
        guard window != RefreshSlot.noWindow, truth.window(i) == window, !truth.inProgress(i, at: now),
              core.devices[i].permission.allowsPosting else { return }
        let opened = core.oracle.refresh.devices[i].lastTrueOpen
        guard opened == World.never || now - opened >= core.scenario.logic.refresh.recentOpenSuppression else { return }
        let notified = slots[i].notifiedWindow == window
        core.verify(notified, .availableTestNotNotified, device: i, time: now,
               detail: notified ? nil : "test available since \(core.format(truth.availableAt(i))) and this refresh saw it, but no notification")
    }

    /// A test-available notification is shown: not before the test is truly available,
    /// once per window, and not within 24 h of an open (seed `000`). Called before the
    /// model moves ``RefreshSlot/notifiedWindow`` (``RefreshHost/testNotified(_:window:)``).
    func observeTestNotificationShown(_ i: Int, core: inout WorldCore) {
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
        let openedRecently = opened != World.never && now - opened < core.scenario.logic.refresh.recentOpenSuppression
        core.verify(!openedRecently, .notifiedDespiteRecentOpen, device: i, time: now,
               detail: openedRecently ? "app opened \(core.hours(now - opened)) before the notification" : nil)
    }
}
