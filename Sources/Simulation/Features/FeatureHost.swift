import SimKernel
import AppLogic

/// A feature host (docs/architecture.md, "The core and the feature hosts"): a feature's
/// logic, per-device state and effect buffer, a stored property of `World` handed the
/// core `inout`. ``World/deliver(_:_:_:)`` is the one "deliver an input, execute its
/// effects" loop every host shares; a host supplies only what differs.
protocol FeatureHost {
    /// The app logic of the world it lives in.
    associatedtype Logics: LogicSet
    associatedtype Input
    associatedtype Effect
    /// The feature's name in the traced device's story (`<name> <- <input>`).
    static var traceName: String { get }
    /// The reused buffer the logic writes its effects into (emptied before each input).
    var effects: [Effect] { get set }
    /// The logic handles `input` with the device's clock, into ``effects``.
    mutating func handle(_ d: UInt32, _ input: Input, core: inout WorldCore)
    /// Carries out one effect; returns what only the world can do (``HostRequest``).
    mutating func execute(_ effect: Effect, device d: UInt32, core: inout WorldCore) -> HostRequest?
    /// An answer the effects just executed got at once (a permission, a health-data
    /// read), delivered to the logic as its next input; nil when there is none.
    mutating func takeFollowUp(_ d: UInt32) -> Input?
    /// Runs `body` on this host, `world`'s stored property, beside the world's core: two
    /// distinct stored properties, which Swift lends at once with no copy. One line per
    /// host (`body(&world.features.<host>, &world.core)`), inlined into the loop.
    static func lend<R>(_ world: inout World<Logics>, _ body: (inout Self, inout WorldCore) -> R) -> R
}

/// What a feature host asks the world to carry out because it belongs to another part:
/// the network (a request's job slot is the host's), the process lifecycle, the OS seam
/// (the app's background task and works, by ``WorkID``; FCM's side on the phone), the
/// notification centre. Generic: no case names a feature; what is one feature's comes
/// back to it through the fan-outs (Features/Features.swift). The host returns it from
/// `execute`; the world carries it out at once (``World/carryOut(_:device:)``), so the
/// order of every draw and schedule stays the host's.
enum HostRequest {
    /// Send a request owned by the asking feature, which serves it through the backend
    /// model and hears its answer; the world hands the job back to the owner.
    case send(RequestID, Endpoint, RequestOwner)
    /// UserDefaults writes every feature's state to disk now.
    case persist(how: String)
    /// A notification the OS shows reaches the notification centre, with its content
    /// (the icon's number, if it sets one); the features that keep count hear of it.
    case notify(LocalNotification)
    /// The app posts a notification: the OS shows it if the permission allows, the
    /// feature that posted it hears it was shown, it reaches the notification centre
    /// (``notify(_:)``), and the user may tap it.
    case postNotification(LocalNotification)
    /// Ask the OS for `work`'s next run no earlier than `earliestBegin` (iOS: the app's
    /// background task request; Android: the work enqueued, KEEP), or cancel it.
    case submitTask(WorkID, earliestBegin: SimTime)
    case cancelTask(WorkID)
    /// The app's running background task is over (`setTaskCompleted`).
    case completeTask(success: Bool)
    /// Enqueue `work` as periodic work (Android's WorkManager; iOS has none).
    case enqueuePeriodicWork(WorkID, interval: Interval, constraints: AppLogic.WorkConstraints)
    /// `work`'s run returned its result (Android: the Worker's `Result`; iOS: the
    /// background delivery's completion handler).
    case finishWork(WorkID, success: Bool)
    /// A scheduled notification's time-interval trigger was set for `at` (Android backs
    /// it with a while-idle alarm).
    case notificationTriggerSet(at: SimTime)
    /// FCM's side on the phone (``FCMRequest``).
    case fcm(FCMRequest)
}

extension FeatureHost {
    /// A host whose effects never answer at once.
    mutating func takeFollowUp(_ d: UInt32) -> Input? { nil }
}

/// One API endpoint, declared by the feature that sends it: its path as report.json
/// names it, its kind code in the event hashes (fixed, so that no hash moves:
/// Core/EventHashes), and whether the client times it out (`backend.requestTimeout`).
struct EndpointRow {
    let path: String
    let hashCode: UInt32
    var timesOut = true
}
