import SimKernel
import AppLogic
import Platform
import Scenario
import Reports

/// One device's continuation bookkeeping in the world: the background task the logic
/// asked for (its timers are ``DeviceTimer``s), the request in flight, and ground truth
/// for the oracle.
struct ContinuationSlot {
    /// The app holds a `beginBackgroundTask` assertion (``DeviceTimer/backgroundTask`` armed).
    var holdsBackgroundTask = false
    /// The analysis job in flight, or -1.
    var job: Int32 = -1
    /// Ground truth: the request whose successful result reached the app process and
    /// that the user has not seen yet (0: none), and when the server finished it.
    var unseenRequest: UInt32 = 0
    var completedAt = World.never
    /// The OS's answer to a permission request, delivered to the logic once the effects
    /// of the input that asked have run.
    var authorizationAnswer: NotificationAuthorization?
}

/// What the continuation runs measured (seed `004`'s outcomes).
struct ContinuationMetrics {
    var completedToNotified = LatencyHistogram()
    var started: UInt64 = 0
    var offered: UInt64 = 0
    /// By ``ContinuationChoiceName`` order: continue here, move on, cancel.
    var choices: [UInt64] = [0, 0, 0]
    var shownHere: UInt64 = 0
    var failedHere: UInt64 = 0
    var completedInBackground: UInt64 = 0
    var failedInBackground: UInt64 = 0
    var timedOut: UInt64 = 0
    var cancelled: UInt64 = 0
    var backgroundTimeExpired: UInt64 = 0
    var interruptedByTermination: UInt64 = 0
    var notified: UInt64 = 0
    var shownAtOpen: UInt64 = 0
    var requests: UInt64 = 0
}

extension World {
    // MARK: - The user

    /// At every open (after the refresh logic heard of it): the badge check, then the
    /// continuation logic shows a result waiting for the user, then the user may start
    /// an analysis (cohort `continuation.startProbability`).
    mutating func continuationOnOpen(_ d: UInt32) {
        let i = Int(d)
        badgeOnOpen(d)
        let cohort = cohorts[Int(devices[i].cohort)]
        guard cohort.runsContinuation else { return }
        deliverContinuation(d, .appOpened)
        let usage = cohort.continuation
        guard devices[i].continuationStream.chance(usage.startProbability) else { return }
        let mode: AnalysisMode = usage.modes.pick(&devices[i].continuationStream) == .hierarchical ? .hierarchical : .baseline
        deliverContinuation(d, .analysisRequested(mode, notifications: devices[i].permission))
    }

    /// The user answers the alert (at once: **Assumption**), by the cohort's `choice` weights.
    mutating func continuationChoice(_ d: UInt32, incarnation: UInt32) {
        let i = Int(d)
        guard devices[i].incarnation == incarnation, devices[i].process == .running else { return }
        let picked = cohorts[Int(devices[i].cohort)].continuation.choice.pick(&devices[i].continuationStream)
        metrics.continuation.choices[ContinuationChoiceName.allCases.firstIndex(of: picked)!] += 1
        let choice: ContinuationChoice
        switch picked {
        case .continueHere:
            choice = .continueHere
        case .moveOn:
            choice = .moveOn
            devices[i].foregroundUntil = now
            note(d, "user moves on: the app leaves the foreground")
            scheduleSuspensionCheck(d)
        case .cancel:
            choice = .cancel
            userLooks(d)
        }
        deliverContinuation(d, .userChose(choice))
    }

    private mutating func keepForeground(_ d: UInt32, until: SimTime) {
        devices[Int(d)].foregroundUntil = until
        clock.schedule(.foregroundSessionEnds(device: d, incarnation: devices[Int(d)].incarnation), at: until)
    }

    /// A result or failure on screen: the user looks at it for a foreground session
    /// (**Assumption**: `World.foregroundSession`), then leaves.
    private mutating func userLooks(_ d: UInt32) {
        keepForeground(d, until: now + World.foregroundSession)
    }

    /// The app leaves the foreground: suspended shortly unless it still has work (a
    /// background task, a refresh task), which checks again when it ends.
    private mutating func scheduleSuspensionCheck(_ d: UInt32) {
        clock.schedule(.foregroundSessionEnds(device: d, incarnation: devices[Int(d)].incarnation), after: World.suspensionDelay)
    }

    /// The foreground session ended: an analysis the user came back to (moved on, then
    /// opened the app) is in the background again.
    mutating func continuationLeavesForeground(_ d: UInt32) {
        guard devices[Int(d)].continuation.isBackInApp else { return }
        deliverContinuation(d, .appEnteredBackground)
    }

    /// `requestAuthorization` from "Move On & Notify" (seed `004`): a not-determined or
    /// provisional status prompts, and the user answers at once (**Assumption**) with
    /// "Allow" at the share of the cohort's `notificationPermission` weights that chose:
    /// authorized (and provisional) over authorized, provisional and denied; 0.5 when the
    /// cohort gives none of them (the defaults: 0.6 / 0.9, two thirds allow). A
    /// determined status answers at once with no prompt.
    private mutating func requestNotificationAuthorization(_ d: UInt32) {
        let i = Int(d)
        let before = devices[i].notificationCenter.authorization
        if before == .notDetermined || before == .provisional {
            var allow = 0.0, decided = 0.0
            for option in scenario.fleet[Int(devices[i].cohort)].settings.notificationPermission.options {
                switch option.value {
                case .authorized, .provisional: allow += option.weight; decided += option.weight
                case .denied: decided += option.weight
                case .notDetermined: break
                }
            }
            let allows = devices[i].continuationStream.chance(decided > 0 ? allow / decided : 0.5)
            devices[i].notificationCenter.requestAuthorization(.full, userAllows: allows)
            devices[i].permission = devices[i].notificationCenter.authorization
            note(d, "OS: notification permission prompt; the user \(allows ? "allows" : "declines")")
        }
        devices[i].continuationSlot.authorizationAnswer = devices[i].notificationCenter.authorization
    }

    // MARK: - OS events

    /// The offer or deadline timer fires (``DeviceTimer``): a running app's logic hears it.
    mutating func continuationTimerFires(_ d: UInt32, _ timer: ContinuationTimer) {
        let i = Int(d)
        guard devices[i].process == .running else { return }
        deliverContinuation(d, .timerFired(timer))
    }

    /// The background time granted by `beginBackgroundTask` runs out: the expiration
    /// handler runs; an app that still holds the assertion afterwards is terminated.
    mutating func backgroundTimeExpires(_ d: UInt32) {
        let i = Int(d)
        guard devices[i].continuationSlot.holdsBackgroundTask else { return }
        let granted = cohorts[Int(devices[i].cohort)].continuation.backgroundTime
        if now < devices[i].foregroundUntil {
            // Back in the foreground (the user opened the app): background time is not
            // consumed there; it counts again from when the app leaves.
            armTimer(d, .backgroundTask, at: devices[i].foregroundUntil + granted)
            return
        }
        note(d, "OS: background time runs out; expiration handler runs")
        deliverContinuation(d, .backgroundTimeExpiring)
        guard devices[i].continuationSlot.holdsBackgroundTask else { return }
        note(d, "OS: background task not ended: the app is terminated")
        terminate(d)
    }

    /// Abrupt termination: judge the result the app held (lost unless seen or on disk),
    /// drop the work in flight, and rebuild the logic from disk.
    mutating func terminateContinuation(_ d: UInt32) {
        let i = Int(d)
        let unseen = devices[i].continuationSlot.unseenRequest
        if unseen != 0 {
            let onDisk = observeTerminatedHoldingResult(i, unseen: unseen)
            if !onDisk { devices[i].continuationSlot.unseenRequest = 0 }
        }
        let job = devices[i].continuationSlot.job
        if job >= 0 {
            metrics.continuation.interruptedByTermination += 1
            devices[i].continuationSlot.job = -1
            if !jobs[Int(job)].clientDone {
                jobs[Int(job)].clientDone = true
                releaseIfDone(UInt32(job))
            }
        }
        cancelTimer(d, .continuationOffer)
        cancelTimer(d, .continuationDeadline)
        cancelTimer(d, .backgroundTask)
        devices[i].continuationSlot.holdsBackgroundTask = false
        devices[i].continuation = ContinuationState(persisted: devices[i].durableContinuation)
    }

    // MARK: - Network

    /// The server's time for an analysis: the cohort's per-mode distribution, drawn from
    /// the device's continuation stream, slowed down by `backendSlowdown`.
    /// Mutating on purpose: a non-mutating method given `&devices[d]...` makes Swift copy
    /// the whole world for exclusivity, and the write then copies the device array.
    mutating func analysisServiceTime(_ mode: AnalysisMode, device d: Int) -> SimDuration {
        let usage = cohorts[Int(devices[d].cohort)].continuation
        let base = (mode == .hierarchical ? usage.hierarchicalTime : usage.baselineTime).sampleDuration(&devices[d].continuationStream)
        return server.slowdowns.isEmpty ? base : .fromSeconds(base.seconds * server.slowdown)
    }

    /// An analysis response reached the running app: ground truth first, then the logic.
    mutating func receiveAnalysis(_ job: UInt32, _ result: HTTPResult) {
        let j = Int(job)
        let d = jobs[j].device
        if case .ok(.analysis) = result {
            devices[Int(d)].continuationSlot.unseenRequest = jobs[j].request.rawValue
            devices[Int(d)].continuationSlot.completedAt = jobs[j].answeredAt
        }
        deliverContinuation(d, .httpResponse(jobs[j].request, result))
    }

    // MARK: - Logic

    mutating func deliverContinuation(_ d: UInt32, _ input: ContinuationInput) {
        let i = Int(d)
        let wall = wallInstant(i, at: now)
        note(d, "continuation <- \(input)")
        continuationEffects.removeAll(keepingCapacity: true)
        continuationLogic.handle(input, state: &devices[i].continuation, now: wall, into: &continuationEffects)
        count(input, continuationEffects)
        var k = 0
        while k < continuationEffects.count {
            let effect = continuationEffects[k]
            k += 1
            note(d, "continuation -> \(effect)")
            execute(effect, device: d)
        }
        if let answer = devices[i].continuationSlot.authorizationAnswer {
            devices[i].continuationSlot.authorizationAnswer = nil
            deliverContinuation(d, .notificationAuthorizationAnswered(answer))
        }
    }

    /// Outcome counts, from what the logic answered to which input.
    private mutating func count(_ input: ContinuationInput, _ effects: [ContinuationEffect]) {
        guard !effects.isEmpty else { return }
        switch input {
        case .httpResponse(_, .ok(.analysis)):
            if effects.contains(where: { if case .showResult = $0 { return true } else { return false } }) {
                metrics.continuation.shownHere += 1
            } else {
                metrics.continuation.completedInBackground += 1
            }
        case .httpResponse:
            if effects.contains(.showFailure) { metrics.continuation.failedHere += 1 } else { metrics.continuation.failedInBackground += 1 }
        case .timerFired(.deadline): metrics.continuation.timedOut += 1
        case .userChose(.cancel): metrics.continuation.cancelled += 1
        case .backgroundTimeExpiring: metrics.continuation.backgroundTimeExpired += 1
        case .appOpened:
            metrics.continuation.shownAtOpen += UInt64(effects.filter { if case .showResult = $0 { return true } else { return false } }.count)
        case .analysisRequested, .timerFired(.offer), .userChose(.continueHere), .userChose(.moveOn),
             .appEnteredBackground, .notificationAuthorizationAnswered: break
        }
    }

    private mutating func execute(_ effect: ContinuationEffect, device d: UInt32) {
        let i = Int(d)
        switch effect {
        case .httpRequest(let id, let endpoint):
            metrics.continuation.started += 1
            // The user waits on the screen (the app stays in the foreground) until the
            // result, a failure, or a choice at the alert that leaves.
            let logic = scenario.logic.continuation
            keepForeground(d, until: now + max(logic.hierarchicalTimeout, logic.baselineTimeout) + World.suspensionDelay)
            send(d, id, endpoint)
        case .cancelRequest:
            let job = devices[i].continuationSlot.job
            guard job >= 0, !jobs[Int(job)].clientDone else { return }
            jobs[Int(job)].cancelled = true
            clock.schedule(.responseReachesDevice(job: UInt32(job), generation: jobs[Int(job)].generation), at: now)
        case .startTimer(let timer, let after):
            armTimer(d, timer == .offer ? .continuationOffer : .continuationDeadline, after: SimDuration(microseconds: after.microseconds))
        case .cancelTimer(let timer):
            cancelTimer(d, timer == .offer ? .continuationOffer : .continuationDeadline)
        case .offerBackground:
            metrics.continuation.offered += 1
            clock.schedule(.continuationChoice(device: d, incarnation: devices[i].incarnation), at: now)
        case .beginBackgroundTask:
            devices[i].continuationSlot.holdsBackgroundTask = true
            let granted = cohorts[Int(devices[i].cohort)].continuation.backgroundTime
            armTimer(d, .backgroundTask, after: granted)
            note(d, "OS: background task granted for \(human(granted))")
        case .requestNotificationAuthorization:
            requestNotificationAuthorization(d)
        case .endBackgroundTask:
            cancelTimer(d, .backgroundTask)
            devices[i].continuationSlot.holdsBackgroundTask = false
            scheduleSuspensionCheck(d)
        case .showResult(let result):
            if result.request.rawValue == devices[i].continuationSlot.unseenRequest { devices[i].continuationSlot.unseenRequest = 0 }
            userLooks(d)
        case .showFailure:
            userLooks(d)
        case .storeResult:
            // The first unpersisted write starts the persistence delay; later ones ride along.
            let wasDirty = devices[i].keyValue.dirty
            devices[i].keyValue.dirty = true
            if !wasDirty, devices[i].process == .running { armFlush(d) }
        case .synchronize:
            persist(d, how: "synchronized")
        case .postNotification(let notification):
            postAnalysisNotification(notification, device: d)
        }
    }

    /// The completion notification: it must announce a result the app truly holds
    /// (ground truth), and its latency runs from the server's completion.
    private mutating func postAnalysisNotification(_ notification: LocalNotification, device d: UInt32) {
        let i = Int(d)
        guard devices[i].permission.allowsPosting else {
            metrics.notificationsSuppressed += 1
            note(d, "OS: notification not shown (permission \(devices[i].permission))")
            return
        }
        observeAnalysisNotificationShown(i)
        let slot = devices[i].continuationSlot
        if slot.unseenRequest != 0 { metrics.continuation.completedToNotified.record((now - slot.completedAt).microseconds) }
        metrics.continuation.notified += 1
        note(d, "OS: notification shown: analysis complete")
        notificationDelivered(notification, device: d)
        let usage = cohorts[Int(devices[i].cohort)].usage
        if devices[i].continuationStream.chance(usage.notificationOpenProbability) {
            clock.schedule(.notificationTapped(device: d), after: usage.notificationOpenDelay.sampleDuration(&devices[i].continuationStream))
        }
    }
}

extension ContinuationConfig {
    var configuration: ContinuationConfiguration {
        var c = ContinuationConfiguration()
        c.offerAfter = Interval(microseconds: offerAfter.microseconds)
        c.hierarchicalTimeout = Interval(microseconds: hierarchicalTimeout.microseconds)
        c.baselineTimeout = Interval(microseconds: baselineTimeout.microseconds)
        return c
    }
}

extension ContinuationVariants {
    /// The `continuation.*` names of a scenario's `logic.variants`.
    init(names: [String]) {
        self = []
        for name in names where name == "continuation.inMemoryResult" { insert(.inMemoryResult) }
    }
}
