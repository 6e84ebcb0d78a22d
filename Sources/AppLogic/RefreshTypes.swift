/// The reference refresh's configuration is its spec.
public typealias RefreshConfiguration = RefreshSpec

/// Known bugs (seed `002`) as switchable deviations. The empty set is the fixed logic.
public struct RefreshVariants: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Expiration handler and normal path both call `setTaskCompleted`.
    public static let unguardedCompletion = RefreshVariants(rawValue: 1 << 0)
    /// Writes are not flushed with `synchronize()`; a kill loses them.
    public static let noSynchronize = RefreshVariants(rawValue: 1 << 1)
    /// The notification sets `badge = 1`.
    public static let badgeOverwrite = RefreshVariants(rawValue: 1 << 2)
    /// Available after 91 days instead of 90.
    public static let cadenceOffByOne = RefreshVariants(rawValue: 1 << 3)
    /// Days counted on the device's local calendar and clock.
    public static let localCalendarDays = RefreshVariants(rawValue: 1 << 4)
    /// Notifies although the app was opened in the last 24 h.
    public static let ignoresRecentOpen = RefreshVariants(rawValue: 1 << 5)
    /// The next request's `earliestBeginDate` is the preferred interval read as minutes,
    /// not hours: now + 4 min for now + 4 h.
    public static let preferredIntervalMinutes = RefreshVariants(rawValue: 1 << 6)
    /// The 12 h minimum interval is read as minutes: a refresh 12 min after the last one runs.
    public static let minimumIntervalMinutes = RefreshVariants(rawValue: 1 << 7)
    /// The 20 s hard-stop timer is never started: a slow request holds the task until the
    /// expiration handler (30 s) or, on Android, the request's timeout.
    public static let hardStopIgnored = RefreshVariants(rawValue: 1 << 8)
    /// The launch's sign-in check is dropped: a signed-out device fetches the history.
    public static let ignoresSignOut = RefreshVariants(rawValue: 1 << 9)
    /// The launch's reachability check is dropped: an offline device sends its request
    /// instead of failing fast.
    public static let ignoresOffline = RefreshVariants(rawValue: 1 << 10)
    /// The history is fetched a page at a time (`limit=20`, "prefetch the recent page")
    /// instead of the latest test alone.
    public static let fullHistory = RefreshVariants(rawValue: 1 << 11)
    /// The permission check before notifying is dropped: the app asks the OS to post
    /// (and marks the window notified) although notifications are not allowed.
    public static let ignoresPermission = RefreshVariants(rawValue: 1 << 12)
    /// `background_refresh_completed` reports the time since the last refresh instead of
    /// since the task's start (0 after a refresh that just finished).
    public static let durationSinceLastRefresh = RefreshVariants(rawValue: 1 << 13)
    /// After a failed request the task asks for the history once more (a client's retry)
    /// instead of completing with `success: false`.
    public static let retryOnce = RefreshVariants(rawValue: 1 << 14)
    /// A 401 is handled like any other failure: the user stays signed in and the next
    /// refresh stays scheduled.
    public static let ignores401 = RefreshVariants(rawValue: 1 << 15)
    /// The active session is fetched after every history answer, the availability check
    /// skipped for it (a notification may follow for a test not yet due).
    public static let alwaysFetchActive = RefreshVariants(rawValue: 1 << 16)
    /// The active session's answer is not read: the notification goes out although a
    /// test is in progress.
    public static let ignoresActiveSession = RefreshVariants(rawValue: 1 << 17)
}


/// One device's refresh state. `stored` mirrors what the app wrote to UserDefaults
/// (as the app reads it back in-process); after a termination the host rebuilds the
/// state from what reached the disk with ``init(persisted:)``.
public struct RefreshState: Hashable, Sendable {
    /// What the app wrote to UserDefaults. Layout (48 bytes, where the three optionals
    /// took 64; one per device, and the host keeps a second copy of what reached the
    /// disk): each optional's parts apart, the boots together at the end, nil as a wall
    /// clock (or instant) of `Int64.min` µs, an instant no run reaches, behind accessors
    /// of the keys' names. A nil is stored with zero parts, so equal values are equal bits.
    public struct Stored: Hashable, Sendable {
        /// Stamped on both clocks: the 12 h rule measures with the boot clock.
        public var lastRefreshAt: DeviceTime? {
            get { Self.time(refreshWall, refreshSinceBoot, refreshBoot) }
            set { (refreshWall, refreshSinceBoot, refreshBoot) = Self.parts(newValue) }
        }
        /// The completion time (server clock) of the test whose window was notified.
        public var notifiedWindow: Instant? {
            get { notifiedWindowMicroseconds == .min ? nil : Instant(unixMicroseconds: notifiedWindowMicroseconds) }
            set {
                assert(newValue?.unixMicroseconds != .min, "Int64.min µs stands for nil")
                notifiedWindowMicroseconds = newValue?.unixMicroseconds ?? .min
            }
        }
        /// Stamped on both clocks: the 24 h rule measures with the boot clock.
        public var lastAppOpenAt: DeviceTime? {
            get { Self.time(appOpenWall, appOpenSinceBoot, appOpenBoot) }
            set { (appOpenWall, appOpenSinceBoot, appOpenBoot) = Self.parts(newValue) }
        }
        private var refreshWall = Int64.min
        private var refreshSinceBoot: Int64 = 0
        private var appOpenWall = Int64.min
        private var appOpenSinceBoot: Int64 = 0
        private var notifiedWindowMicroseconds = Int64.min
        private var refreshBoot: UInt32 = 0
        private var appOpenBoot: UInt32 = 0

        public init(lastRefreshAt: DeviceTime? = nil, notifiedWindow: Instant? = nil, lastAppOpenAt: DeviceTime? = nil) {
            self.lastRefreshAt = lastRefreshAt
            self.notifiedWindow = notifiedWindow
            self.lastAppOpenAt = lastAppOpenAt
        }

        @inline(__always) private static func time(_ wall: Int64, _ sinceBoot: Int64, _ boot: UInt32) -> DeviceTime? {
            wall == .min ? nil : DeviceTime(wall: Instant(unixMicroseconds: wall), sinceBoot: Interval(microseconds: sinceBoot), boot: boot)
        }

        @inline(__always) private static func parts(_ t: DeviceTime?) -> (Int64, Int64, UInt32) {
            guard let t else { return (.min, 0, 0) }
            assert(t.wall.unixMicroseconds != .min, "Int64.min µs stands for nil")
            return (t.wall.unixMicroseconds, t.sinceBoot.microseconds, t.boot)
        }
    }

    /// The task being run, if any. Its small fields follow `startedAt`, in its padding,
    /// and the launch context is kept as its parts, so that its three flags join them
    /// (57 bytes, where a nested context took 65: `RefreshState` 112, not 120).
    struct Task: Hashable, Sendable {
        var startedAt: DeviceTime
        var awaiting: RequestID?
        var completed = false
        var hardStopArmed = false
        /// The ``RefreshVariants/retryOnce`` variant asked for the history again.
        var retried = false
        private var signedIn: Bool
        private var networkReachable: Bool
        private var notificationAuthorization: NotificationAuthorization
        private var timeZoneIdentifier: String
        var windowCompletedAt: Instant?

        init(startedAt: DeviceTime, context: RefreshLaunchContext) {
            self.startedAt = startedAt
            signedIn = context.signedIn
            networkReachable = context.networkReachable
            notificationAuthorization = context.notificationAuthorization
            timeZoneIdentifier = context.timeZoneIdentifier
        }

        /// What the OS told the task at launch.
        var context: RefreshLaunchContext {
            RefreshLaunchContext(signedIn: signedIn, networkReachable: networkReachable,
                                 notificationAuthorization: notificationAuthorization, timeZoneIdentifier: timeZoneIdentifier)
        }
    }

    public var stored: Stored
    var task: Task?
    var nextRequest: UInt32 = 0

    public init(persisted: Stored = Stored()) { stored = persisted }

    /// Whether a launched task has not yet called `setTaskCompleted` (as the logic believes).
    public var isRunningTask: Bool { task.map { !$0.completed } ?? false }
}
