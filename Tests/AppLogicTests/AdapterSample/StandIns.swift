import AppLogic
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// What docs/adapters.md's refresh adapter (RefreshAdapter.swift, the page's code
// block) calls besides AppLogic: the app's own code (`Session`, `Reachability`, `API`,
// `Analytics`, `Boot`), and where Apple's frameworks are absent (this Linux build),
// their declarations as the adapter uses them, so that the adapter compiles here and
// follows every change of AppLogic's types. Nothing here runs.

enum Session {
    static var isSignedIn: Bool { true }
    static func signOut() {}
}

enum Reachability {
    static var isReachable: Bool { true }
}

enum API {
    static let base = URL(string: "https://api.example.com")!
    static func result(_ endpoint: Endpoint, _ data: Data?, _ response: URLResponse?, _ error: Error?) -> HTTPResult { .failed(.offline) }
}

enum Analytics {
    static func log(_ name: String) {}
}

enum Boot {
    static var identity: UInt32 { 0 }
}

#if !canImport(Darwin)
func clock_gettime_nsec_np(_ clock: clockid_t) -> UInt64 {
    var time = timespec()
    clock_gettime(clock, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
#endif

#if !canImport(BackgroundTasks)
class BGTask {
    var expirationHandler: (@Sendable () -> Void)?
    func setTaskCompleted(success: Bool) {}
}

final class BGAppRefreshTask: BGTask {}

final class BGAppRefreshTaskRequest {
    let identifier: String
    var earliestBeginDate: Date?
    init(identifier: String) { self.identifier = identifier }
}

final class BGTaskScheduler: Sendable {
    static let shared = BGTaskScheduler()
    @discardableResult
    func register(forTaskWithIdentifier identifier: String, using queue: DispatchQueue?, launchHandler: @escaping @Sendable (BGTask) -> Void) -> Bool { true }
    func submit(_ request: BGAppRefreshTaskRequest) throws {}
    func cancel(taskRequestWithIdentifier identifier: String) {}
}

enum UNAuthorizationStatus: Sendable { case notDetermined, denied, authorized, provisional, ephemeral }

final class UNNotificationSettings: Sendable {
    let authorizationStatus: UNAuthorizationStatus = .authorized
}

final class UNMutableNotificationContent {
    var title = ""
    var badge: NSNumber?
}

final class UNNotificationTrigger {}

final class UNNotificationRequest {
    init(identifier: String, content: UNMutableNotificationContent, trigger: UNNotificationTrigger?) {}
}

final class UNUserNotificationCenter: Sendable {
    static func current() -> UNUserNotificationCenter { UNUserNotificationCenter() }
    func notificationSettings() async -> UNNotificationSettings { UNNotificationSettings() }
    func add(_ request: UNNotificationRequest, withCompletionHandler completionHandler: (@Sendable (Error?) -> Void)? = nil) {}
}
#endif
