import AppLogic

/// Why a request reached the API: the trigger of the event the device was handling when
/// its app sent it (`backend.load.requestsByCause`, the causes of `backend.load.peak` and
/// `peakSecond`). A request sent in answer to an earlier one (a list fetched, then the
/// item it names) keeps that request's cause; one sent after a failed answer (a
/// timeout, a 5xx, a 503, lost in transit) is a retry.
///
/// The core declares the causes of the OS, the network and the users (``coreNames``); a
/// feature declares its own beside its host, an `extension LoadCause` with its raw value
/// and its entry in the host's `loadCauses`, joined in ``featureLoadCauses`` (the list
/// of features). A raw value indexes the load series' and the busiest seconds' arrays.
struct LoadCause: Equatable {
    let rawValue: UInt8

    /// The user opens the app (docs/model.md: users).
    static var appOpen: LoadCause { LoadCause(rawValue: 0) }
    /// The user taps a notification, which opens the app.
    static var notificationTap: LoadCause { LoadCause(rawValue: 1) }
    /// The user finishes a test, chooses how an analysis continues, or leaves the app.
    static var userAction: LoadCause { LoadCause(rawValue: 2) }
    /// iOS launches the app's background task (BGTaskScheduler); the report's name
    /// `refreshLaunch` is kept.
    static var taskLaunch: LoadCause { LoadCause(rawValue: 3) }
    /// WorkManager runs a periodic work when its window opens (or JobScheduler stops it).
    static var workManagerWindow: LoadCause { LoadCause(rawValue: 4) }
    /// A Doze maintenance window opens and lets deferred work run.
    static var dozeWindow: LoadCause { LoadCause(rawValue: 5) }
    /// Another Android state change: a screen session, motion, the standby bucket, an
    /// alarm clock, Battery Saver, a manufacturer's force-stop.
    static var androidState: LoadCause { LoadCause(rawValue: 6) }
    /// HealthKit background delivery wakes the app with new data.
    static var healthKitDelivery: LoadCause { LoadCause(rawValue: 7) }
    /// The phone is plugged in or unplugged.
    static var charger: LoadCause { LoadCause(rawValue: 8) }
    // 9: a feature's (``featureLoadCauses``).
    /// A feature's retry backoff timer fires (``DeviceTimer/loadCause``).
    static var retryBackoff: LoadCause { LoadCause(rawValue: 10) }
    /// The answer to an earlier request failed; the app tries again at once.
    static var retryAfterFailure: LoadCause { LoadCause(rawValue: 11) }
    /// The phone goes offline or comes back online.
    static var connectivity: LoadCause { LoadCause(rawValue: 12) }
    /// A scenario fault starts or ends (an outage's end, a time-zone change, a jetsam kill).
    static var fault: LoadCause { LoadCause(rawValue: 13) }
    /// Another of the app's own timers (a hard stop, a stale-data notification, a
    /// key-value flush, a task's end).
    static var appTimer: LoadCause { LoadCause(rawValue: 14) }

    /// The core's causes as report.json names them.
    static let coreNames: [(LoadCause, String)] = [
        (.appOpen, "appOpen"), (.notificationTap, "notificationTap"), (.userAction, "userAction"),
        (.taskLaunch, "refreshLaunch"), (.workManagerWindow, "workManagerWindow"), (.dozeWindow, "dozeWindow"),
        (.androidState, "androidState"), (.healthKitDelivery, "healthKitDelivery"), (.charger, "charger"),
        (.retryBackoff, "retryBackoff"), (.retryAfterFailure, "retryAfterFailure"), (.connectivity, "connectivity"),
        (.fault, "fault"), (.appTimer, "appTimer"),
    ]

    /// Every cause's report name, by raw value: the core's and the features'.
    static let names: [String] = {
        let all = coreNames + featureLoadCauses
        var names = [String](repeating: "", count: all.count)
        for (cause, name) in all { names[Int(cause.rawValue)] = name }
        return names
    }()

    /// Every cause, in raw-value order.
    static let allCases = names.indices.map { LoadCause(rawValue: UInt8($0)) }

    /// The cause as report.json names it.
    var name: String { LoadCause.names[Int(rawValue)] }

    /// The cause of a request sent while the world handles `event`; nil for the network
    /// events, whose cause is the request's (``World/causeOfSend()``).
    static func of(_ event: WorldEvent) -> LoadCause? {
        switch event {
        case .userOpensApp: return .appOpen
        case .notificationTapped: return .notificationTap
        case .foregroundSessionEnds: return .userAction
        case .taskLaunch: return .taskLaunch
        case .taskExpires, .taskWatchdog, .suspendAfterTask, .keyValueFlush: return .appTimer
        case .requestReachesServer, .serviceCompletes, .responseReachesDevice, .requestTimesOut: return nil
        case .offlineSpellStarts, .offlineSpellEnds: return .connectivity
        case .faultStarts, .faultEnds, .jetsam: return .fault
        case .deviceTimer(_, _, let timer): return timer.loadCause
        case .android(let e):
            switch e {
            case .timer(_, _, .work), .jobStops: return .workManagerWindow
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
