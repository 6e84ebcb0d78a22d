/// The two analysis modes of seed `004` ("Integration with Parsing Modes").
public enum AnalysisMode: String, Hashable, Sendable, CaseIterable {
    /// More accurate, slower: average 15-30 s, 5-minute timeout.
    case hierarchical
    /// Faster: average 5-15 s, 3-minute timeout.
    case baseline
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

/// What a continuation keeps in UserDefaults: the result the user has not seen (what
/// ``ContinuationEffect/storeResult(_:)`` writes). The host reads it from what reached
/// the disk, to tell whether a terminated app gets the result back.
public struct ContinuationStored: Hashable, Sendable {
    /// A result finished in the background and not yet shown.
    public var unseenResult: AnalysisResult?
    public init(unseenResult: AnalysisResult? = nil) { self.unseenResult = unseenResult }
}
