import AppLogic

extension World {
    /// The app is terminated while it holds result `unseen` the user has not seen (seed
    /// `004`): it must be on disk. Returns whether it was (else it is lost).
    mutating func observeTerminatedHoldingResult(_ i: Int, unseen: UInt32) -> Bool {
        let onDisk = devices[i].durableContinuation.unseenResult?.request.rawValue == unseen
        verify(onDisk, .continuationResultLost, device: i, time: now,
               detail: onDisk ? nil : "result of analysis #\(unseen), finished at \(format(devices[i].continuationSlot.completedAt)), was neither seen nor on disk when the app was terminated")
        return onDisk
    }

    /// An analysis-complete notification is shown: it must announce a result the app
    /// truly holds (seed `004`).
    mutating func observeAnalysisNotificationShown(_ i: Int) {
        let holds = devices[i].continuationSlot.unseenRequest != 0
        verify(holds, .continuationNotifiedWithoutResult, device: i, time: now,
               detail: holds ? nil : "analysis-complete notification, but no unseen result reached the app")
    }
}
