import SimKernel
import AppLogicContract
import Scenario

/// What the judges read of the logic (docs/architecture.md, "The spec the judges
/// read"): the specs the world's logic set declares, in the simulation's units, and the
/// rules switched off with their reasons. Set once when the world is built; the
/// checkers read the numbers here, never the scenario's `logic` section nor the
/// reference logic's configuration.
struct JudgedSpecs {
    /// Each feature's spec, shaped as its section of the scenario's `logic` (a known bug
    /// changes what the logic does, not what it declares), held by value so that a
    /// check reads a stored field, never a section looked up by type.
    var refresh = RefreshConfig.defaults
    var stepSync = StepSyncConfig.defaults
    var continuation = ContinuationConfig.defaults
    var push = PushLogicConfig.defaults
    /// Where `refreshRequestDateWrong` accepts the next request's `earliestBeginDate`:
    /// now + `logic.refresh.preferredInterval` + this range (``RefreshSpec/earliestBeginJitter``).
    var refreshJitter = SimDuration.zero ... SimDuration.zero

    init() {}

    init(refresh: RefreshSpec, stepSync: StepSyncSpec, continuation: ContinuationSpec, push: PushSpec) {
        func d(_ i: Interval) -> SimDuration { SimDuration(microseconds: i.microseconds) }
        self.refresh.preferredInterval = d(refresh.preferredInterval)
        self.refresh.minimumInterval = d(refresh.minimumInterval)
        self.refresh.testCadence = d(refresh.testCadence)
        self.refresh.recentOpenSuppression = d(refresh.recentOpenSuppression)
        self.refresh.hardStop = d(refresh.hardStop)
        refreshJitter = d(refresh.earliestBeginJitter.lowerBound) ... d(refresh.earliestBeginJitter.upperBound)
        self.stepSync.syncInterval = d(stepSync.syncInterval)
        self.stepSync.backfillLimit = d(stepSync.backfillLimit)
        self.stepSync.retryDelays = stepSync.retryDelays.map(d)
        self.stepSync.openSyncAge = d(stepSync.openSyncAge)
        self.stepSync.staleNotificationAge = d(stepSync.staleNotificationAge)
        self.stepSync.lowBatteryPercent = stepSync.lowBatteryPercent
        self.continuation.offerAfter = d(continuation.offerAfter)
        self.continuation.hierarchicalTimeout = d(continuation.hierarchicalTimeout)
        self.continuation.baselineTimeout = d(continuation.baselineTimeout)
        self.push.activityWindow = d(push.activityWindow)
        self.push.highEscalationDelay = d(push.highEscalationDelay)
        self.push.highEmailDelay = d(push.highEmailDelay)
        self.push.normalPerDay = push.normalPerDay
        self.push.highPerWeek = push.highPerWeek
        self.push.retryDelays = push.retryDelays.map(d)
        self.push.providerTimeout = d(push.providerTimeout)
        self.push.rateLimitBackoff = d(push.rateLimitBackoff)
        self.push.ttlHigh = d(push.ttlHigh)
        self.push.ttlNormal = d(push.ttlNormal)
        self.push.ttlLow = d(push.ttlLow)
        self.push.validationInterval = d(push.validationInterval)
        self.push.inactiveAfter = d(push.inactiveAfter)
        self.push.purgeAfter = d(push.purgeAfter)
        self.push.maintenanceInterval = d(push.maintenanceInterval)
        self.push.titleLimit = push.titleLimit
        self.push.bodyLimit = push.bodyLimit
        self.push.apnsPayloadLimit = push.apnsPayloadLimit
        self.push.fcmPayloadLimit = push.fcmPayloadLimit
    }

    /// The specs `logics` declares.
    init<Logics: LogicSet>(_ logics: Logics) {
        self.init(refresh: logics.refresh.spec, stepSync: logics.stepSync.spec, continuation: logics.continuation.spec, push: logics.push.spec)
    }
}
