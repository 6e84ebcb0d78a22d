/// Short, log-friendly spellings of the logic's inputs and effects (used by
/// `fleetsim replay`, and as useful in a real app's logs).
extension RefreshInput: CustomStringConvertible {
    public var description: String {
        switch self {
        case .taskLaunched(let c):
            return "taskLaunched(signedIn: \(c.signedIn), reachable: \(c.networkReachable), notifications: \(c.notificationAuthorization), zone: \(c.timeZoneIdentifier))"
        case .taskExpired: return "taskExpired"
        case .hardStopFired: return "hardStopFired"
        case .httpResponse(let id, let result): return "httpResponse(\(id), \(result))"
        case .appOpened: return "appOpened"
        }
    }
}

extension RefreshEffect: CustomStringConvertible {
    public var description: String {
        switch self {
        case .scheduleRefresh(let earliest): return "scheduleRefresh(earliestBegin: \(earliest))"
        case .cancelScheduledRefresh: return "cancelScheduledRefresh"
        case .httpRequest(let id, let endpoint): return "httpRequest(\(id), GET \(endpoint.path))"
        case .cancelRequests: return "cancelRequests"
        case .startHardStopTimer(let after): return "startHardStopTimer(after: \(after))"
        case .cancelHardStopTimer: return "cancelHardStopTimer"
        case .completeTask(let success): return "completeTask(success: \(success))"
        case .postNotification(let n): return "postNotification(\(n.kind.rawValue), badge: \(n.badge.map(String.init) ?? "unchanged"))"
        case .store(let key, let value): return "store(\(key.rawValue), \(value))"
        case .storeTime(let key, let value): return "store(\(key.rawValue), \(value))"
        case .synchronize: return "synchronize"
        case .signOut: return "signOut"
        case .analytics(let event): return "analytics(\(event))"
        }
    }
}

extension AnalyticsEvent: CustomStringConvertible {
    public var description: String {
        switch self {
        case .refreshCompleted(let success, let duration): return "\(name) success=\(success) duration=\(duration)"
        case .dataFetched(let data): return "\(name) \(data.rawValue)"
        default: return name
        }
    }
}

extension Interval: CustomStringConvertible {
    /// In the unit that fits, as a person reads it: `254 ms`, `4.2 s`, `20 s`, `12 min`,
    /// `24.0 h`, `8.0 d` (under 1 ms in µs; one decimal under 10 s, 10 min, and from 1 h on).
    public var description: String {
        let us = microseconds.magnitude
        let sign = microseconds < 0 ? "-" : ""
        /// `us / unit` rounded half up to `tenths` (1 decimal) or whole.
        func scaled(_ unit: UInt64, tenths: Bool, _ name: String) -> String {
            if !tenths { return "\(sign)\((us + unit / 2) / unit) \(name)" }
            let t = (us * 10 + unit / 2) / unit
            return "\(sign)\(t / 10).\(t % 10) \(name)"
        }
        switch us {
        case 0: return "0 s"
        case ..<1_000: return "\(sign)\(us) µs"
        case ..<1_000_000: return scaled(1_000, tenths: false, "ms")
        case ..<60_000_000: return scaled(1_000_000, tenths: us < 10_000_000, "s")
        case ..<3_600_000_000: return scaled(60_000_000, tenths: us < 600_000_000, "min")
        case ..<360_000_000_000: return scaled(3_600_000_000, tenths: true, "h")
        default: return scaled(86_400_000_000, tenths: true, "d")
        }
    }
}

extension Instant {
    /// ISO 8601 UTC with milliseconds, e.g. `2026-03-02T04:10:14.423Z`.
    public var iso8601: String {
        var seconds = unixMicroseconds / 1_000_000
        var micros = unixMicroseconds % 1_000_000
        if micros < 0 { micros += 1_000_000; seconds -= 1 }
        var days = seconds / 86_400
        var sod = seconds % 86_400
        if sod < 0 { sod += 86_400; days -= 1 }
        // Civil-from-days (H. Hinnant).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func p(_ v: Int64, _ w: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, w - s.count)) + s }
        return "\(p(y, 4))-\(p(m, 2))-\(p(d, 2))T\(p(sod / 3600, 2)):\(p(sod / 60 % 60, 2)):\(p(sod % 60, 2)).\(p(micros / 1000, 3))Z"
    }
}
