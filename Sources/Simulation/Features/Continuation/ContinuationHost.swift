import SimKernel
import AppLogic
import Platform
import Scenario
import Reports

/// One device's continuation bookkeeping in the world: the background task the logic
/// asked for (its timers are ``DeviceTimer``s), the request in flight, and ground truth
/// for the oracle.
struct ContinuationSlot {
    /// Ground truth: the request whose successful result reached the app process and
    /// that the user has not seen yet (0: none), and when the server finished it.
    var completedAt = SimTime.never
    var unseenRequest: UInt32 = 0
    /// The analysis job in flight, or -1.
    var job: Int32 = -1
    /// The app holds a `beginBackgroundTask` assertion (``DeviceTimer/backgroundTask`` armed).
    var holdsBackgroundTask = false
    /// The OS's answer to a permission request, delivered to the logic once the effects
    /// of the input that asked have run.
    var authorizationAnswer: NotificationAuthorization?
    /// The user's draws for the analysis (start, mode, choice, permission, tap) and the
    /// server's time, as a position (``StreamPosition``): in the slot's last 4 bytes,
    /// which were padding (docs/performance.md#memory-per-device).
    var stream = StreamPosition.start
}

/// What the continuation runs measured (seed `004`'s outcomes; report.json's `continuation`).
struct ContinuationMetrics {
    var completedToNotified: TimedLatency
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
}

/// Seed `004`'s long request, hosted (docs/architecture.md): the logic, its per-device
/// state, what reached the disk, the world's bookkeeping and the draws of each device,
/// the effect buffer, and the metrics of report.json's `continuation`. `World` hands an
/// input to ``handle(_:_:core:)`` and each effect to ``execute(_:device:core:)``
/// (``World/deliver(_:_:_:)``; the entry points are in World+Continuation).
struct ContinuationHost<Logics: LogicSet>: FeatureHost {
    let logic: Logics.Continuation
    /// The reused buffer the logic writes its effects into.
    var effects: [ContinuationEffect] = []
    /// Per device (indexed by the dense device id):
    var states: [Logics.Continuation.State]
    /// What of the state reached the disk (UserDefaults), where it differs from `states`' copy.
    var durable = OnDisk<ContinuationStored>()
    var slots: [ContinuationSlot]
    var metrics: ContinuationMetrics
    /// Each cohort's `fleet[].continuation`, by cohort index, copied when the world is
    /// built so that an event reads a stored value, never a section looked up by type.
    let usages: [ContinuationUsage]
    /// **Assumption**: the foreground the user waits in outlasts the analysis's longest
    /// timeout by this much, so its failure is seen before the app leaves the foreground.
    static var foregroundMargin: SimDuration { .seconds(1) }

    /// Memory of one device's entries in the arrays above.
    static var bytesPerDevice: Int {
        MemoryLayout<Logics.Continuation.State>.stride + MemoryLayout<ContinuationSlot>.stride
    }

    init(scenario: Scenario, logic: Logics.Continuation, core: WorldCore) {
        self.logic = logic
        let n = core.devices.count
        states = Array(hugePagesRepeating: Logics.Continuation.State(), count: n)
        slots = Array(hugePagesRepeating: ContinuationSlot(), count: n)
        metrics = ContinuationMetrics(completedToNotified: TimedLatency(durationMicroseconds: scenario.duration.microseconds))
        usages = core.cohorts.map(\.config.continuation)
        effects.reserveCapacity(8)
    }

    static var traceName: String { "continuation" }

    @inline(__always) static func lend<R>(_ world: inout World<Logics>, _ body: (inout ContinuationHost, inout WorldCore) -> R) -> R {
        body(&world.features.continuation, &world.core)
    }

    // MARK: - Deliver an input, execute its effects

    /// The logic handles `input` with the device's wall time, into ``effects``.
    mutating func handle(_ d: UInt32, _ input: ContinuationInput, core: inout WorldCore) {
        let i = Int(d)
        let before = states[i].stored
        logic.handle(input, state: &states[i], now: core.wallInstant(i, at: core.now), into: &effects)
        durable.changed(i, from: before, to: states[i].stored)
        count(input)
    }

    /// The OS's answer to a permission request the last effects asked for, if any (the
    /// world delivers it once those effects have run).
    mutating func takeFollowUp(_ d: UInt32) -> ContinuationInput? {
        defer { slots[Int(d)].authorizationAnswer = nil }
        return slots[Int(d)].authorizationAnswer.map { .notificationAuthorizationAnswered($0) }
    }

    /// Carries out one effect; returns what only the world can do.
    mutating func execute(_ effect: ContinuationEffect, device d: UInt32, core: inout WorldCore) -> HostRequest? {
        let i = Int(d)
        switch effect {
        case .httpRequest(let id, let endpoint):
            metrics.started += 1
            if case .analysis(let mode) = endpoint {
                observeAnalysisSendsAlone(i, core: core)
                observeAnalysisSent(i, mode: mode, core: core)
            }
            // The user waits on the screen (the app stays in the foreground) until the
            // result, a failure, or a choice at the alert that leaves.
            let longest = max(logic.spec.hierarchicalTimeout, logic.spec.baselineTimeout).microseconds
            core.keepForeground(d, until: core.now + SimDuration(microseconds: longest) + Self.foregroundMargin)
            return .send(id, endpoint, .continuation)
        case .cancelRequest:
            analysisEnds(i, "was cancelled by the app", core: core)
            core.cancelRequest(slots[i].job)
        case .startTimer(let timer, let after):
            core.armTimer(d, timer == .offer ? .continuationOffer : .continuationDeadline, after: SimDuration(microseconds: after.microseconds))
        case .cancelTimer(let timer):
            core.cancelTimer(d, timer == .offer ? .continuationOffer : .continuationDeadline)
        case .offerBackground:
            observeOffered(i, core: core)
            metrics.offered += 1
            core.schedule(.continuation(.choice(device: d, incarnation: core.devices[i].incarnation)), at: core.now)
        case .beginBackgroundTask:
            slots[i].holdsBackgroundTask = true
            let granted = usages[Int(core.devices[i].cohort)].backgroundTime
            core.armTimer(d, .backgroundTask, after: granted)
            core.note(d) { c in "OS: background task granted for \(c.human(granted))" }
        case .requestNotificationAuthorization:
            requestNotificationAuthorization(d, core: &core)
        case .endBackgroundTask:
            core.cancelTimer(d, .backgroundTask)
            slots[i].holdsBackgroundTask = false
            core.scheduleSuspensionCheck(d, after: core.suspensionDelay(i))
        case .showResult(let result):
            observeResultShown(i, request: result.request.rawValue, core: core)
            if result.request.rawValue == slots[i].unseenRequest { slots[i].unseenRequest = 0 }
            userLooks(d, core: &core)
        case .showFailure:
            userLooks(d, core: &core)
        case .storeResult:
            core.keyValueWritten(d)
        case .synchronize:
            return .persist(how: "synchronized")
        case .postNotification(let notification):
            return postAnalysisNotification(notification, device: d, core: &core)
        }
        return nil
    }

    /// Outcome counts, from what the logic answered to which input.
    private mutating func count(_ input: ContinuationInput) {
        guard !effects.isEmpty else { return }
        switch input {
        case .httpResponse(_, .ok(.analysis)):
            if effects.contains(where: { if case .showResult = $0 { return true } else { return false } }) {
                metrics.shownHere += 1
            } else {
                metrics.completedInBackground += 1
            }
        case .httpResponse:
            if effects.contains(.showFailure) { metrics.failedHere += 1 } else { metrics.failedInBackground += 1 }
        case .timerFired(.deadline): metrics.timedOut += 1
        case .userChose(.cancel): metrics.cancelled += 1
        case .backgroundTimeExpiring: metrics.backgroundTimeExpired += 1
        case .appOpened:
            metrics.shownAtOpen += UInt64(effects.filter { if case .showResult = $0 { return true } else { return false } }.count)
        case .analysisRequested, .timerFired(.offer), .userChose(.continueHere), .userChose(.moveOn),
             .appEnteredBackground, .notificationAuthorizationAnswered: break
        }
    }

    // MARK: - The user

    /// At an open, after the app heard of it: whether the user starts an analysis
    /// (cohort `continuation.startProbability`), and in which mode.
    mutating func userStartsAnalysis(_ d: UInt32, core: inout WorldCore) -> AnalysisMode? {
        let i = Int(d)
        let usage = usages[Int(core.devices[i].cohort)]
        return core.streams(of: i).withStream(.continuation, at: &slots[i].stream) { rng -> AnalysisMode? in
            guard rng.chance(usage.startProbability) else { return nil }
            return usage.modes.pick(&rng) == .hierarchical ? .hierarchical : .baseline
        }
    }

    /// The user answers the alert (at once: **Assumption**), by the cohort's `choice`
    /// weights; nil when the app it was shown in is gone.
    mutating func userChooses(_ d: UInt32, incarnation: UInt32, core: inout WorldCore) -> ContinuationChoice? {
        let i = Int(d)
        guard core.devices[i].incarnation == incarnation, core.devices[i].process == .running else { return nil }
        let choice = usages[Int(core.devices[i].cohort)].choice
        let picked = core.streams(of: i).withStream(.continuation, at: &slots[i].stream) { choice.pick(&$0) }
        metrics.choices[ContinuationChoiceName.allCases.firstIndex(of: picked)!] += 1
        switch picked {
        case .continueHere:
            return .continueHere
        case .moveOn:
            core.devices[i].foregroundUntil = core.now
            core.note(d, "user moves on: the app leaves the foreground")
            core.scheduleSuspensionCheck(d, after: World<Logics>.suspensionAfterForeground)
            return .moveOn
        case .cancel:
            userLooks(d, core: &core)
            return .cancel
        }
    }

    /// A result or failure on screen: the user looks at it for a foreground session
    /// (**Assumption**: `World.foregroundSession`), then leaves.
    private mutating func userLooks(_ d: UInt32, core: inout WorldCore) {
        core.keepForeground(d, until: core.now + World<Logics>.foregroundSession)
    }

    /// `requestAuthorization` from "Move On & Notify" (seed `004`): a not-determined or
    /// provisional status prompts, and the user answers at once (**Assumption**) with
    /// "Allow" at the share of the cohort's `notificationPermission` weights that chose:
    /// authorized (and provisional) over authorized, provisional and denied; 0.5 when the
    /// cohort gives none of them (the defaults: 0.6 / 0.9, two thirds allow). A
    /// determined status answers at once with no prompt.
    private mutating func requestNotificationAuthorization(_ d: UInt32, core: inout WorldCore) {
        let i = Int(d)
        let before = core.devices[i].notificationCenter.authorization
        if before == .notDetermined || before == .provisional {
            var allow = 0.0, decided = 0.0
            for option in core.scenario.fleet[Int(core.devices[i].cohort)].settings.notificationPermission.options {
                switch option.value {
                case .authorized, .provisional: allow += option.weight; decided += option.weight
                case .denied: decided += option.weight
                case .notDetermined: break
                }
            }
            let allows = core.streams(of: i).withStream(.continuation, at: &slots[i].stream) { $0.chance(decided > 0 ? allow / decided : 0.5) }
            core.devices[i].notificationCenter.requestAuthorization(.full, userAllows: allows)
            core.note(d, "OS: notification permission prompt; the user \(allows ? "allows" : "declines")")
        }
        slots[i].authorizationAnswer = core.devices[i].notificationCenter.authorization
    }

    /// The completion notification: it must announce a result the app truly holds
    /// (ground truth), and its latency runs from the server's completion. Returns the
    /// notification for the notification centre, unless the permission suppresses it.
    private mutating func postAnalysisNotification(_ notification: LocalNotification, device d: UInt32,
                                                   core: inout WorldCore) -> HostRequest? {
        let i = Int(d)
        guard core.devices[i].permission.allowsPosting else {
            core.metrics.notificationsSuppressed += 1
            core.note(d) { c in "OS: notification not shown (permission \(c.devices[i].permission))" }
            return nil
        }
        observeAnalysisNotificationShown(i, core: core)
        let slot = slots[i]
        if slot.unseenRequest != 0 { metrics.completedToNotified.record((core.now - slot.completedAt).microseconds, at: core.now.microseconds) }
        metrics.notified += 1
        core.note(d, "OS: notification shown: analysis complete")
        let usage = core.cohorts[Int(core.devices[i].cohort)].usage
        if let delay = core.streams(of: i).withStream(.continuation, at: &slots[i].stream, {
            $0.chance(usage.notificationOpenProbability) ? usage.notificationOpenDelay.sampleDuration(&$0) : nil
        }) {
            core.schedule(.notificationTapped(device: d), after: delay)
        }
        return .notify(notification)
    }

    // MARK: - The process and the OS

    /// The app is in the background again after a foreground session: true when an
    /// analysis the user came back to (moved on, then opened the app) must hear it.
    func returnsToBackground(_ d: UInt32) -> Bool { states[Int(d)].isBackInApp }

    /// The app holds a `beginBackgroundTask` assertion (the OS does not suspend it).
    func holdsBackgroundTask(_ i: Int) -> Bool { slots[i].holdsBackgroundTask }

    /// The background time granted by `beginBackgroundTask` runs out: whether the
    /// expiration handler runs now. Back in the foreground (the user opened the app),
    /// background time is not consumed; it counts again from when the app leaves.
    mutating func backgroundTimeRunsOut(_ d: UInt32, core: inout WorldCore) -> Bool {
        let i = Int(d)
        guard slots[i].holdsBackgroundTask else { return false }
        let granted = usages[Int(core.devices[i].cohort)].backgroundTime
        if core.now < core.devices[i].foregroundUntil {
            core.armTimer(d, .backgroundTask, at: core.devices[i].foregroundUntil + granted)
            return false
        }
        core.note(d, "OS: background time runs out; expiration handler runs")
        return true
    }

    /// UserDefaults writes the state to disk.
    mutating func persist(_ i: Int) { durable.persisted(i) }

    /// Whether the result of analysis `unseen` is in what reached the disk (a terminated
    /// app gets it back from there; otherwise it is lost).
    @inline(__always) func resultOnDisk(_ i: Int, unseen: UInt32) -> Bool {
        durable.onDisk(i, current: states[i].stored).unseenResult?.request.rawValue == unseen
    }

    /// Abrupt termination: judge the result the app held (lost unless seen or on disk),
    /// drop the work in flight, and rebuild the logic from disk.
    mutating func terminate(_ d: UInt32, core: inout WorldCore) {
        let i = Int(d)
        let unseen = slots[i].unseenRequest
        if unseen != 0 {
            observeTerminatedHoldingResult(i, unseen: unseen, core: core)
            if !resultOnDisk(i, unseen: unseen) { slots[i].unseenRequest = 0 }
        }
        analysisEnds(i, "was still running when the app was terminated", core: core)
        let job = slots[i].job
        if job >= 0 {
            metrics.interruptedByTermination += 1
            slots[i].job = -1
            core.abandonRequest(job)
        }
        core.cancelTimer(d, .continuationOffer)
        core.cancelTimer(d, .continuationDeadline)
        core.cancelTimer(d, .backgroundTask)
        slots[i].holdsBackgroundTask = false
        states[i] = Logics.Continuation.State(persisted: durable.onDisk(i, current: states[i].stored))
        durable.persisted(i)
    }

    // MARK: - Network

    /// The analysis request went out as `job`.
    mutating func requestSent(_ d: UInt32, job: UInt32) { slots[Int(d)].job = Int32(job) }

    /// Request `job` of device `i` ended on the client side.
    mutating func requestEnded(_ i: Int, job: UInt32) {
        if slots[i].job == Int32(job) { slots[i].job = -1 }
    }

    /// The server's time for an analysis (its `endpoint`): the cohort's per-mode
    /// distribution, drawn from the device's stream, times `slowdown` while a
    /// `backendSlowdown` is in force.
    mutating func serviceTime(_ endpoint: Endpoint, device d: Int, slowdown: Double?, core: inout WorldCore) -> SimDuration {
        let usage = usages[Int(core.devices[d].cohort)]
        let hierarchical: Bool
        if case .analysis(.hierarchical) = endpoint { hierarchical = true } else { hierarchical = false }
        let base = core.streams(of: d).withStream(.continuation, at: &slots[d].stream) {
            (hierarchical ? usage.hierarchicalTime : usage.baselineTime).sampleDuration(&$0)
        }
        return slowdown.map { .fromSeconds(base.seconds * $0) } ?? base
    }

    /// A successful analysis reached the running app (ground truth for the oracle).
    mutating func resultArrived(_ i: Int, request: RequestID, answeredAt: SimTime) {
        slots[i].unseenRequest = request.rawValue
        slots[i].completedAt = answeredAt
    }
}

/// The name a cohort's `features` runs seed `004`'s background continuation by (``FeatureList/features``).
extension Feature {
    static var continuation: Feature { Feature("continuation", bit: 8) }
}

/// What the continuation declares whatever logic runs it: its endpoint (the table:
/// Features/Features.swift) and its report's keys and merge rules (ContinuationReport).
enum ContinuationFeature {
    /// The analysis endpoint (seed `004`): the client sets no timeout, only the logic's
    /// 180 s / 300 s deadline.
    static let endpoints = [EndpointRow(path: "/v1/homework/analyze", hashCode: 3, timesOut: false)]
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
        for name in names {
            switch name {
            case "continuation.inMemoryResult": insert(.inMemoryResult)
            case "continuation.deadlineIgnored": insert(.deadlineIgnored)
            case "continuation.secondAnalysis": insert(.secondAnalysis)
            case "continuation.offerAfter10ms": insert(.offerAfter10ms)
            case "continuation.noBackgroundTask": insert(.noBackgroundTask)
            case "continuation.neverAsksPermission": insert(.neverAsksPermission)
            case "continuation.permissionAnswerIgnored": insert(.permissionAnswerIgnored)
            case "continuation.resultNotCleared": insert(.resultNotCleared)
            default: break
            }
        }
    }
}

/// The continuation's own stream purpose (FNV-1a of "continuation", as Core/DeviceStreams
/// writes them out), kept per device in ``ContinuationSlot/stream``.
extension StreamPurpose {
    static var continuation: StreamPurpose { StreamPurpose(key: 0xA0DB_2A42_F253_1912) }
}
