import AppLogic
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(BackgroundTasks)
import BackgroundTasks
import UserNotifications
#endif

/// Drives RefreshLogic from BGTaskScheduler. All calls on the main queue: the logic's
/// state is a value, owned here, never shared between threads.
@MainActor
final class RefreshAdapter {
    static let taskIdentifier = "com.example.app.refresh"
    private let logic = RefreshLogic()
    private var state: RefreshState
    private var task: BGAppRefreshTask?
    private var requests: [RequestID: URLSessionTask] = [:]
    private var hardStop: Timer?
    private let defaults = UserDefaults.standard

    init() {
        // What reached the disk is the state after a termination. A time stamp is kept
        // on both clocks (wall, boot clock, boot), as three values under its key.
        let defaults = self.defaults
        func time(_ key: RefreshStoredKey) -> DeviceTime? {
            guard let wall = defaults.object(forKey: key.rawValue + ".wall") as? Int64,
                  let sinceBoot = defaults.object(forKey: key.rawValue + ".sinceBoot") as? Int64,
                  let boot = defaults.object(forKey: key.rawValue + ".boot") as? Int64 else { return nil }
            return DeviceTime(wall: Instant(unixMicroseconds: wall), sinceBoot: Interval(microseconds: sinceBoot), boot: UInt32(truncatingIfNeeded: boot))
        }
        let window = (defaults.object(forKey: RefreshStoredKey.notifiedWindow.rawValue) as? Int64).map { Instant(unixMicroseconds: $0) }
        state = RefreshState(persisted: .init(lastRefreshAt: time(.lastRefreshAt), notifiedWindow: window, lastAppOpenAt: time(.lastAppOpenAt)))
    }

    /// Call from `application(_:didFinishLaunchingWithOptions:)`.
    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.taskIdentifier, using: .main) { task in
            // Delivered on the main queue (`using: .main`), where the task stays.
            nonisolated(unsafe) let task = task as! BGAppRefreshTask
            MainActor.assumeIsolated { self.launched(task) }
        }
    }

    /// Call when the app comes to the foreground.
    func appOpened() { send(.appOpened) }

    private func launched(_ task: BGAppRefreshTask) {
        self.task = task
        task.expirationHandler = { MainActor.assumeIsolated { self.send(.taskExpired) } }
        Task { @MainActor in
            let settings = await UNUserNotificationCenter.current().notificationSettings()
            let context = RefreshLaunchContext(signedIn: Session.isSignedIn, networkReachable: Reachability.isReachable,
                                               notificationAuthorization: .init(settings.authorizationStatus),
                                               timeZoneIdentifier: TimeZone.current.identifier)
            send(.taskLaunched(context))
        }
    }

    private func send(_ input: RefreshInput) {
        var effects: [RefreshEffect] = []
        logic.handle(input, state: &state, now: .now, into: &effects)
        effects.forEach(perform)
    }

    private func perform(_ effect: RefreshEffect) {
        switch effect {
        case .scheduleRefresh(let earliest):
            let request = BGAppRefreshTaskRequest(identifier: Self.taskIdentifier)
            request.earliestBeginDate = Date(earliest)
            try? BGTaskScheduler.shared.submit(request)  // .unavailable: Background App Refresh is off
        case .cancelScheduledRefresh:
            BGTaskScheduler.shared.cancel(taskRequestWithIdentifier: Self.taskIdentifier)
        case .httpRequest(let id, let endpoint):
            var request = URLRequest(url: URL(string: endpoint.path, relativeTo: API.base)!)  // path and query
            request.httpMethod = endpoint.method
            let dataTask = URLSession.shared.dataTask(with: request) { data, response, error in
                let result = API.result(endpoint, data, response, error)  // the app's decoding into HTTPResult
                Task { @MainActor in self.requests[id] = nil; self.send(.httpResponse(id, result)) }
            }
            requests[id] = dataTask
            dataTask.resume()
        case .cancelRequests:
            requests.values.forEach { $0.cancel() }  // each answers .failed(.cancelled)
        case .startHardStopTimer(let after):
            hardStop = Timer.scheduledTimer(withTimeInterval: Double(after.microseconds) / 1e6, repeats: false) { _ in
                MainActor.assumeIsolated { self.send(.hardStopFired) }
            }
        case .cancelHardStopTimer:
            hardStop?.invalidate()
        case .completeTask(let success):
            task?.setTaskCompleted(success: success)  // the logic guarantees once per task
            task = nil
        case .postNotification(let notification):
            let content = UNMutableNotificationContent()
            content.title = "Your next test is ready"
            content.badge = notification.badge.map { NSNumber(value: $0) }  // nil: BadgeManager owns the badge
            UNUserNotificationCenter.current().add(UNNotificationRequest(identifier: "\(notification.kind)", content: content, trigger: nil))
        case .store(let key, let instant):
            defaults.set(instant.unixMicroseconds, forKey: key.rawValue)
        case .storeTime(let key, let time):
            defaults.set(time.wall.unixMicroseconds, forKey: key.rawValue + ".wall")
            defaults.set(time.sinceBoot.microseconds, forKey: key.rawValue + ".sinceBoot")
            defaults.set(Int64(time.boot), forKey: key.rawValue + ".boot")
        case .synchronize:
            // The seed-002 fix: these writes must survive a kill right after the task.
            defaults.synchronize()
        case .signOut:
            Session.signOut()
        case .analytics(let event):
            Analytics.log(event.name)
        }
    }
}

private extension DeviceTime {
    /// Both of the app's clocks now (docs/clocks.md): the wall clock, and the boot clock
    /// that keeps counting in deep sleep (CLOCK_MONOTONIC_RAW, which is
    /// mach_continuous_time), with the boot it counts from (`Boot.identity`: the app's
    /// reading of `sysctl kern.boottime`).
    static var now: DeviceTime {
        DeviceTime(wall: Instant(unixMicroseconds: Int64(Date().timeIntervalSince1970 * 1_000_000)),
                   sinceBoot: Interval(microseconds: Int64(clock_gettime_nsec_np(CLOCK_MONOTONIC_RAW) / 1_000)),
                   boot: Boot.identity)
    }
}

private extension Date {
    init(_ instant: Instant) { self.init(timeIntervalSince1970: Double(instant.unixMicroseconds) / 1_000_000) }
}

private extension NotificationAuthorization {
    init(_ status: UNAuthorizationStatus) {
        switch status {
        case .authorized, .ephemeral: self = .authorized
        case .provisional: self = .provisional
        case .denied: self = .denied
        default: self = .notDetermined
        }
    }
}
