/// What a scenario may name, and which of those this build can run yet.
/// A name that exists but is not built answers "not available yet" (exit 2), as
/// `docs/scenario.md` promises; a name that does not exist is an error.
public enum Catalog {
    /// Every variant name of `docs/scenario.md`, in its order, and whether it is built.
    public static let variants: [(name: String, available: Bool)] = [
        ("refresh.unguardedCompletion", true),
        ("refresh.noSynchronize", true),
        ("refresh.badgeOverwrite", true),
        ("refresh.cadenceOffByOne", true),
        ("refresh.localCalendarDays", true),
        ("refresh.ignoresRecentOpen", true),
        ("refresh.preferredIntervalMinutes", true),
        ("refresh.minimumIntervalMinutes", true),
        ("refresh.hardStopIgnored", true),
        ("refresh.ignoresSignOut", true),
        ("refresh.ignoresOffline", true),
        ("refresh.fullHistory", true),
        ("refresh.ignoresPermission", true),
        ("refresh.durationSinceLastRefresh", true),
        ("refresh.retryOnce", true),
        ("refresh.ignores401", true),
        ("refresh.alwaysFetchActive", true),
        ("refresh.ignoresActiveSession", true),
        ("stepSync.insertNotUpsert", true),
        ("stepSync.advanceCursorOnFailure", true),
        ("stepSync.ignoresLowBattery", true),
        ("stepSync.retryDelaysSeconds", true),
        ("stepSync.staleNoticeMinutes", true),
        ("stepSync.ignoresOffline", true),
        ("stepSync.intervalMinutes", true),
        ("stepSync.openSyncAfter48h", true),
        ("stepSync.backfillUnlimited", true),
        ("stepSync.localDayIgnoresDST", true),
        ("push.retryOn4xx", true),
        ("push.ignore410", true),
        ("push.ignoreQuietHours", true),
        ("push.quietHoursNoWrap", true),
        ("push.quietHoursUTC", true),
        ("push.normalLimitOffByOne", true),
        ("push.highLimitOffByOne", true),
        ("push.retryDelayNotAdvanced", true),
        ("push.ttlNormalHours", true),
        ("push.noHighEmailFallback", true),
        ("push.emailIgnoresSetting", true),
        ("push.lowPriorityAlert", true),
        ("push.badgeOffByOne", true),
        ("push.noBadgePushOnRead", true),
        ("push.releaseHeldIndividually", true),
        ("push.quietHoursHoldBlocking", true),
        ("push.ignoresOptOut", true),
        ("push.activityWindowSeconds", true),
        ("push.noEmailOnFailure", true),
        ("push.expireOnServerError", true),
        ("push.ignoresTokenRefresh", true),
        ("push.silentHighPriority", true),
        ("push.validationUsesInactiveAfter", true),
        ("push.purgeWithoutNotice", true),
        ("continuation.inMemoryResult", true),
        ("continuation.deadlineIgnored", true),
        ("continuation.secondAnalysis", true),
        ("continuation.offerAfter10ms", true),
        ("continuation.noBackgroundTask", true),
        ("continuation.neverAsksPermission", true),
        ("continuation.permissionAnswerIgnored", true),
        ("continuation.resultNotCleared", true),
    ]

    /// Platforms a cohort can use in this build.
    public static let availablePlatforms: [Platform] = [.ios, .android]

    /// Fault kinds of `docs/scenario.md` and whether they are built.
    public static let faultKinds: [(name: String, available: Bool)] = [
        ("backendOutage", true),
        ("backendSlowdown", true),
        ("networkOutage", true),
        ("networkLatency", true),
        ("pushProviderErrors", true),
        ("pushProviderOutage", true),
        ("clockSkew", true),
        ("timeZoneChange", true),
        ("appTermination", true),
        ("authExpiry", true),
        ("lowPowerMode", true),
    ]

    /// Network profiles and their defaults.
    public static let networkProfiles = ["urban", "rural", "commuter", "flaky"]
}
