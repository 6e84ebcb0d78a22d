import SimKernel
import AppLogic
import Scenario

/// The continuation's judge-only ground truth (seed `004`), one entry per device.
struct ContinuationChecker {
    /// One device's analysis, 8 bytes (the bench's memory target counts every byte a
    /// device holds): bits 0-59 the send instant (µs), bit 60 in flight, bit 61 the
    /// hierarchical mode, bit 62 "Move On & Notify" chosen for it with no open since.
    struct Entry {
        private var bits: UInt64 = 0
        private static let timeMask: UInt64 = (1 << 60) - 1
        private static let inFlightBit: UInt64 = 1 << 60, hierarchicalBit: UInt64 = 1 << 61, movedOnBit: UInt64 = 1 << 62

        init() {}

        init(sentAt: SimTime, hierarchical: Bool) {
            precondition(sentAt.microseconds >= 0 && UInt64(sentAt.microseconds) <= Self.timeMask)
            bits = UInt64(sentAt.microseconds) | Self.inFlightBit | (hierarchical ? Self.hierarchicalBit : 0)
        }

        /// The instant the analysis in flight (or the last one) was sent.
        var sentAt: SimTime { SimTime(microseconds: Int64(bits & Self.timeMask)) }
        /// An analysis is in flight: sent, and not yet answered, cancelled or abandoned.
        var inFlight: Bool { bits & Self.inFlightBit != 0 }
        /// The user chose "Move On & Notify" for the analysis and has not opened the app since.
        var movedOn: Bool {
            get { bits & Self.movedOnBit != 0 }
            set { bits = newValue ? bits | Self.movedOnBit : bits & ~Self.movedOnBit }
        }

        /// The instant the analysis in flight times out: its send plus its mode's timeout
        /// of `logic.continuation` (elapsed time: a timer, whatever the wall clock does);
        /// `SimTime.never` when none is in flight.
        func deadline(_ timeouts: ContinuationConfig) -> SimTime {
            guard inFlight else { return SimTime.never }
            return sentAt + (bits & Self.hierarchicalBit != 0 ? timeouts.hierarchicalTimeout : timeouts.baselineTimeout)
        }

        /// The analysis is no longer in flight.
        mutating func end() { bits &= ~Self.inFlightBit }
    }
    var entries: [Entry]

    init(devices n: Int) {
        entries = Array(hugePagesRepeating: Entry(), count: n)
    }
}

extension ContinuationHost {
    /// The app is terminated while it holds result `unseen` the user has not seen (seed
    /// `004`): it must be on disk (else it is lost).
    @inline(__always) func observeTerminatedHoldingResult(_ i: Int, unseen: UInt32, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let onDisk = resultOnDisk(i, unseen: unseen)
        core.verify(onDisk, .continuationResultLost, device: i, time: core.now,
                    detail: onDisk ? nil : "result of analysis #\(unseen), finished at \(core.format(slots[i].completedAt)), was neither seen nor on disk when the app was terminated")
    }

    /// An analysis-complete notification is shown: it must announce a result the app
    /// truly holds (seed `004`).
    @inline(__always) func observeAnalysisNotificationShown(_ i: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let holds = slots[i].unseenRequest != 0
        core.verify(holds, .continuationNotifiedWithoutResult, device: i, time: core.now,
                    detail: holds ? nil : "analysis-complete notification, but no unseen result reached the app")
    }

    /// The app sends an analysis request in `mode`: it must end by its mode's timeout
    /// (`continuationPastDeadline`), and one still in flight past its own did not.
    @inline(__always) func observeAnalysisSent(_ i: Int, mode: AnalysisMode, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        analysisEnds(i, "was still running when the next one was sent", core: core)
        core.oracle.continuation.entries[i] = ContinuationChecker.Entry(sentAt: core.now, hierarchical: mode == .hierarchical)
    }

    /// `analysisStartedTwice`: an analysis request goes out while the world still has the
    /// device's earlier one in flight (not answered, cancelled nor abandoned).
    @inline(__always) func observeAnalysisSendsAlone(_ i: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let job = slots[i].job
        let alone = job < 0 || core.jobs[Int(job)].clientDone || core.jobs[Int(job)].cancelled
        core.verify(alone, .analysisStartedTwice, device: i, time: core.now,
                    detail: alone ? nil : "an analysis request sent while the one sent at \(core.format(core.jobs[Int(job)].sentAt)) was still in flight")
    }

    /// The logic's timeout timer fires while the app runs: for an analysis in flight, at
    /// its timeout exactly.
    @inline(__always) func observeDeadlineTimerFires(_ i: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let deadline = core.oracle.continuation.entries[i].deadline(core.oracle.judged.continuation)
        guard deadline != SimTime.never else { return }
        core.verify(core.now == deadline, .continuationPastDeadline, device: i, time: core.now,
                    detail: core.now == deadline ? nil : "the timeout timer of the analysis in flight fired at \(core.format(core.now)); its timeout is at \(core.format(deadline))")
    }

    /// The analysis in flight ends (`how`: its answer reached the app, the app cancelled
    /// it, the app was terminated): not after its timeout.
    @inline(__always) func analysisEnds(_ i: Int, _ how: String, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let deadline = core.oracle.continuation.entries[i].deadline(core.oracle.judged.continuation)
        guard deadline != SimTime.never else { return }
        core.oracle.continuation.entries[i].end()
        let holds = core.now <= deadline
        core.verify(holds, .continuationPastDeadline, device: i, time: holds ? core.now : deadline,
                    detail: holds ? nil : "the analysis that timed out at \(core.format(deadline)) \(how) at \(core.format(core.now))")
    }

    /// The run's end: no analysis still in flight past its timeout.
    @inline(__always) func observeContinuationRunEnded(core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        for i in core.oracle.continuation.entries.indices {
            let deadline = core.oracle.continuation.entries[i].deadline(core.oracle.judged.continuation)
            guard deadline != SimTime.never, deadline < core.now else { continue }
            core.verify(false, .continuationPastDeadline, device: i, time: deadline,
                        detail: "the analysis that timed out at \(core.format(deadline)) was still running at the run's end")
        }
    }
}

/// Seed `004`'s offer, "Move On & Notify" and open rules, judged from the world's records:
/// the analysis's send (``ContinuationChecker/Entry``), the OS's background task and
/// notification permission, the notifications shown, and the result that reached the app
/// unseen (``ContinuationSlot/unseenRequest``).
extension ContinuationHost {
    /// `offerTimingWrong`: the alert is offered exactly `logic.continuation.offerAfter`
    /// after the send of an analysis still in flight (its answer has not reached the app).
    @inline(__always) func observeOffered(_ i: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let entry = core.oracle.continuation.entries[i]
        let due = entry.sentAt + core.oracle.judged.continuation.offerAfter
        let holds = entry.inFlight && core.now == due
        core.verify(holds, .offerTimingWrong, device: i, time: core.now, detail: holds ? nil
            : !entry.inFlight ? "the background option offered with no analysis in flight"
            : "the background option offered at \(core.format(core.now)), \(core.human(core.now - entry.sentAt)) after the send; due at \(core.format(due))")
    }

    /// The user chose "Move On & Notify" (the choice's input has been handled, with the
    /// answer to any permission prompt) while the analysis was in flight:
    /// `moveOnWithoutBackgroundTask` unless the app now holds a background task, and
    /// `permissionNotRequested` if the permission was not determined or provisional at
    /// the choice (`before`) and the OS has not asked the user (it is still so).
    @inline(__always) func observeMovedOn(_ i: Int, permissionBefore before: NotificationAuthorization, core: borrowing WorldCore) {
        guard core.oracle.watching, core.oracle.continuation.entries[i].inFlight else { return }
        core.oracle.continuation.entries[i].movedOn = true
        let holds = slots[i].holdsBackgroundTask
        core.verify(holds, .moveOnWithoutBackgroundTask, device: i, time: core.now,
                    detail: holds ? nil : "\"Move On & Notify\" chosen with the analysis sent at \(core.format(core.oracle.continuation.entries[i].sentAt)) in flight; the app holds no background task")
        guard before == .notDetermined || before == .provisional else { return }
        let asked = core.devices[i].permission == .authorized || core.devices[i].permission == .denied
        core.verify(asked, .permissionNotRequested, device: i, time: core.now,
                    detail: asked ? nil : "\"Move On & Notify\" chosen with the notification permission \(before); the user was not asked")
    }

    /// An analysis's answer reached the app and its input has been handled (`notifiedBefore`:
    /// ``ContinuationMetrics/notified`` before): `continuationNotNotified` for a success
    /// after "Move On & Notify" with no open since, while the permission allows the OS to
    /// show notifications, and no completion notification was shown.
    @inline(__always) func observeAnswerHandled(_ i: Int, succeeded: Bool, notifiedBefore: UInt64, core: borrowing WorldCore) {
        guard core.oracle.watching, core.oracle.continuation.entries[i].movedOn else { return }
        core.oracle.continuation.entries[i].movedOn = false
        guard succeeded, RefreshChecker.allowsPosting(core.devices[i].permission) else { return }
        let notified = metrics.notified > notifiedBefore
        core.verify(notified, .continuationNotNotified, device: i, time: core.now,
                    detail: notified ? nil : "the result of the analysis sent at \(core.format(core.oracle.continuation.entries[i].sentAt)) reached the app after \"Move On & Notify\" with permission \(core.devices[i].permission); no notification was shown")
    }

    /// The app shows a result (`request`): it must be the one that reached the app and
    /// the user has not seen (`continuationResultShownWrong`).
    @inline(__always) func observeResultShown(_ i: Int, request: UInt32, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let unseen = slots[i].unseenRequest == request
        core.verify(unseen, .continuationResultShownWrong, device: i, time: core.now,
                    detail: unseen ? nil : "result of analysis #\(request) shown, but it is not an unseen result the app holds (shown before, or never received)")
    }

    /// The user opened the app and its input has been handled: no result that reached
    /// the app is left unseen (`continuationResultShownWrong`), and an analysis the user
    /// moved on from is no longer judged as in the background.
    @inline(__always) func observeOpenHandled(_ i: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        core.oracle.continuation.entries[i].movedOn = false
        let unseen = slots[i].unseenRequest
        core.verify(unseen == 0, .continuationResultShownWrong, device: i, time: core.now,
                    detail: unseen == 0 ? nil : "the app was opened holding the unseen result of analysis #\(unseen), finished at \(core.format(slots[i].completedAt)), and did not show it")
    }
}

// The rules of the background continuation (seed `004`) that the checks judge: a static member each
// (``ViolationKind``) and their list.
extension ViolationKind {
    /// A result of seed `004`'s analysis reached the app but was neither seen by the
    /// user nor on disk when the app was terminated.
    public static var continuationResultLost: ViolationKind { .rule() }
    /// An analysis-complete notification without a result in the app (seed `004`).
    public static var continuationNotifiedWithoutResult: ViolationKind { .rule() }
    /// An analysis not ended at its mode's timeout (seed `004`, "Integration with Parsing
    /// Modes": hierarchical 300 s, baseline 180 s, from the request's send, in elapsed
    /// time): its answer reached the app, or the app cancelled it, after the timeout; it
    /// was still running at a kill, a new start or the run's end past it; or the timeout
    /// timer ended it at another instant than the timeout.
    public static var continuationPastDeadline: ViolationKind { .rule() }
    /// An analysis request sent while the device's earlier one was still in flight
    /// (seed `004`, "Known Limitations" 3: one analysis at a time).
    public static var analysisStartedTwice: ViolationKind { .rule() }
    /// The background option offered at another time than `logic.continuation.offerAfter`
    /// (10 s) after the analysis's send, or when no analysis was in flight (seed `004`,
    /// "10-Second Detection": "if still processing").
    public static var offerTimingWrong: ViolationKind { .rule() }
    /// "Move On & Notify" chosen while the analysis was in flight, and the app held no
    /// background task from the OS afterwards (seed `004`, "Background Task Continuation":
    /// the work must go on once the user leaves).
    public static var moveOnWithoutBackgroundTask: ViolationKind { .rule() }
    /// "Move On & Notify" chosen while the notification permission was not determined
    /// (or only provisional), and the user was not asked (seed `004`, "Permission
    /// request: Shown on first use").
    public static var permissionNotRequested: ViolationKind { .rule() }
    /// A successful result reached the app after the user moved on, before any open,
    /// while the permission allowed notifications, and no "Homework Analysis Complete"
    /// was shown (seed `004`, "Background completion: Notification appears").
    public static var continuationNotNotified: ViolationKind { .rule() }
    /// At an open the app held a result the user had not seen and did not show it, or it
    /// showed a result that was not an unseen one (seed `004`, Known Limitations 4:
    /// "Results appear immediately on app open", once).
    public static var continuationResultShownWrong: ViolationKind { .rule() }
}

extension ContinuationFeature {
    /// Its rules, in the order report.json lists them (``FeatureList/rules``).
    static let rules: [ViolationKind] = [
        .continuationResultLost, .continuationNotifiedWithoutResult, .continuationPastDeadline, .analysisStartedTwice,
        .offerTimingWrong, .moveOnWithoutBackgroundTask, .permissionNotRequested, .continuationNotNotified,
        .continuationResultShownWrong
    ]
}
