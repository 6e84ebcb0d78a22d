/// Plain-word spellings of the push router's inputs and effects (used by `fleetsim
/// replay`, and as readable in a real app's logs): enum cases by name, absent values
/// left out, never a Swift type dump such as `AppLogic.PushPriority.low` or `Optional("badge")`.
extension PushInput: CustomStringConvertible {
    public var description: String {
        switch self {
        case .deviceRegistered(let token): return "deviceRegistered(\(token))"
        case .tokenRotated(let token): return "tokenRotated(\(token))"
        case .userActivity(let device): return "userActivity(\(device))"
        case .notificationCreated(let n): return "notificationCreated(\(n))"
        case .notificationsRead(let count): return "notificationsRead(count: \(count))"
        case .providerResponse(let send, let result): return "providerResponse(\(send), \(result))"
        case .deliveryReceipt(let n, let device): return "deliveryReceipt(\(n), \(device))"
        case .timerFired(let timer): return "timerFired(\(timer))"
        }
    }
}

extension PushEffect: CustomStringConvertible {
    public var description: String {
        switch self {
        case .send(let id, let token, let payload, let priority, let platformPriority, let collapseId, let expiration):
            return "send(\(id) to \(token): \(payload), priority \(priority) (provider \(platformPriority))\(collapseId.map { ", collapse id \"\($0)\"" } ?? ""), expires \(expiration))"
        case .startTimer(let timer, let at): return "startTimer(\(timer), at: \(at))"
        case .sendEmail(let n, let reason): return "sendEmail(\(n), reason: \(reason))"
        case .markToken(let token, let status): return "markToken(\(token) \(status))"
        case .emailPurgeNotice(let device): return "emailPurgeNotice(\(device))"
        case .purgeDevice(let device): return "purgeDevice(\(device))"
        case .suppressed(let n, let why): return "suppressed(\(n): \(why))"
        case .held(let n, let until): return "held(\(n) until \(until))"
        case .summarized(let ns, let into): return "summarized(\(ns.map(\.description).joined(separator: ", ")) into \(into))"
        case .sendFailed(let id, let reason, let willRetry): return "sendFailed(\(id): \(reason)\(willRetry ? ", will retry" : ", no retry"))"
        }
    }
}

extension PushNotificationRequest: CustomStringConvertible {
    public var description: String {
        "\(id) \(category), priority \(priority), \"\(title)\"" + (collapseId.map { ", collapse id \"\($0)\"" } ?? "")
            + (threadId.map { ", thread \"\($0)\"" } ?? "") + (dataBytes > 0 ? ", data \(dataBytes) bytes" : "")
    }
}

extension PushPayload: CustomStringConvertible {
    public var description: String { "\(content), badge \(badge), \(bytes) bytes" }
}

extension PushContent: CustomStringConvertible {
    public var description: String {
        switch self {
        case .alert(let n, let title, _, let thread): return "alert \(n) \"\(title)\" (thread \"\(thread)\")"
        case .summary(let n, let count): return "summary \(n) of \(count)"
        case .badgeOnly: return "badge only"
        case .validation: return "validation"
        }
    }
}

extension PushProviderResult: CustomStringConvertible {
    public var description: String {
        switch self {
        case .accepted: return "accepted"
        case .status(let code, let retryAfter): return "\(code)" + (retryAfter.map { ", retry after \($0)" } ?? "")
        case .timedOut: return "no answer (timed out)"
        case .invalidToken(let code): return "\(code) invalid token"
        }
    }
}

extension PushTimer: CustomStringConvertible {
    public var description: String {
        switch self {
        case .retry(let send): return "retry \(send)"
        case .escalate(let n): return "escalate \(n)"
        case .highDelayCheck(let n): return "high-priority delay check \(n)"
        case .quietHoursEnd: return "quiet hours end"
        case .daily: return "daily reset"
        }
    }
}

extension PushFailureReason: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unregistered: return "unregistered"
        case .clientError(let code): return "client error \(code)"
        case .rateLimited: return "rate limited"
        case .serverError(let code): return "server error \(code)"
        case .timedOut: return "timed out"
        case .expired: return "expired"
        }
    }
}
