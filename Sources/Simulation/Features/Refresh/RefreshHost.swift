import SimKernel
import AppLogic
import Platform
import Backend
import Scenario

/// The background refresh (seeds `000`, `002`), hosted (docs/architecture.md): the
/// logic, each device's state and what of it reached the disk, the request in flight,
/// the effect buffer, and its backend: the tests' ground truth, which its endpoints
/// answer from. The OS's side of the task (launch, completion, energy) is
/// the world's (World+Refresh), reached through ``HostRequest``s.
struct RefreshHost<Logics: LogicSet>: FeatureHost {
    let logic: Logics.Refresh
    /// The reused buffer the logic writes its effects into.
    var effects: [RefreshEffect] = []
    /// Per device (indexed by the dense device id):
    var states: [Logics.Refresh.State]
    /// What reached the disk (UserDefaults), where it differs from `states`' copy.
    var durable = OnDisk<Logics.Refresh.State.Stored>()
    /// The request in flight and the test windows the latencies counted.
    var slots: [RefreshSlot]
    /// What the refresh measures (Features/Refresh/RefreshReport.swift reports it).
    var metrics: RefreshMetrics
    /// The devices one of whose refreshes cost more than 1 % of the battery's capacity
    /// (World+Refresh): the report counts the devices, not the refreshes.
    var overBudget: DeviceBits
    /// The backend's ground truth of the tests, per user (the dense device id): when the
    /// next one opens, whether one is in progress. The server answers from it, the
    /// users take the tests, the oracle reads it.
    var truth: TestAvailabilityTruth

    /// Memory of one device's entries in the arrays above.
    static var bytesPerDevice: Int {
        MemoryLayout<Logics.Refresh.State>.stride + MemoryLayout<RefreshSlot>.stride
    }

    /// - Parameters:
    ///   - lastCompleted: each user's last test before the run (the fleet's draw).
    ///   - capacities: each cohort's battery capacity (mAh).
    init(scenario: Scenario, logic: Logics.Refresh, lastCompleted: [SimTime], capacities: [Double]) {
        let n = lastCompleted.count
        self.logic = logic
        truth = TestAvailabilityTruth(cadence: scenario.logic.refresh.testCadence, lastCompleted: lastCompleted)
        states = Array(hugePagesRepeating: Logics.Refresh.State(), count: n)
        slots = Array(hugePagesRepeating: RefreshSlot(), count: n)
        metrics = RefreshMetrics(capacities: capacities, duration: scenario.duration)
        overBudget = DeviceBits(count: n)
        effects.reserveCapacity(16)
    }

    static var traceName: String { "logic" }

    @inline(__always) static func lend<R>(_ world: inout World<Logics>, _ body: (inout RefreshHost, inout WorldCore) -> R) -> R {
        body(&world.features.refresh, &world.core)
    }

    // MARK: - Deliver an input, execute its effects (World.deliver)

    /// The logic handles `input` with the device's clocks, into ``effects``.
    mutating func handle(_ d: UInt32, _ input: RefreshInput, core: inout WorldCore) {
        let i = Int(d)
        let before = states[i].stored
        logic.handle(input, state: &states[i], now: core.deviceTime(i, at: core.now), into: &effects)
        durable.changed(i, from: before, to: states[i].stored)
    }

    /// Carries out one effect; returns what only the world can do.
    mutating func execute(_ effect: RefreshEffect, device d: UInt32, core: inout WorldCore) -> HostRequest? {
        let i = Int(d)
        switch effect {
        case .scheduleRefresh(let earliest):
            core.observeRefreshSubmitted(i, earliestWall: earliest.unixMicroseconds)
            return .submitTask(.refresh, earliestBegin: core.devices[i].clock.trueTime(ofWall: earliest.unixMicroseconds, startUnixSeconds: core.startUnixSeconds))
        case .cancelScheduledRefresh:
            return .cancelTask(.refresh)
        case .httpRequest(let id, let endpoint):
            switch endpoint {
            case .testHistory(let limit): core.observeHistoryRequested(i, limit: limit)
            case .activeSession: core.observeActiveSessionRequested(i)
            default: break
            }
            return .send(id, endpoint, .refresh)
        case .cancelRequests:
            core.cancelRequest(slots[i].job)
        case .startHardStopTimer(let after):
            core.armTimer(d, .hardStop, after: SimDuration(microseconds: after.microseconds))
        case .cancelHardStopTimer:
            core.cancelTimer(d, .hardStop)
        case .completeTask(let success):
            return .completeTask(success: success)
        case .postNotification(let notification):
            core.observeRefreshPosts(i)
            return .postNotification(notification)
        case .store, .storeTime:
            core.keyValueWritten(d)
        case .synchronize:
            return .persist(how: "synchronized")
        case .signOut:
            core.devices[i].signedIn = false
        case .analytics(let event):
            if case .refreshCompleted(_, let duration) = event { core.observeRefreshCompletedEvent(i, duration: duration.microseconds) }
            metrics.analytics[AnalyticsCounter.index(of: event)] += 1
        }
        return nil
    }

    // MARK: - The process and the network

    /// UserDefaults writes the state to disk.
    mutating func persist(_ i: Int) { durable.persisted(i) }

    /// Abrupt termination: the logic is rebuilt from disk, its hard stop cancelled, and
    /// nobody waits for its request any more (no timeout; its radio cost so far is the
    /// app's outside any operation, never a later task's); the server side runs its course.
    mutating func terminate(_ d: UInt32, core: inout WorldCore) {
        let i = Int(d)
        states[i] = Logics.Refresh.State(persisted: durable.onDisk(i, current: states[i].stored))
        durable.persisted(i)
        core.cancelTimer(d, .hardStop)
        let job = slots[i].job
        slots[i].job = -1
        core.abandonRequest(job)
    }

    /// The request went out as `job`.
    mutating func requestSent(_ d: UInt32, job: UInt32) { slots[Int(d)].job = Int32(job) }

    /// Request `job` of device `i` ended on the client side.
    mutating func requestEnded(_ i: Int, job: UInt32) {
        if slots[i].job == Int32(job) { slots[i].job = -1 }
    }

    /// The server's answer to a test-history or active-session request of `user`, from
    /// the tests' ground truth now; a history answer notes the window truly open then.
    mutating func serve(_ job: UInt32, user: Int, serverTime: Instant, core: inout WorldCore) -> HTTPResult {
        let j = Int(job), now = core.now
        if case .activeSession = core.jobs[j].endpoint {
            return .ok(.activeSession(inProgress: truth.inProgress(user, at: now), serverTime: serverTime))
        }
        let completed = truth.lastCompletedAt(user)
        core.jobs[j].openWindow = truth.isAvailable(user, at: now) ? truth.window(user) : RefreshSlot.noWindow
        return .ok(.testHistory(latestCompletedAt: Instant(unixMicroseconds: core.startUnixSeconds * 1_000_000 + completed.microseconds), serverTime: serverTime))
    }

    /// Starts loading what answering `endpoint` of `user` reads of the truth (a hint).
    @inline(__always) func prefetchServing(_ endpoint: Endpoint, user: Int) {
        if case .activeSession = endpoint { truth.prefetch(user: user, history: false) } else { truth.prefetch(user: user, history: true) }
    }

    // MARK: - The latencies' windows

    /// The user sees the available test of `window` at an open: true the first time
    /// (`testAvailableToSeen` counts each window once).
    mutating func testSeen(_ i: Int, window: UInt32) -> Bool {
        guard slots[i].seenWindow != window else { return false }
        slots[i].seenWindow = window
        return true
    }

    /// A test-available notification of `window` is shown: true for the window's first
    /// (`testAvailableToNotified` counts each window once).
    mutating func testNotified(_ i: Int, window: UInt32) -> Bool {
        guard slots[i].notifiedWindow != window else { return false }
        slots[i].notifiedWindow = window
        return true
    }
}

/// The name a cohort's `features` runs seed `000`'s background refresh by (``FeatureList/features``).
extension Feature {
    static var refresh: Feature { Feature("refresh", bit: 1) }
}

/// What the refresh declares whatever logic runs it: its endpoints (the table:
/// Features/Features.swift) and its report's keys and merge rules (RefreshReport).
enum RefreshFeature {
    /// The test history and the active session (seed `000`).
    static let endpoints = [EndpointRow(path: "/v1/test/history", hashCode: 1), EndpointRow(path: "/v1/test/active", hashCode: 2)]

    /// `endpoint`'s row in ``endpoints``.
    @inline(__always) static func endpointRow(_ endpoint: Endpoint) -> Int {
        if case .activeSession = endpoint { return 1 }
        return 0
    }
}

/// One device's refresh bookkeeping beside the logic's state: 12 bytes, one line with
/// its neighbours, read by an open, a launch and every response (Core/Prefetch).
struct RefreshSlot {
    /// No window (a window is named by its number in ``TestAvailabilityTruth/window(_:)``).
    static let noWindow = UInt32.max
    /// The job of the request in flight, or -1.
    var job: Int32 = -1
    /// The window the user last saw available at an open.
    var seenWindow = RefreshSlot.noWindow
    /// The window a test-available notification was last shown for (ground truth the
    /// oracle reads too: Oracle/RefreshChecker).
    var notifiedWindow = RefreshSlot.noWindow
}

extension RefreshConfig {
    var configuration: RefreshConfiguration {
        var c = RefreshConfiguration()
        c.preferredInterval = Interval(microseconds: preferredInterval.microseconds)
        c.minimumInterval = Interval(microseconds: minimumInterval.microseconds)
        c.testCadence = Interval(microseconds: testCadence.microseconds)
        c.recentOpenSuppression = Interval(microseconds: recentOpenSuppression.microseconds)
        c.hardStop = Interval(microseconds: hardStop.microseconds)
        return c
    }
}

extension RefreshVariants {
    /// The `refresh.*` names of a scenario's `logic.variants`.
    init(names: [String]) {
        self = []
        for name in names {
            switch name {
            case "refresh.unguardedCompletion": insert(.unguardedCompletion)
            case "refresh.noSynchronize": insert(.noSynchronize)
            case "refresh.badgeOverwrite": insert(.badgeOverwrite)
            case "refresh.cadenceOffByOne": insert(.cadenceOffByOne)
            case "refresh.localCalendarDays": insert(.localCalendarDays)
            case "refresh.ignoresRecentOpen": insert(.ignoresRecentOpen)
            case "refresh.preferredIntervalMinutes": insert(.preferredIntervalMinutes)
            case "refresh.minimumIntervalMinutes": insert(.minimumIntervalMinutes)
            case "refresh.hardStopIgnored": insert(.hardStopIgnored)
            case "refresh.ignoresSignOut": insert(.ignoresSignOut)
            case "refresh.ignoresOffline": insert(.ignoresOffline)
            case "refresh.fullHistory": insert(.fullHistory)
            case "refresh.ignoresPermission": insert(.ignoresPermission)
            case "refresh.durationSinceLastRefresh": insert(.durationSinceLastRefresh)
            case "refresh.retryOnce": insert(.retryOnce)
            case "refresh.ignores401": insert(.ignores401)
            case "refresh.alwaysFetchActive": insert(.alwaysFetchActive)
            case "refresh.ignoresActiveSession": insert(.ignoresActiveSession)
            default: break
            }
        }
    }
}
