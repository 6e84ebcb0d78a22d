import SimKernel
import AppLogicContract
import Scenario

/// What the judges read of the logic (docs/architecture.md, "The spec the judges
/// read"): the specs the world's logic set declares, in the simulation's units, and the
/// rules switched off with their reasons. Set once when the world is built; the
/// checkers read the numbers here, never the scenario's `logic` section nor the
/// reference logic's configuration.
struct JudgedSpecs {
    /// Each feature's spec, shaped as the scenario's `logic` section (its `variants`
    /// empty: a known bug changes what the logic does, not what it declares).
    var logic = LogicConfig.defaults
    /// Where `refreshRequestDateWrong` accepts the next request's `earliestBeginDate`:
    /// now + `logic.refresh.preferredInterval` + this range (``RefreshSpec/earliestBeginJitter``).
    var refreshJitter = SimDuration.zero ... SimDuration.zero

    init() {}

    init(refresh: RefreshSpec, stepSync: StepSyncSpec, continuation: ContinuationSpec, push: PushSpec) {
        func d(_ i: Interval) -> SimDuration { SimDuration(microseconds: i.microseconds) }
        logic.refresh.preferredInterval = d(refresh.preferredInterval)
        logic.refresh.minimumInterval = d(refresh.minimumInterval)
        logic.refresh.testCadence = d(refresh.testCadence)
        logic.refresh.recentOpenSuppression = d(refresh.recentOpenSuppression)
        logic.refresh.hardStop = d(refresh.hardStop)
        refreshJitter = d(refresh.earliestBeginJitter.lowerBound) ... d(refresh.earliestBeginJitter.upperBound)
        logic.stepSync.syncInterval = d(stepSync.syncInterval)
        logic.stepSync.backfillLimit = d(stepSync.backfillLimit)
        logic.stepSync.retryDelays = stepSync.retryDelays.map(d)
        logic.stepSync.openSyncAge = d(stepSync.openSyncAge)
        logic.stepSync.staleNotificationAge = d(stepSync.staleNotificationAge)
        logic.stepSync.lowBatteryPercent = stepSync.lowBatteryPercent
        logic.continuation.offerAfter = d(continuation.offerAfter)
        logic.continuation.hierarchicalTimeout = d(continuation.hierarchicalTimeout)
        logic.continuation.baselineTimeout = d(continuation.baselineTimeout)
        logic.push.activityWindow = d(push.activityWindow)
        logic.push.highEscalationDelay = d(push.highEscalationDelay)
        logic.push.highEmailDelay = d(push.highEmailDelay)
        logic.push.normalPerDay = push.normalPerDay
        logic.push.highPerWeek = push.highPerWeek
        logic.push.retryDelays = push.retryDelays.map(d)
        logic.push.providerTimeout = d(push.providerTimeout)
        logic.push.rateLimitBackoff = d(push.rateLimitBackoff)
        logic.push.ttlHigh = d(push.ttlHigh)
        logic.push.ttlNormal = d(push.ttlNormal)
        logic.push.ttlLow = d(push.ttlLow)
        logic.push.validationInterval = d(push.validationInterval)
        logic.push.inactiveAfter = d(push.inactiveAfter)
        logic.push.purgeAfter = d(push.purgeAfter)
        logic.push.maintenanceInterval = d(push.maintenanceInterval)
        logic.push.titleLimit = push.titleLimit
        logic.push.bodyLimit = push.bodyLimit
        logic.push.apnsPayloadLimit = push.apnsPayloadLimit
        logic.push.fcmPayloadLimit = push.fcmPayloadLimit
    }

    /// The specs `logics` declares.
    init<Logics: LogicSet>(_ logics: Logics) {
        self.init(refresh: logics.refresh.spec, stepSync: logics.stepSync.spec, continuation: logics.continuation.spec, push: logics.push.spec)
    }
}
