/// The two analysis modes of seed `004` ("Integration with Parsing Modes").
public enum AnalysisMode: String, Hashable, Sendable, CaseIterable {
    /// More accurate, slower: average 15-30 s, 5-minute timeout.
    case hierarchical
    /// Faster: average 5-15 s, 3-minute timeout.
    case baseline
}

/// Seed `004`'s numbers; each is overridable by a scenario's `logic.continuation`.
public struct ContinuationConfiguration: Hashable, Sendable {
    /// The background option is offered when the request is still running this long
    /// after it started: 10 s ("10-Second Detection").
    public var offerAfter: Interval = .seconds(10)
    /// Timeout of a hierarchical request: 300 s ("Timeout safety: 300 seconds").
    public var hierarchicalTimeout: Interval = .seconds(300)
    /// Timeout of a baseline request: 180 s ("Timeout safety: 180 seconds").
    public var baselineTimeout: Interval = .seconds(180)
    public init() {}

    public func timeout(_ mode: AnalysisMode) -> Interval {
        mode == .hierarchical ? hierarchicalTimeout : baselineTimeout
    }
}

/// Known bugs of seed `004` as switchable deviations. The empty set is the fixed logic.
public struct ContinuationVariants: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Seed `004`, "Known Limitations" 2: the result of a request continued in the
    /// background lives only in memory; a termination before the user opens the app loses it.
    public static let inMemoryResult = ContinuationVariants(rawValue: 1 << 0)
    /// The mode's timeout timer is never started: an analysis the server does not answer
    /// waits for ever ("a deadline ignored").
    public static let deadlineIgnored = ContinuationVariants(rawValue: 1 << 1)
    /// A start while an analysis runs is not ignored: the new one replaces it, and the
    /// running request's result is orphaned.
    public static let secondAnalysis = ContinuationVariants(rawValue: 1 << 2)
    /// The offer timer is armed for milliseconds, not seconds (`Task.sleep(nanoseconds:
    /// 10_000_000)`, one group of zeros short): the alert comes after 10 ms.
    public static let offerAfter10ms = ContinuationVariants(rawValue: 1 << 3)
    /// "Move On & Notify" asks the OS for no background time (the seed's `Task.detached`
    /// alone): the analysis is suspended with the app.
    public static let noBackgroundTask = ContinuationVariants(rawValue: 1 << 4)
    /// "Move On & Notify" never asks for notification permission.
    public static let neverAsksPermission = ContinuationVariants(rawValue: 1 << 5)
    /// The answer to the permission prompt is not stored: the analysis keeps the status
    /// it started with, so a user who just allowed notifications gets none.
    public static let permissionAnswerIgnored = ContinuationVariants(rawValue: 1 << 6)
    /// A stored result is shown at an open but not cleared: every later open shows it again.
    public static let resultNotCleared = ContinuationVariants(rawValue: 1 << 7)
}

/// The three buttons of the "This might take a while..." alert (seed `004`).
public enum ContinuationChoice: String, Hashable, Sendable, CaseIterable {
    /// "Continue Here": wait on the screen.
    case continueHere
    /// "Move On & Notify": leave; a notification comes when the result is ready.
    case moveOn
    /// "Cancel": stop the request.
    case cancel
}

/// The two timers the logic arms.
public enum ContinuationTimer: UInt8, Hashable, Sendable {
    /// Fires at `offerAfter` after the start.
    case offer
    /// Fires at the mode's timeout after the start.
    case deadline
}

/// A finished analysis, as the app keeps it: which request it answers.
public struct AnalysisResult: Hashable, Sendable {
    public var request: RequestID
    public var mode: AnalysisMode
    public init(request: RequestID, mode: AnalysisMode) { self.request = request; self.mode = mode }
}

public enum ContinuationInput: Hashable, Sendable {
    /// The user taps "Analyze with AI" in the foreground.
    case analysisRequested(AnalysisMode, notifications: NotificationAuthorization)
    case timerFired(ContinuationTimer)
    /// The user answered the background-option alert.
    case userChose(ContinuationChoice)
    case httpResponse(RequestID, HTTPResult)
    /// The expiration handler of `beginBackgroundTask(expirationHandler:)`: the
    /// background time the OS granted is running out.
    case backgroundTimeExpiring
    /// The user brought the app to the foreground.
    case appOpened
    /// The app left the foreground (`applicationDidEnterBackground`).
    case appEnteredBackground
    /// The answer to ``ContinuationEffect/requestNotificationAuthorization``: the status
    /// after the prompt (or at once, with no prompt, when already determined).
    case notificationAuthorizationAnswered(NotificationAuthorization)
}

public enum ContinuationEffect: Hashable, Sendable {
    case httpRequest(RequestID, Endpoint)
    /// Cancel the analysis request in flight; it answers `.failed(.cancelled)`.
    case cancelRequest
    case startTimer(ContinuationTimer, after: Interval)
    case cancelTimer(ContinuationTimer)
    /// Show the three-button alert.
    case offerBackground
    /// `UIApplication.beginBackgroundTask(expirationHandler:)`.
    case beginBackgroundTask
    /// `UNUserNotificationCenter.requestAuthorization(options: [.alert, .sound, .badge])`
    /// (seed `004`, `requestNotificationPermissions()` on "Move On & Notify"); the host
    /// answers with ``ContinuationInput/notificationAuthorizationAnswered(_:)``.
    case requestNotificationAuthorization
    /// `UIApplication.endBackgroundTask(_:)`.
    case endBackgroundTask
    /// The user sees the result on screen.
    case showResult(AnalysisResult)
    /// The user sees that the analysis failed or timed out (foreground only).
    case showFailure
    /// `UserDefaults.set(_:forKey:)` of the result to show at the next open (nil clears it).
    case storeResult(AnalysisResult?)
    /// `UserDefaults.synchronize()`.
    case synchronize
    case postNotification(LocalNotification)
}

/// One device's continuation state: at most one analysis at a time (seed `004`,
/// "Known Limitations" 3). `stored` mirrors what the app wrote to UserDefaults; after
/// a termination the host rebuilds the state from what reached the disk.
public struct ContinuationState: Hashable, Sendable {
    public struct Stored: Hashable, Sendable {
        /// A result finished in the background and not yet shown.
        public var unseenResult: AnalysisResult?
        public init(unseenResult: AnalysisResult? = nil) { self.unseenResult = unseenResult }
    }

    enum Phase: UInt8, Hashable, Sendable {
        /// Running in the foreground, the alert not shown yet.
        case waiting
        /// The alert is on screen.
        case offered
        /// "Continue Here".
        case continuingHere
        /// "Move On & Notify": running inside a background task.
        case background
        /// Moved on, then the user opened the app again: in front, the background task
        /// still held; a result now is shown, not notified.
        case backInApp
    }

    struct Work: Hashable, Sendable {
        var request: RequestID
        var mode: AnalysisMode
        var notifications: NotificationAuthorization
        var phase: Phase
        var offerArmed: Bool
    }

    public var stored: Stored
    /// The variant's result held in memory only.
    var memoryResult: AnalysisResult?
    var work: Work?
    var nextRequest: UInt32 = 0

    public init(persisted: Stored = Stored()) { stored = persisted }

    /// Whether an analysis is running.
    public var isBusy: Bool { work != nil }

    /// Whether an analysis the user moved on from runs while the app is in front again
    /// (the host tells the logic ``ContinuationInput/appEnteredBackground`` when it leaves).
    public var isBackInApp: Bool { work?.phase == .backInApp }
}
