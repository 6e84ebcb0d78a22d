import SimKernel
import AppLogic

/// The continuation's judge-only ground truth (seed `004`), one entry per device.
struct ContinuationChecker {
    /// The instant the analysis in flight times out: its send plus its mode's timeout of
    /// `logic.continuation` (elapsed time: a timer, whatever the wall clock does);
    /// `World.never` when none is in flight.
    var deadline: [SimTime]

    init(devices n: Int) {
        deadline = Array(hugePagesRepeating: World.never, count: n)
    }
}

extension ContinuationHost {
    /// The app is terminated while it holds result `unseen` the user has not seen (seed
    /// `004`): it must be on disk (else it is lost).
    func observeTerminatedHoldingResult(_ i: Int, unseen: UInt32, core: inout WorldCore) {
        guard core.oracle.watching else { return }
        let onDisk = resultOnDisk(i, unseen: unseen)
        core.verify(onDisk, .continuationResultLost, device: i, time: core.now,
                    detail: onDisk ? nil : "result of analysis #\(unseen), finished at \(core.format(slots[i].completedAt)), was neither seen nor on disk when the app was terminated")
    }

    /// An analysis-complete notification is shown: it must announce a result the app
    /// truly holds (seed `004`).
    func observeAnalysisNotificationShown(_ i: Int, core: inout WorldCore) {
        guard core.oracle.watching else { return }
        let holds = slots[i].unseenRequest != 0
        core.verify(holds, .continuationNotifiedWithoutResult, device: i, time: core.now,
                    detail: holds ? nil : "analysis-complete notification, but no unseen result reached the app")
    }

    /// The app sends an analysis request in `mode`: it must end by its mode's timeout
    /// (`continuationPastDeadline`), and one still in flight past its own did not.
    func observeAnalysisSent(_ i: Int, mode: AnalysisMode, core: inout WorldCore) {
        guard core.oracle.watching else { return }
        analysisEnds(i, "was still running when the next one was sent", core: &core)
        let timeouts = core.scenario.logic.continuation
        core.oracle.continuation.deadline[i] = core.now + (mode == .hierarchical ? timeouts.hierarchicalTimeout : timeouts.baselineTimeout)
    }

    /// `analysisStartedTwice`: an analysis request goes out while the world still has the
    /// device's earlier one in flight (not answered, cancelled nor abandoned).
    func observeAnalysisSendsAlone(_ i: Int, core: inout WorldCore) {
        guard core.oracle.watching else { return }
        let job = slots[i].job
        let alone = job < 0 || core.jobs[Int(job)].clientDone || core.jobs[Int(job)].cancelled
        core.verify(alone, .analysisStartedTwice, device: i, time: core.now,
                    detail: alone ? nil : "an analysis request sent while the one sent at \(core.format(core.jobs[Int(job)].sentAt)) was still in flight")
    }

    /// The logic's timeout timer fires while the app runs: for an analysis in flight, at
    /// its timeout exactly.
    func observeDeadlineTimerFires(_ i: Int, core: inout WorldCore) {
        guard core.oracle.watching else { return }
        let deadline = core.oracle.continuation.deadline[i]
        guard deadline != World.never else { return }
        core.verify(core.now == deadline, .continuationPastDeadline, device: i, time: core.now,
                    detail: core.now == deadline ? nil : "the timeout timer of the analysis in flight fired at \(core.format(core.now)); its timeout is at \(core.format(deadline))")
    }

    /// The analysis in flight ends (`how`: its answer reached the app, the app cancelled
    /// it, the app was terminated): not after its timeout.
    func analysisEnds(_ i: Int, _ how: String, core: inout WorldCore) {
        guard core.oracle.watching else { return }
        let deadline = core.oracle.continuation.deadline[i]
        guard deadline != World.never else { return }
        core.oracle.continuation.deadline[i] = World.never
        let holds = core.now <= deadline
        core.verify(holds, .continuationPastDeadline, device: i, time: holds ? core.now : deadline,
                    detail: holds ? nil : "the analysis that timed out at \(core.format(deadline)) \(how) at \(core.format(core.now))")
    }

    /// The run's end: no analysis still in flight past its timeout.
    func observeContinuationRunEnded(core: inout WorldCore) {
        guard core.oracle.watching else { return }
        for i in core.oracle.continuation.deadline.indices {
            let deadline = core.oracle.continuation.deadline[i]
            guard deadline != World.never, deadline < core.now else { continue }
            core.verify(false, .continuationPastDeadline, device: i, time: deadline,
                        detail: "the analysis that timed out at \(core.format(deadline)) was still running at the run's end")
        }
    }
}
