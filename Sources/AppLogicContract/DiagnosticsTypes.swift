/// The nightly diagnostics upload's spec: the cadence and the requirement the logic runs
/// by (docs/architecture.md, "Adding a feature, counted again").
public struct DiagnosticsSpec: Hashable, Sendable {
    /// One upload a day: the `earliestBeginDate` of iOS's next processing request, the
    /// interval of Android's periodic work.
    public var interval: Interval = .hours(24)
    /// The upload runs on external power only: iOS `requiresExternalPower`, Android
    /// `setRequiresCharging(true)`.
    public var requiresExternalPower = true
    public init() {}
}

/// What the OS and the network tell the diagnostics logic.
public enum DiagnosticsInput: Hashable, Sendable {
    /// The app's first run on this device: nothing is scheduled yet.
    case installed
    /// The OS launched the upload's work (iOS: its processing task; Android: a run of its
    /// periodic work).
    case workLaunched
    /// The work's time is up (iOS: the expiration handler; Android: JobScheduler stops it).
    case workExpired
    /// The upload's answer.
    case httpResponse(RequestID, HTTPResult)
}

/// What the diagnostics logic asks of the OS and the network.
public enum DiagnosticsEffect: Hashable, Sendable {
    /// The next run no sooner than `after` from now under `constraints` (iOS: a
    /// `BGProcessingTaskRequest` with `requiresExternalPower` for `.charging` and
    /// `requiresNetworkConnectivity` for `.networkConnected`; Android: periodic work every
    /// `after`, KEEP, with WorkManager's constraints).
    case schedule(after: Interval, constraints: WorkConstraints)
    /// `POST /v1/diagnostics` with the logs.
    case upload(RequestID)
    /// The work is over: iOS `setTaskCompleted(success:)`, Android the Worker's `Result`.
    case finish(success: Bool)
}

/// The upload's per-device state: the request in flight, in memory only (the OS keeps the
/// schedule, so nothing reaches the disk).
public struct DiagnosticsState: PersistentState, Hashable, Sendable {
    /// The upload in flight, if any.
    public var inFlight: RequestID?
    /// Requests issued so far (the next one's id).
    public var issued: UInt32 = 0
    public init() {}
    public init(persisted: Stored) {}
    public var stored: Stored { Stored() }
    public struct Stored: Equatable, Sendable { public init() {} }
}

/// The nightly diagnostics upload (docs/architecture.md, "Adding a feature, counted again").
public protocol DiagnosticsLogicProtocol {
    associatedtype State: PersistentState
    var spec: DiagnosticsSpec { get }
    func handle(_ input: DiagnosticsInput, state: inout State, now: DeviceTime, into effects: inout [DiagnosticsEffect])
}

extension Endpoint {
    /// `POST /v1/diagnostics`: the upload's endpoint, an app's own path
    /// (``Endpoint/custom(method:path:)``).
    public static var diagnostics: Endpoint { .custom(method: "POST", path: "/v1/diagnostics") }
}
