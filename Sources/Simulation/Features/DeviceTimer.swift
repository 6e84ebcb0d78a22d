/// Every per-device timer a feature arms, in one small enum: one byte, so that
/// `WorldEvent.deviceTimer` keeps the event at 10 bytes (``DeviceLayoutTests``); a new
/// feature adds its timers here and its line to ``World/featureTimerFires(_:_:)``. The
/// raw values are the timers' codes in the event hashes (Core/EventHashes) and their
/// places in the generation table (Core/DeviceTimers): add new ones at the end.
enum DeviceTimer: UInt8, CaseIterable {
    /// The refresh logic's hard stop (`startHardStopTimer`).
    case hardStop
    /// The step sync's retry backoff (`startRetryTimer`).
    case stepRetry
    /// The "steps not synced for 24 h" notification's trigger (Android: a while-idle alarm).
    case staleNotification
    /// The end of a HealthKit wake or of the work's background time.
    case stepWake
    /// The continuation's offer and deadline timers (seed `004`).
    case continuationOffer
    case continuationDeadline
    /// The background time `beginBackgroundTask` granted runs out.
    case backgroundTask

    /// Re-armed later far more often than it fires: a re-arm keeps its pending entry
    /// (``DeferredTimer``).
    var defersLaterArms: Bool { self == .staleNotification }

    /// Which of a device's kept placements (``TimerEntries``) its pending entry keeps, so
    /// that it leaves the queue when it becomes moot; nil for a timer that keeps none.
    /// Measured worth it for the two whose entries were mostly popped as no-ops: the
    /// hard stop, which the logic cancels, and the wake's budget, which the work's end
    /// replaces by the suspension delay.
    @inline(__always) var keptEntry: Int? {
        switch self {
        case .hardStop: return 0
        case .stepWake: return 1
        default: return nil
        }
    }

    /// What a request sent when it fires was caused by (``LoadCause``).
    var loadCause: LoadCause { self == .stepRetry ? .retryBackoff : .appTimer }
}

