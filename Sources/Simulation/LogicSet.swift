import AppLogicContract
import AppLogic
import Scenario

/// The app logic a world runs: one implementation per feature of the contract
/// (AppLogicContract; docs/architecture.md, "An app's own logic"). ``World`` is generic
/// over it and specialised for it: the event loop calls each logic directly, through no
/// existential and no witness table.
public protocol LogicSet {
    associatedtype Refresh: RefreshLogicProtocol
    associatedtype StepSync: StepSyncLogicProtocol
    associatedtype Continuation: ContinuationLogicProtocol
    associatedtype Badge: BadgeLogicProtocol
    associatedtype Push: PushLogicProtocol
    /// The nightly diagnostics upload (opt-in); the reference by default, so a set
    /// written before it compiles unchanged.
    associatedtype Diagnostics: DiagnosticsLogicProtocol = DiagnosticsLogic

    /// The known-bug variant names a scenario's `logic.variants` may plant in this set
    /// (``ScenarioDecoder/load(path:variants:)`` refuses any other); empty when it has none.
    static var variantNames: [String] { get }

    /// The violation kind that names each known-bug variant's bug, by variant name:
    /// `explore` counts a seed with a violation of that kind as catching the variant.
    /// None by default.
    static var variantKinds: [String: String] { get }

    /// The judges this set's specs have no rule for, switched off with the reason the
    /// report prints (docs/architecture.md, "A judge switched off"); none by default.
    /// A scenario's `judges.off` adds to them.
    static var judgesOff: [JudgeOff] { get }

    /// The five logics for a scenario's `logic` section: its numbers (the specs the
    /// oracle then judges by: ``RefreshLogicProtocol/spec``...) and the known-bug
    /// variants it names. A set with specs of its own may ignore the numbers.
    init(_ logic: LogicConfig)

    var refresh: Refresh { get }
    var stepSync: StepSync { get }
    var continuation: Continuation { get }
    var badge: Badge { get }
    var push: Push { get }
    var diagnostics: Diagnostics { get }
}

extension LogicSet where Diagnostics == DiagnosticsLogic {
    /// The reference diagnostics upload with its spec (24 h, external power).
    public var diagnostics: DiagnosticsLogic { DiagnosticsLogic() }
}

extension LogicSet {
    public static var judgesOff: [JudgeOff] { [] }
    public static var variantKinds: [String: String] { [:] }
}

/// FleetSim's reference logic (AppLogic), the default: each spec is the scenario's
/// `logic` section, and its known bugs are the 60 variants of docs/scenario.md.
public struct ReferenceLogics: LogicSet {
    public var refresh: RefreshLogic
    public var stepSync: StepSyncLogic
    public var continuation: ContinuationLogic
    public var badge: BadgeManager
    public var push: PushRouter

    /// Every variant of docs/scenario.md ("Variants"), in its order.
    public static var variantNames: [String] { variants.map(\.key) }

    public static var variantKinds: [String: String] { Dictionary(uniqueKeysWithValues: variants.map { ($0.key, $0.value) }) }

    /// AppLogic's known-bug variants, in docs/scenario.md's order, each with the kind it
    /// is caught by in its shipped scenario under scenarios/races/.
    static let variants: KeyValuePairs<String, String> = [
        "refresh.unguardedCompletion": "taskCompletedTwice",
        "refresh.noSynchronize": "notifiedTwiceInWindow",
        "refresh.badgeOverwrite": "badgeDiffersFromUnread",
        "refresh.cadenceOffByOne": "availableTestNotNotified",
        "refresh.localCalendarDays": "notifiedBeforeAvailable",
        "refresh.ignoresRecentOpen": "notifiedDespiteRecentOpen",
        "refresh.preferredIntervalMinutes": "refreshRequestDateWrong",
        "refresh.minimumIntervalMinutes": "refreshedTooSoon",
        "refresh.hardStopIgnored": "refreshPastHardStop",
        "refresh.ignoresSignOut": "refreshWhileSignedOut",
        "refresh.ignoresOffline": "refreshRequestWhileOffline",
        "refresh.fullHistory": "historyNotLimitOne",
        "refresh.ignoresPermission": "postedWithoutPermission",
        "refresh.durationSinceLastRefresh": "refreshAnalyticsWrong",
        "refresh.retryOnce": "refreshRequestRetried",
        "refresh.ignores401": "unauthorizedNotSignedOut",
        "refresh.alwaysFetchActive": "activeSessionNotNeeded",
        "refresh.ignoresActiveSession": "notifiedDuringTest",
        "stepSync.insertNotUpsert": "duplicateStepRows",
        "stepSync.advanceCursorOnFailure": "stepsNeverSynced",
        "stepSync.ignoresLowBattery": "syncedOnLowBattery",
        "stepSync.retryDelaysSeconds": "stepRetryScheduleWrong",
        "stepSync.staleNoticeMinutes": "staleNoticeWrong",
        "stepSync.ignoresOffline": "stepSyncWhenForbidden",
        "stepSync.intervalMinutes": "stepSyncTooSoon",
        "stepSync.openSyncAfter48h": "openSyncMissed",
        "stepSync.backfillUnlimited": "stepsBackfilledTooFar",
        "stepSync.localDayIgnoresDST": "stepsNeverSynced",
        "push.retryOn4xx": "pushClientErrorRetried",
        "push.ignore410": "pushSentToUnregisteredToken",
        "push.ignoreQuietHours": "pushDisplayedInQuietHours",
        "push.quietHoursNoWrap": "pushDisplayedInQuietHours",
        "push.quietHoursUTC": "pushHeldOutsideQuietHours",
        "push.normalLimitOffByOne": "normalDailyLimitExceeded",
        "push.highLimitOffByOne": "highWeeklyLimitExceeded",
        "push.retryDelayNotAdvanced": "pushRetryScheduleWrong",
        "push.ttlNormalHours": "pushExpirationWrong",
        "push.noHighEmailFallback": "highEmailFallbackWrong",
        "push.emailIgnoresSetting": "emailWithoutConsent",
        "push.lowPriorityAlert": "lowPriorityAlerted",
        "push.badgeOffByOne": "pushBadgeCountWrong",
        "push.noBadgePushOnRead": "unreadChangeNotPushed",
        "push.releaseHeldIndividually": "normalNotBatched",
        "push.quietHoursHoldBlocking": "blockingDelayed",
        "push.ignoresOptOut": "pushToOptedOutCategory",
        "push.activityWindowSeconds": "normalPushWhileActive",
        "push.noEmailOnFailure": "failedPushNotEmailed",
        "push.expireOnServerError": "tokenExpiredWithoutCause",
        "push.ignoresTokenRefresh": "pushSentToReplacedToken",
        "push.silentHighPriority": "providerPriorityWrong",
        "push.validationUsesInactiveAfter": "tokenValidationLate",
        "push.purgeWithoutNotice": "registryCleanupWrong",
        "continuation.inMemoryResult": "continuationResultLost",
        "continuation.deadlineIgnored": "continuationPastDeadline",
        "continuation.secondAnalysis": "analysisStartedTwice",
        "continuation.offerAfter10ms": "offerTimingWrong",
        "continuation.noBackgroundTask": "moveOnWithoutBackgroundTask",
        "continuation.neverAsksPermission": "permissionNotRequested",
        "continuation.permissionAnswerIgnored": "continuationNotNotified",
        "continuation.resultNotCleared": "continuationResultShownWrong",
    ]

    public init(_ logic: LogicConfig) {
        refresh = RefreshLogic(config: logic.refresh.configuration, variants: RefreshVariants(names: logic.variants))
        stepSync = StepSyncLogic(config: logic.stepSync.configuration, variants: StepSyncVariants(names: logic.variants))
        continuation = ContinuationLogic(config: logic.continuation.configuration, variants: ContinuationVariants(names: logic.variants))
        badge = BadgeManager()
        push = PushRouter(config: logic.push.configuration, variants: PushVariants(names: logic.variants))
    }
}

/// The world of the reference logic, which the `fleetsim` commands run.
public typealias ReferenceWorld = World<ReferenceLogics>
