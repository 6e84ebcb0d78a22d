/// The reference continuation's configuration is its spec.
public typealias ContinuationConfiguration = ContinuationSpec

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

/// One device's continuation state: at most one analysis at a time (seed `004`,
/// "Known Limitations" 3). `stored` mirrors what the app wrote to UserDefaults; after
/// a termination the host rebuilds the state from what reached the disk.
public struct ContinuationState: Hashable, Sendable {
    /// What the app wrote to UserDefaults (the contract's ``ContinuationStored``).
    public typealias Stored = ContinuationStored

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
