import AppLogic

/// Why a request reached the API: the trigger of the event the device was handling when
/// its app sent it (`backend.load.requestsByCause`, the causes of `backend.load.peak` and
/// `peakSecond`). A request sent in answer to an earlier one (the refresh's history, then
/// its active session) keeps that request's cause; one sent after a failed answer (a
/// timeout, a 5xx, a 503, lost in transit) is a retry.
enum LoadCause: UInt8, CaseIterable {
    /// The user opens the app (docs/model.md: users).
    case appOpen
    /// The user taps a notification, which opens the app.
    case notificationTap
    /// The user finishes a test, chooses how an analysis continues, or leaves the app.
    case userAction
    /// iOS launches the background refresh (BGTaskScheduler).
    case refreshLaunch
    /// WorkManager runs a periodic work when its window opens (or JobScheduler stops it).
    case workManagerWindow
    /// A Doze maintenance window opens and lets deferred work run.
    case dozeWindow
    /// Another Android state change: a screen session, motion, the standby bucket, an
    /// alarm clock, Battery Saver, a manufacturer's force-stop.
    case androidState
    /// HealthKit background delivery wakes the app with new steps.
    case healthKitDelivery
    /// The phone is plugged in or unplugged.
    case charger
    /// A push reaches the phone (a silent push or an FCM message that wakes the app).
    case pushWake
    /// A feature's retry backoff timer fires (``DeviceTimer/loadCause``).
    case retryBackoff
    /// The answer to an earlier request failed; the app tries again at once.
    case retryAfterFailure
    /// The phone goes offline or comes back online.
    case connectivity
    /// A scenario fault starts or ends (an outage's end, a time-zone change, a jetsam kill).
    case fault
    /// Another of the app's own timers (a hard stop, a stale-sync notification, a
    /// key-value flush, a task's end).
    case appTimer

    /// The cause as report.json names it.
    var name: String {
        switch self {
        case .appOpen: return "appOpen"
        case .notificationTap: return "notificationTap"
        case .userAction: return "userAction"
        case .refreshLaunch: return "refreshLaunch"
        case .workManagerWindow: return "workManagerWindow"
        case .dozeWindow: return "dozeWindow"
        case .androidState: return "androidState"
        case .healthKitDelivery: return "healthKitDelivery"
        case .charger: return "charger"
        case .pushWake: return "pushWake"
        case .retryBackoff: return "retryBackoff"
        case .retryAfterFailure: return "retryAfterFailure"
        case .connectivity: return "connectivity"
        case .fault: return "fault"
        case .appTimer: return "appTimer"
        }
    }

    static let names = allCases.map(\.name)

    /// The cause of a request sent while the world handles `event`; nil for the network
    /// events, whose cause is the request's (``World/causeOfSend()``).
    static func of(_ event: WorldEvent) -> LoadCause? {
        switch event {
        case .userOpensApp: return .appOpen
        case .notificationTapped: return .notificationTap
        case .foregroundSessionEnds: return .userAction
        case .taskLaunch: return .refreshLaunch
        case .taskExpires, .taskWatchdog, .suspendAfterTask, .keyValueFlush: return .appTimer
        case .requestReachesServer, .serviceCompletes, .responseReachesDevice, .requestTimesOut: return nil
        case .offlineSpellStarts, .offlineSpellEnds: return .connectivity
        case .faultStarts, .faultEnds, .jetsam: return .fault
        case .deviceTimer(_, _, let timer): return timer.loadCause
        case .android(let e):
            switch e {
            case .timer(_, _, .refreshWork), .timer(_, _, .stepWork), .jobStops: return .workManagerWindow
            case .timer(_, _, .doze): return .dozeWindow
            case .timer, .screenSessionStarts, .screenOff, .motion: return .androidState
            }
        case .batterySwitch: return .charger
        case .feature(let e): return e.loadCause
        }
    }

    /// The cause of a request sent in reaction to the answer `result` of a request of
    /// cause `earlier`: a retry after a failure, else the earlier request's cause.
    static func following(_ earlier: LoadCause, _ result: HTTPResult) -> LoadCause {
        switch result {
        case .ok, .failed(.cancelled): return earlier
        case .status, .failed: return .retryAfterFailure
        }
    }
}
