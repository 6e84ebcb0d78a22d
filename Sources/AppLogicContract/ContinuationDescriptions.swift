/// Short, log-friendly spellings of the continuation logic's inputs and effects (used
/// by `fleetsim replay`).
extension ContinuationInput: CustomStringConvertible {
    public var description: String {
        switch self {
        case .analysisRequested(let mode, let n): return "analysisRequested(\(mode.rawValue), notifications: \(n))"
        case .timerFired(let timer): return "timerFired(\(timer))"
        case .userChose(let choice): return "userChose(\(choice.rawValue))"
        case .httpResponse(let id, let result): return "httpResponse(\(id), \(result))"
        case .backgroundTimeExpiring: return "backgroundTimeExpiring"
        case .appOpened: return "appOpened"
        case .appEnteredBackground: return "appEnteredBackground"
        case .notificationAuthorizationAnswered(let status): return "notificationAuthorizationAnswered(\(status))"
        }
    }
}

extension ContinuationEffect: CustomStringConvertible {
    public var description: String {
        switch self {
        case .httpRequest(let id, let endpoint): return "httpRequest(\(id), POST \(endpoint.path))"
        case .cancelRequest: return "cancelRequest"
        case .startTimer(let timer, let after): return "startTimer(\(timer), after: \(after))"
        case .cancelTimer(let timer): return "cancelTimer(\(timer))"
        case .offerBackground: return "offerBackground"
        case .beginBackgroundTask: return "beginBackgroundTask"
        case .requestNotificationAuthorization: return "requestNotificationAuthorization"
        case .endBackgroundTask: return "endBackgroundTask"
        case .showResult(let r): return "showResult(\(r.request))"
        case .showFailure: return "showFailure"
        case .storeResult(let r): return "storeResult(\(r.map { "\($0.request)" } ?? "nil"))"
        case .synchronize: return "synchronize"
        case .postNotification(let n): return "postNotification(\(n.kind.rawValue), badge: \(n.badge.map(String.init) ?? "unchanged"))"
        }
    }
}

extension BadgeInput: CustomStringConvertible {
    public var description: String {
        switch self {
        case .deliveredNotificationsChanged(let unread): return "deliveredNotificationsChanged(unread: \(unread))"
        case .appOpened: return "appOpened"
        }
    }
}

extension BadgeEffect: CustomStringConvertible {
    public var description: String {
        switch self {
        case .setBadge(let n): return "setBadge(\(n))"
        case .removeAllDeliveredNotifications: return "removeAllDeliveredNotifications"
        }
    }
}
