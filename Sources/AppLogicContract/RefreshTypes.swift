/// What the host knows when the system launches the task.
public struct RefreshLaunchContext: Hashable, Sendable {
    public var signedIn: Bool
    /// `NWPathMonitor`'s view at launch.
    public var networkReachable: Bool
    public var notificationAuthorization: NotificationAuthorization
    /// `TimeZone.current.identifier`.
    public var timeZoneIdentifier: String
    public init(signedIn: Bool, networkReachable: Bool, notificationAuthorization: NotificationAuthorization, timeZoneIdentifier: String) {
        self.signedIn = signedIn
        self.networkReachable = networkReachable
        self.notificationAuthorization = notificationAuthorization
        self.timeZoneIdentifier = timeZoneIdentifier
    }
}

public enum RefreshInput: Hashable, Sendable {
    /// BGTaskScheduler launched the `BGAppRefreshTask`.
    case taskLaunched(RefreshLaunchContext)
    /// The task's `expirationHandler` ran.
    case taskExpired
    /// The 20 s hard-stop timer the logic asked for fired.
    case hardStopFired
    case httpResponse(RequestID, HTTPResult)
    /// The user brought the app to the foreground.
    case appOpened
}

/// The persisted keys (UserDefaults).
public enum RefreshStoredKey: String, Hashable, Sendable {
    case lastRefreshAt, notifiedWindow, lastAppOpenAt
}

public enum RefreshEffect: Hashable, Sendable {
    /// Submit a `BGAppRefreshTaskRequest` (replacing any pending one).
    case scheduleRefresh(earliestBegin: Instant)
    /// Cancel the pending request (after sign-out).
    case cancelScheduledRefresh
    case httpRequest(RequestID, Endpoint)
    /// Cancel every in-flight request; each answers `.failed(.cancelled)`.
    case cancelRequests
    case startHardStopTimer(after: Interval)
    case cancelHardStopTimer
    /// `task.setTaskCompleted(success:)`.
    case completeTask(success: Bool)
    case postNotification(LocalNotification)
    /// `UserDefaults.set(_:forKey:)` of the notified window (a server instant): in
    /// memory at once, on disk later.
    case store(RefreshStoredKey, Instant)
    /// `UserDefaults.set(_:forKey:)` of a moment on the device's clocks (wall and boot
    /// clock, ``DeviceTime``): `lastRefreshAt`, `lastAppOpenAt`.
    case storeTime(RefreshStoredKey, DeviceTime)
    /// `UserDefaults.synchronize()`: everything stored so far is on disk.
    case synchronize
    /// Log the user out (401).
    case signOut
    case analytics(AnalyticsEvent)
}

/// Seed `000`'s analytics events ("Decision 6").
public enum AnalyticsEvent: Hashable, Sendable {
    /// `background_refresh_started`
    case refreshStarted
    /// `background_refresh_completed` with success and duration
    case refreshCompleted(success: Bool, duration: Interval)
    /// `background_refresh_notification_sent`
    case notificationSent
    /// `background_refresh_data_fetched`
    case dataFetched(FetchedData)

    public enum FetchedData: String, Hashable, Sendable { case testHistory = "test_history", activeSession = "active_session" }

    public var name: String {
        switch self {
        case .refreshStarted: return "background_refresh_started"
        case .refreshCompleted: return "background_refresh_completed"
        case .notificationSent: return "background_refresh_notification_sent"
        case .dataFetched: return "background_refresh_data_fetched"
        }
    }
}
