/// The reference router's configuration is its spec.
public typealias PushConfiguration = PushSpec

/// Known bugs of the push pipeline (docs/scenario.md, "Variants"), switched by name. The
/// empty set is the correct pipeline.
public struct PushVariants: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// `push.retryOn4xx`: client errors (400, 403, 405, 413) are retried like 5xx.
    public static let retryOn4xx = PushVariants(rawValue: 1 << 0)
    /// `push.ignore410`: a 410 or 404 does not expire the token; it stays in the active list.
    public static let ignore410 = PushVariants(rawValue: 1 << 1)
    /// `push.ignoreQuietHours`: normal and high pushes are sent inside quiet hours.
    public static let ignoreQuietHours = PushVariants(rawValue: 1 << 2)
    /// `push.quietHoursNoWrap`: quiet hours across midnight (start later than end) are
    /// read like same-day ones, so 20:00-07:00 is never inside.
    public static let quietHoursNoWrap = PushVariants(rawValue: 1 << 3)
    /// `push.quietHoursUTC`: quiet hours are read on the UTC clock (the zone's offset dropped).
    public static let quietHoursUTC = PushVariants(rawValue: 1 << 4)
    /// `push.normalLimitOffByOne`: the daily limit compares with `<=`, so 6 normal pushes a day go out.
    public static let normalLimitOffByOne = PushVariants(rawValue: 1 << 5)
    /// `push.highLimitOffByOne`: the weekly limit compares with `<=`, so 11 high pushes a week go out.
    public static let highLimitOffByOne = PushVariants(rawValue: 1 << 6)
    /// `push.retryDelayNotAdvanced`: every retry of a 5xx or a timeout waits the first delay (1 s).
    public static let retryDelayNotAdvanced = PushVariants(rawValue: 1 << 7)
    /// `push.ttlNormalHours`: the normal TTL's number is read as hours (7 h, not 7 days).
    public static let ttlNormalHours = PushVariants(rawValue: 1 << 8)
    /// `push.noHighEmailFallback`: the 15-minute check of a high push is never started, so
    /// an undelivered one never falls back to email.
    public static let noHighEmailFallback = PushVariants(rawValue: 1 << 9)
    /// `push.emailIgnoresSetting`: the fallback emails whether or not the user enabled email.
    public static let emailIgnoresSetting = PushVariants(rawValue: 1 << 10)
    /// `push.lowPriorityAlert`: the low-priority check compares with `<`, so a low
    /// notification is routed like a normal one and sent as a visible alert.
    public static let lowPriorityAlert = PushVariants(rawValue: 1 << 24)
    /// `push.badgeOffByOne`: an alert's badge is the unread count plus one.
    public static let badgeOffByOne = PushVariants(rawValue: 1 << 25)
    /// `push.noBadgePushOnRead`: reading notifications lowers the unread count without a badge push.
    public static let noBadgePushOnRead = PushVariants(rawValue: 1 << 26)
    /// `push.releaseHeldIndividually`: normal pushes held through quiet hours are queued
    /// like high ones and released one by one at their end, not batched into a summary.
    public static let releaseHeldIndividually = PushVariants(rawValue: 1 << 27)
    /// `push.quietHoursHoldBlocking`: the quiet-hours check compares with `<=`, so blocking
    /// notifications are held too.
    public static let quietHoursHoldBlocking = PushVariants(rawValue: 1 << 28)
    /// `push.ignoresOptOut`: the category opt-out check is dropped, so a category the user
    /// turned off is pushed anyway.
    public static let ignoresOptOut = PushVariants(rawValue: 1 << 16)
    /// `push.activityWindowSeconds`: the 5-minute activity window is read as 5 seconds, so
    /// a normal push goes out to a user who opened the app a minute ago.
    public static let activityWindowSeconds = PushVariants(rawValue: 1 << 17)
    /// `push.noEmailOnFailure`: a notification whose every device failed gets no email.
    public static let noEmailOnFailure = PushVariants(rawValue: 1 << 18)
    /// `push.expireOnServerError`: any send whose retries all failed softly (5xx, 429,
    /// timeout) expires its token, not only the weekly validation push.
    public static let expireOnServerError = PushVariants(rawValue: 1 << 19)
    /// `push.ignoresTokenRefresh`: a rotated FCM token (`onTokenRefresh`) does not replace
    /// the registered one, so pushes keep going to the old token.
    public static let ignoresTokenRefresh = PushVariants(rawValue: 1 << 20)
    /// `push.silentHighPriority`: silent pushes are sent at the high provider priority
    /// (`apns-priority` 10), which iOS refuses for background pushes.
    public static let silentHighPriority = PushVariants(rawValue: 1 << 21)
    /// `push.validationUsesInactiveAfter`: the weekly validation compares a token's last
    /// validation with the 90-day inactivity interval instead of 7 days.
    public static let validationUsesInactiveAfter = PushVariants(rawValue: 1 << 22)
    /// `push.purgeWithoutNotice`: a device expired for 180 days is purged without the email first.
    public static let purgeWithoutNotice = PushVariants(rawValue: 1 << 23)

    /// Every variant with its scenario name, in a fixed order.
    public static let named: [(name: String, variant: PushVariants)] = [
        ("push.retryOn4xx", .retryOn4xx),
        ("push.ignore410", .ignore410),
        ("push.ignoreQuietHours", .ignoreQuietHours),
        ("push.quietHoursNoWrap", .quietHoursNoWrap),
        ("push.quietHoursUTC", .quietHoursUTC),
        ("push.normalLimitOffByOne", .normalLimitOffByOne),
        ("push.highLimitOffByOne", .highLimitOffByOne),
        ("push.retryDelayNotAdvanced", .retryDelayNotAdvanced),
        ("push.ttlNormalHours", .ttlNormalHours),
        ("push.noHighEmailFallback", .noHighEmailFallback),
        ("push.emailIgnoresSetting", .emailIgnoresSetting),
        ("push.lowPriorityAlert", .lowPriorityAlert),
        ("push.badgeOffByOne", .badgeOffByOne),
        ("push.noBadgePushOnRead", .noBadgePushOnRead),
        ("push.releaseHeldIndividually", .releaseHeldIndividually),
        ("push.quietHoursHoldBlocking", .quietHoursHoldBlocking),
        ("push.ignoresOptOut", .ignoresOptOut),
        ("push.activityWindowSeconds", .activityWindowSeconds),
        ("push.noEmailOnFailure", .noEmailOnFailure),
        ("push.expireOnServerError", .expireOnServerError),
        ("push.ignoresTokenRefresh", .ignoresTokenRefresh),
        ("push.silentHighPriority", .silentHighPriority),
        ("push.validationUsesInactiveAfter", .validationUsesInactiveAfter),
        ("push.purgeWithoutNotice", .purgeWithoutNotice),
    ]

    /// The `push.*` names among a scenario's `logic.variants`; other features' names are skipped.
    public init(names: [String]) {
        self = []
        for (name, variant) in PushVariants.named where names.contains(name) { insert(variant) }
    }
}
