/// Short, log-friendly spellings of the step sync's inputs and effects (used by `fleetsim replay`).
extension StepSyncInput: CustomStringConvertible {
    public var description: String {
        switch self {
        case .appOpened(let c): return "appOpened(\(c))"
        case .periodicWorkRan(let c): return "periodicWorkRan(\(c))"
        case .refreshTaskLaunched(let c): return "refreshTaskLaunched(\(c))"
        case .healthDataDelivered(let c): return "healthDataDelivered(\(c))"
        case .retryTimerFired(let c): return "retryTimerFired(\(c))"
        case .healthDataRead(let days): return "healthDataRead(\(StepUpload.summary(days)))"
        case .httpResponse(let id, let result): return "httpResponse(\(id), \(result))"
        }
    }
}

extension StepSyncContext: CustomStringConvertible {
    public var description: String {
        "tracking: \(healthTrackingEnabled), signedIn: \(signedIn), reachable: \(networkReachable), battery: \(batteryPercent)%\(charging ? " charging" : ""), lowPower: \(lowPowerMode), zone: \(zone.identifier)"
    }
}

extension StepSyncEffect: CustomStringConvertible {
    public var description: String {
        switch self {
        case .schedulePeriodicWork(let interval, let constraints):
            return "schedulePeriodicWork(interval: \(interval), constraints: \(constraints.rawValue))"
        case .readHealthData(let from, let to): return "readHealthData(from: \(from), to: \(to))"
        case .httpRequest(let id, let endpoint):
            if case .syncSteps(let upload) = endpoint { return "httpRequest(\(id), \(endpoint.method) \(endpoint.path) \(StepUpload.summary(upload.days)))" }
            return "httpRequest(\(id), \(endpoint.method) \(endpoint.path))"
        case .startRetryTimer(let after): return "startRetryTimer(after: \(after))"
        case .cancelRetryTimer: return "cancelRetryTimer"
        case .store(let s): return "store(lastSyncAt: \(s.lastSyncAt.map { "\($0)" } ?? "none"), status: \(s.lastStatus.rawValue), failedAttempts: \(s.failedAttempts))"
        case .synchronize: return "synchronize"
        case .scheduleNotification(let n, let after): return "scheduleNotification(\(n.kind.rawValue), after: \(after))"
        case .finishWork(let success): return "finishWork(success: \(success))"
        }
    }
}

extension StepUpload {
    /// `3 days 2026-03-06...2026-03-08, 21034 steps`.
    static func summary(_ days: [DailySteps]) -> String {
        guard let first = days.first, let last = days.last else { return "0 days" }
        return "\(days.count) days \(first.date)...\(last.date), \(days.reduce(0) { $0 + Int($1.steps) }) steps"
    }
}
