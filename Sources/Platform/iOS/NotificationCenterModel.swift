import AppLogic

/// The OS side of `UNUserNotificationCenter` for one app: its authorization, what it
/// shows of a posted notification, and the badge number the app sets.
///
/// Authorization (`UNAuthorizationStatus`, ``NotificationAuthorization``):
/// - `notDetermined` asks the user once; `provisional` is granted without asking and
///   delivers quietly (Notification Centre only, no banner, sound or badge).
/// - A full request from `provisional` asks the user; from `authorized` or `denied` it
///   answers at once with no prompt (only the Settings app changes them).
///
/// The badge is a number the app sets (`setBadgeCount`, or a notification's
/// `content.badge`); the system stores it and shows it only when authorized. The app's
/// own bookkeeping of what the number should be lives in the app (a badge manager).
public struct NotificationCenterModel: Sendable, Equatable {
    /// The number the app last set (0 clears it).
    public private(set) var badgeNumber: Int32 = 0
    /// Notifications in Notification Centre not yet cleared.
    public private(set) var delivered: UInt16 = 0
    public private(set) var authorization: NotificationAuthorization

    public init(authorization: NotificationAuthorization) { self.authorization = authorization }

    public enum AuthorizationRequest: Sendable, Equatable {
        /// `.provisional` among the options: granted quietly without a prompt.
        case provisional
        /// A prompt, if the status allows one.
        case full
    }

    /// The app requests authorization; `userAllows` is the user's answer if a prompt is
    /// shown. Returns whether a prompt was shown.
    @discardableResult
    public mutating func requestAuthorization(_ request: AuthorizationRequest, userAllows: Bool) -> Bool {
        switch (authorization, request) {
        case (.notDetermined, .provisional):
            authorization = .provisional
            return false
        case (.notDetermined, .full), (.provisional, .full):
            authorization = userAllows ? .authorized : .denied
            return true
        case (.provisional, .provisional), (.authorized, _), (.denied, _):
            return false
        }
    }

    /// The user changes the app's notification setting in Settings.
    public mutating func settingsChanged(to authorization: NotificationAuthorization) {
        self.authorization = authorization
    }

    public enum Presentation: UInt8, Sendable, Equatable {
        /// Banner (and sound) plus Notification Centre.
        case alert
        /// Notification Centre only (provisional).
        case quiet
        /// Not shown at all.
        case notShown
    }

    /// The app posts `notification`; a shown one may also set the badge.
    public mutating func post(_ notification: LocalNotification) -> Presentation {
        switch authorization {
        case .notDetermined, .denied:
            return .notShown
        case .provisional:
            delivered &+= 1
            if let badge = notification.badge { setBadge(badge) }
            return .quiet
        case .authorized:
            delivered &+= 1
            if let badge = notification.badge { setBadge(badge) }
            return .alert
        }
    }

    /// `setBadgeCount(_:)`: the app sets the number; negative values clear it.
    public mutating func setBadge(_ number: Int) {
        badgeNumber = Int32(clamping: max(0, number))
    }

    /// What the home screen shows: the number when authorized, else nothing (0).
    public var visibleBadge: Int32 { authorization == .authorized ? badgeNumber : 0 }

    /// The user clears the app's notifications from Notification Centre.
    public mutating func clearDelivered() { delivered = 0 }
}
