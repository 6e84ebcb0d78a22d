import AppLogic

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
}
