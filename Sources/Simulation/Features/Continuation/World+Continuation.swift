import SimKernel
import AppLogic
import Reports

/// The world's side of the continuation host: the entry points that deliver inputs.
extension World {
    /// One input: the logic runs, then each effect in order (``deliver(_:_:_:)``); a
    /// permission request's answer is delivered once they have run.
    mutating func deliverContinuation(_ d: UInt32, _ input: ContinuationInput) {
        deliver(ContinuationHost<Logics>.self, d, input)
    }

    /// At every open (after the features before it in the list heard of it): the logic
    /// shows a result waiting for the user, then the user may start an analysis.
    mutating func continuationOnOpen(_ d: UInt32) {
        guard core.cohorts[Int(core.devices[Int(d)].cohort)].runs(.continuation) else { return }
        deliverContinuation(d, .appOpened)
        features.continuation.observeOpenHandled(Int(d), core: core)
        guard let mode = features.continuation.userStartsAnalysis(d, core: &core) else { return }
        deliverContinuation(d, .analysisRequested(mode, notifications: core.devices[Int(d)].permission))
    }

    /// The continuation's own events (``ContinuationEvent``).
    mutating func continuationEvent(_ event: ContinuationEvent) {
        switch event {
        case .choice(let d, let incarnation): continuationChoice(d, incarnation: incarnation)
        }
    }

    /// The user answers the offer's alert.
    mutating func continuationChoice(_ d: UInt32, incarnation: UInt32) {
        guard let choice = features.continuation.userChooses(d, incarnation: incarnation, core: &core) else { return }
        let permission = core.devices[Int(d)].permission
        deliverContinuation(d, .userChose(choice))
        if choice == .moveOn { features.continuation.observeMovedOn(Int(d), permissionBefore: permission, core: core) }
    }

    /// The foreground session ended: an analysis the user came back to (moved on, then
    /// opened the app) is in the background again.
    mutating func continuationLeavesForeground(_ d: UInt32) {
        guard features.continuation.returnsToBackground(d) else { return }
        deliverContinuation(d, .appEnteredBackground)
    }

    /// The offer or deadline timer fires (``DeviceTimer``): a running app's logic hears it.
    mutating func continuationTimerFires(_ d: UInt32, _ timer: ContinuationTimer) {
        guard core.devices[Int(d)].process == .running else { return }
        if timer == .deadline { features.continuation.observeDeadlineTimerFires(Int(d), core: core) }
        deliverContinuation(d, .timerFired(timer))
    }

    /// The background time granted by `beginBackgroundTask` runs out: the expiration
    /// handler runs; an app that still holds the assertion afterwards is terminated.
    mutating func backgroundTimeExpires(_ d: UInt32) {
        guard features.continuation.backgroundTimeRunsOut(d, core: &core) else { return }
        deliverContinuation(d, .backgroundTimeExpiring)
        guard features.continuation.holdsBackgroundTask(Int(d)) else { return }
        core.note(d, "OS: background task not ended: the app is terminated")
        terminate(d)
    }

    /// An analysis request's answer (Features/Features.swift): its radio energy is the
    /// running operation's, and a running app hears it.
    mutating func continuationReceives(_ job: UInt32, _ result: HTTPResult, radioJoules: Double) {
        core.devices[Int(core.jobs[Int(job)].device)].ledger.chargeApp(joules: radioJoules)
        guard appHearsAnswer(job) else { return }
        receiveAnalysis(job, result)
    }

    /// An analysis response reached the running app: ground truth first, then the logic.
    mutating func receiveAnalysis(_ job: UInt32, _ result: HTTPResult) {
        let j = Int(job)
        let d = core.jobs[j].device
        if case .ok(.analysis) = result {
            features.continuation.resultArrived(Int(d), request: core.jobs[j].request, answeredAt: core.jobs[j].answeredAt)
        }
        if !core.jobs[j].cancelled { features.continuation.analysisEnds(Int(d), "reached the app", core: core) }
        let notified = features.continuation.metrics.notified
        deliverContinuation(d, .httpResponse(core.jobs[j].request, result))
        features.continuation.observeAnswerHandled(Int(d), succeeded: result == .ok(.analysis), notifiedBefore: notified, core: core)
    }
}

// MARK: - What it hears as a feature (Features/FeatureHooks.swift)

extension ContinuationHost: FeatureHooks {
    @inline(__always) static func hearAppOpened(_ d: UInt32, in world: inout World<Logics>) { world.continuationOnOpen(d) }
    @inline(__always) static func hearLeftForeground(_ d: UInt32, in world: inout World<Logics>) { world.continuationLeavesForeground(d) }
    @inline(__always) static func persist(_ i: Int, in world: inout World<Logics>) { world.features.continuation.persist(i) }
    @inline(__always) static func prefetchOpening(_ i: Int, android a: Int, in world: inout World<Logics>) {
        world.features.continuation.states.prefetch(i)
        world.features.continuation.slots.prefetch(i)
    }
    @inline(__always) static func holdsProcess(_ i: Int, in world: borrowing World<Logics>) -> Bool { world.features.continuation.holdsBackgroundTask(i) }
    static func report(into parts: inout ReportParts, world: borrowing World<Logics>) { world.features.continuation.report(into: &parts) }
}
