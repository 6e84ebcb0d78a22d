import SimKernel
import AppLogic
import Platform
import Backend
import Scenario

/// Where a created notification ended, judged from what the world saw (the oracle's
/// accounting, docs/report.md): every notification ends in one of these or is in flight at the end.
enum PushOutcome: UInt8, CaseIterable {
    case pending
    /// It reached a device of the user (or a summary carrying it did).
    case delivered
    /// It fell back to email (seed `001`, "Fallback Mechanism").
    case emailed
    /// Its TTL passed before it reached a device.
    case expired
    /// A rule gave it no push (opt-out, limits, activity, low priority, no device).
    case suppressed
    /// Every device failed and the user has no email.
    case failed
    /// The provider dropped it by its documented rules: APNs keeps one stored
    /// notification per app (docs/platform-facts.md G), FCM discards all at 101 (H).
    case droppedByProvider
    /// It was on its way to (or stored for) an app the user had uninstalled.
    case uninstalled
}

/// One created notification, as the world's ledger keeps it (index = `NotificationID`).
/// Fields in size order (32 bytes, one per notification of the run).
struct PushLedgerEntry {
    var createdAt: SimTime
    /// The first time a send of it went to a provider.
    var firstSentAt = SimTime.never
    var user: UInt32
    /// The summary that carried it; its own id when none.
    var via: UInt32
    /// Sends queued or awaiting an answer, plus accepted messages not yet arrived (or still stored).
    var live: Int32 = 0
    var priority: PushPriority
    var outcome = PushOutcome.pending
    /// Its category (``PushCategory``'s raw value), for the opt-out's judge.
    var category: UInt8
    /// How its last message ended, kept for when the router lets go of it afterwards
    /// (a message dropped while its send still awaited the provider's answer).
    var lastEnd = PushOutcome.pending
}

/// A send the push service handed (or will hand) to a provider.
struct PushInflight {
    var user: UInt32
    var send: PushSendID
    var token: PushToken
    var payload: PushPayload
    var priority: PushPriority
    /// The provider's priority the router chose (APNs 10 or 5, FCM high or normal).
    var platformPriority: PushPlatformPriority
    var collapseId: String?
    var expiration: Instant
    /// The notification it carries, or -1 (a silent push).
    var notification: Int64
    var generation: UInt32 = 0
    var result: PushProviderResult = .timedOut
    var sentAt = SimTime.zero
    var latency = SimDuration.zero
    /// When it reached the push service (before any wait for a stream), for ``RequestRecorder``.
    var arrivedAt = SimTime.zero
    /// It holds one of the provider's concurrent streams.
    var streaming = false
    var free = false
}

/// A message a provider accepted, until it reaches the device (or is dropped or expires).
/// Fields in size order (24 bytes, one per accepted message of the run): the flags in one byte.
struct PushMessage {
    var notification: Int64
    /// FCM: held by Doze or a force-stop since then, or `never`.
    var heldSince = SimTime.never
    var user: UInt32
    var priority: PushPriority
    var flags: Flags

    struct Flags: OptionSet {
        let rawValue: UInt8
        static let silent = Flags(rawValue: 1 << 0)
        static let collapsible = Flags(rawValue: 1 << 1)
        /// FCM: delivered as high priority, so it temp-allow-lists the app (AndroidHost+FCMDelivery).
        static let wakesApp = Flags(rawValue: 1 << 2)
        /// Sent at the provider's high priority (`apns-priority` 10): the iOS throttle
        /// refuses a silent push sent so.
        static let urgent = Flags(rawValue: 1 << 3)
    }

    init(notification: Int64, heldSince: SimTime, user: UInt32, priority: PushPriority, silent: Bool, collapsible: Bool,
         wakesApp: Bool, urgent: Bool) {
        self.notification = notification
        self.heldSince = heldSince
        self.user = user
        self.priority = priority
        flags = []
        if silent { flags.insert(.silent) }
        if collapsible { flags.insert(.collapsible) }
        if wakesApp { flags.insert(.wakesApp) }
        if urgent { flags.insert(.urgent) }
    }

    var silent: Bool { flags.contains(.silent) }
    var collapsible: Bool { flags.contains(.collapsible) }
    var wakesApp: Bool { flags.contains(.wakesApp) }
    /// The `apns-priority` it was sent with.
    var apnsPriority: Int { flags.contains(.urgent) ? 10 : 5 }
}

/// The push service's sending queue for one provider (`backend.push`).
struct PushDispatcher {
    var queue = RingBuffer<UInt32>(capacity: 64)
    var streaming = 0
    var peakStreaming = 0
    var peakQueue = 0
}

/// Ground truth of one push user that the oracle needs (never the router's beliefs).
/// Its one-byte fields sit in the padding at the end of ``SilentPushState`` (64 bytes).
/// The four lists are usually all empty (at most 0.2 % of the bench's users hold one at
/// a time), so they live out of line (``PushUserLists``): 8 bytes a user, not 32.
struct PushUserTruth {
    var device: UInt32
    /// The token generation the device holds (0: none obtained yet).
    var generation: UInt32 = 0
    var lists = PushUserLists.Storage()
    /// The generations a provider answered 410/404 (or BadDeviceToken) for and the device
    /// has not registered since.
    var gone: [UInt32] {
        get { lists.read { $0.gone } }
        _modify { yield &lists.value.gone }
    }
    /// Requests a provider refused with a client error (token generation, expiration,
    /// priority): the same request sent again is a retried client error.
    var refused: [RefusedSend] {
        get { lists.read { $0.refused } }
        _modify { yield &lists.value.refused }
    }
    /// Collapse-id notifications in Notification Centre since the last open.
    var shownCollapsed: [UInt32] {
        get { lists.read { $0.shownCollapsed } }
        _modify { yield &lists.value.shownCollapsed }
    }
    /// Messages the provider stores for the device while it is offline.
    var stored: [UInt32] {
        get { lists.read { $0.stored } }
        _modify { yield &lists.value.stored }
    }
    /// Draws of the token rotations and uninstalls (`fleet[].push`), its own stream so the
    /// other push draws do not shift (as a position: ``StreamPosition``).
    var lifecycle = StreamPosition.start
    var silent: SilentPushState
    /// The registry's status of that token, as the server wrote it (`markToken`).
    var registryStatus: PushTokenStatus? = nil
    /// The app is uninstalled (its tokens unregistered at the provider) until the user's next open reinstalls it.
    var uninstalled = false
    var provider: PushProvider
}

/// A push user's lists of ground truth (``PushUserTruth``), kept out of line.
struct PushUserLists {
    var gone: [UInt32] = []
    var refused: [RefusedSend] = []
    var shownCollapsed: [UInt32] = []
    var stored: [UInt32] = []

    var isEmpty: Bool { gone.isEmpty && refused.isEmpty && shownCollapsed.isEmpty && stored.isEmpty }

    /// The lists out of line, with value semantics: nil (8 bytes, no allocation) while
    /// all are empty; a change that leaves one not empty allocates the box, one that
    /// empties them all frees it, and a change to a shared box copies it first. The
    /// same box as AppLogic's `PushPending.Storage`, written out for this type: one
    /// generic shared by both modules measured 0.25 % more instructions (its accessors'
    /// cleanups not inlined; docs/performance.md#no-whole-world-copies).
    struct Storage {
        private final class Box {
            @exclusivity(unchecked) var value: PushUserLists
            init(_ value: PushUserLists) { self.value = value }
        }
        private var box: Box?

        /// What `body` reads of the value: a plain call the optimiser inlines, where a
        /// `_read` coroutine (not inlined) made callers copy the whole owner around it.
        @inline(__always) func read<R>(_ body: (PushUserLists) -> R) -> R {
            if let box { return body(box.value) }
            return body(PushUserLists())
        }

        var value: PushUserLists {
            get { read { $0 } }
            _modify {
                if box == nil {
                    var fresh = PushUserLists()
                    defer { if !fresh.isEmpty { box = Box(fresh) } }
                    yield &fresh
                } else {
                    if !isKnownUniquelyReferenced(&box!) { box = Box(box!.value) }
                    defer { if box!.value.isEmpty { box = nil } }
                    yield &box!.value
                }
            }
        }

        var isAllocated: Bool { box != nil }
    }
}

struct RefusedSend: Equatable {
    var generation: UInt32
    var expiration: Int64
    var priority: PushPriority
}

/// The timers the router asked for, with the notification a retry belongs to.
struct PushTimerSlot {
    var user: UInt32
    var timer: PushTimer
    var notification: Int64
}

/// An input for one push user's router, and the notification it concerns (-1: none),
/// for the ledger: what a host step hands the world to deliver (World+Push's `deliverPush`).
struct PushDelivery {
    var user: Int
    var input: PushInput
    var context: Int64
}

extension PushLogicConfig {
    /// The router's configuration from the scenario's `logic.push`.
    var configuration: PushConfiguration {
        func interval(_ d: SimDuration) -> Interval { Interval(microseconds: d.microseconds) }
        var c = PushConfiguration()
        c.activityWindow = interval(activityWindow)
        c.highEscalationDelay = interval(highEscalationDelay)
        c.highEmailDelay = interval(highEmailDelay)
        c.normalPerDay = normalPerDay
        c.highPerWeek = highPerWeek
        c.retryDelays = retryDelays.map(interval)
        c.providerTimeout = interval(providerTimeout)
        c.rateLimitBackoff = interval(rateLimitBackoff)
        c.ttlHigh = interval(ttlHigh)
        c.ttlNormal = interval(ttlNormal)
        c.ttlLow = interval(ttlLow)
        c.validationInterval = interval(validationInterval)
        c.inactiveAfter = interval(inactiveAfter)
        c.purgeAfter = interval(purgeAfter)
        c.maintenanceInterval = interval(maintenanceInterval)
        c.titleLimit = titleLimit
        c.bodyLimit = bodyLimit
        c.apnsPayloadLimit = apnsPayloadLimit
        c.fcmPayloadLimit = fcmPayloadLimit
        return c
    }
}
