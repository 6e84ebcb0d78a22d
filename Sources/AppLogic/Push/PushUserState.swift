/// One registered device of a user (seed `001`, "Device Registration Entity"), as the
/// registry keeps it: its current token, that token's status, and the times the
/// lifecycle reads. 34 bytes (stride 40): three times, then the 9-byte token and the
/// status. The last validation and the expiry share one time, since a token is either
/// in use (validated, and read as such) or expired (and read for the purge): an expired
/// token's validation time is never read, and re-registering it starts a new one.
public struct PushDeviceRecord: Hashable, Sendable {
    /// The last app use on the device or the last notification a provider accepted for it
    /// (`lastUsedAt`): the 90-day deactivation clock.
    public internal(set) var lastUsedAt: Instant
    /// The user's last use of the app on this device (an app open or in-app activity, or a
    /// registration, which happens at a launch): what "most recently used device" ranks by
    /// (seed `001`, "Multi-Device Management"). Pushes and token rotations do not move it.
    public internal(set) var lastActiveAt: Instant
    /// ``lastValidatedAt`` while the token is not expired, ``expiredAt`` once it is.
    private var checkedAt: Instant
    public private(set) var token: PushToken
    public private(set) var status: PushTokenStatus

    /// A token registered (or re-registered) `now`: active, validated now, used now.
    init(token: PushToken, now: Instant, lastActiveAt: Instant) {
        lastUsedAt = now
        self.lastActiveAt = lastActiveAt
        checkedAt = now
        self.token = token
        status = .active
    }

    public var device: PushDeviceID { token.device }

    /// The last time a provider accepted a push to this token (or the token was
    /// registered); nil once the token expired.
    public var lastValidatedAt: Instant? { status == .expired ? nil : checkedAt }

    /// When the token was marked expired; nil while it is not.
    public var expiredAt: Instant? { status == .expired ? checkedAt : nil }

    /// A provider accepted a push to the token: validated, unless it expired meanwhile
    /// (an answer to a send made before the 410), which changes nothing.
    mutating func validated(at now: Instant) {
        if status != .expired { checkedAt = now }
    }

    /// The provider reported the token gone.
    mutating func expire(at now: Instant) {
        status = .expired
        checkedAt = now
    }

    /// Unused for 90 days, or used again: between active and inactive only (an expired
    /// token becomes active again only by re-registering).
    mutating func setInUse(_ active: Bool) {
        precondition(status == .active || status == .inactive, "only an unexpired token goes between active and inactive")
        status = active ? .active : .inactive
    }
}

/// A user's registered devices in registration order: a collection that keeps the first
/// (for nearly every user the only) record inline and an array only for two or more.
/// 34 bytes, the case in the record's spare bits; an array of one record took 8 bytes
/// and a 96-byte heap block (a 32-byte header and 56 bytes of record, rounded up).
public struct PushDevices: RandomAccessCollection, Hashable, Sendable {
    private enum Storage: Hashable, Sendable {
        case none
        case one(PushDeviceRecord)
        /// Two or more, never fewer: a removal that leaves one moves it back inline, so
        /// equal collections have equal storage.
        case many([PushDeviceRecord])
    }
    private var storage = Storage.none

    public init() {}

    public var startIndex: Int { 0 }
    public var endIndex: Int {
        switch storage {
        case .none: 0
        case .one: 1
        case .many(let records): records.count
        }
    }

    public internal(set) subscript(i: Int) -> PushDeviceRecord {
        get {
            switch storage {
            case .none: preconditionFailure("index out of range")
            case .one(let record):
                precondition(i == 0, "index out of range")
                return record
            case .many(let records): return records[i]
            }
        }
        // A plain setter: the record is 34 bytes, and a `_modify` coroutine's frame for it
        // did not fit the caller's buffer, so each change allocated one (malloc and free).
        set {
            switch storage {
            case .none: preconditionFailure("index out of range")
            case .one:
                precondition(i == 0, "index out of range")
                storage = .one(newValue)
            case .many(var records):
                // Out of the enum first, so the array is uniquely referenced and changes in place.
                storage = .none
                records[i] = newValue
                storage = .many(records)
            }
        }
    }

    mutating func append(_ record: PushDeviceRecord) {
        switch storage {
        case .none: storage = .one(record)
        case .one(let first): storage = .many([first, record])
        case .many(var records):
            storage = .none
            records.append(record)
            storage = .many(records)
        }
    }

    mutating func remove(at i: Int) {
        switch storage {
        case .none: preconditionFailure("index out of range")
        case .one:
            precondition(i == 0, "index out of range")
            storage = .none
        case .many(var records):
            storage = .none
            records.remove(at: i)
            storage = records.count == 1 ? .one(records[0]) : .many(records)
        }
    }

    /// Whether the records are in an array (two or more).
    var isOutOfLine: Bool {
        if case .many = storage { return true }
        return false
    }
}

/// One user's pipeline state: the device registry, the central unread count, the
/// limits' counters, what quiet hours hold, and the sends in flight. Plain values;
/// its arrays stay empty (no allocation) for a user with nothing in flight: the last
/// send or job to end frees its array's buffer (``removeSend(at:)``, ``removeJob(at:)``),
/// so a fleet of mostly idle users holds no buffers between pushes.
///
/// Layout (112 bytes, one per push user): the device records inline after the settings
/// (``PushDevices``, 34 bytes), the one-byte counters in their padding and the send
/// counter and the badge counts after the week, so the fields are in size order, not
/// by topic; the optional instants are ``PackedInstant``s behind accessors of their names.
/// The four arrays of what is held, queued and being pushed live out of line
/// (``PushPending``), allocated only while one of them is not empty: 8 bytes a user
/// instead of 32 (a fleet's users hold something for at most 4 % of them at once).
public struct PushUserState: Hashable, Sendable {
    public var settings: PushUserSettings
    public internal(set) var devices = PushDevices()
    /// Normal pushes sent on local day `normalDay`.
    var normalCount: UInt8 = 0
    /// High pushes sent in local week `highWeek`.
    var highCount: UInt8 = 0
    var normalDay: Int32 = .min
    var highWeek: Int32 = .min
    var nextSend: UInt32 = 0
    /// The two badge counts in 32 bits each, after the send counter (8 bytes, where two
    /// `Int`s took 16): the badge is at most the notifications a run creates for one user.
    private var unreadCount: Int32 = 0
    private var lastBadgeCount: Int32 = 0
    var pending = PushPending.Storage()
    /// Normal notifications held for the summary at the end of quiet hours.
    public internal(set) var heldNormal: [NotificationID] {
        get { pending.read { $0.heldNormal } }
        _modify { yield &pending.value.heldNormal }
    }
    /// High notifications queued until the end of quiet hours, with their creation time.
    var queuedHigh: [QueuedPush] {
        get { pending.read { $0.queuedHigh } }
        _modify { yield &pending.value.queuedHigh }
    }
    /// Notifications being pushed.
    var jobs: [PushJob] {
        get { pending.read { $0.jobs } }
        _modify { yield &pending.value.jobs }
    }
    /// Sends awaiting an answer or a retry.
    var sends: [PushSendRecord] {
        get { pending.read { $0.sends } }
        _modify { yield &pending.value.sends }
    }
    /// The central unread count: the badge every push carries.
    public internal(set) var unread: Int {
        get { Int(unreadCount) }
        set { unreadCount = Int32(newValue) }
    }
    /// The badge the last push carried; the daily sync sends one when `unread` differs.
    var lastBadgeSent: Int {
        get { Int(lastBadgeCount) }
        set { lastBadgeCount = Int32(newValue) }
    }
    /// The last in-app activity on any of the user's devices.
    public internal(set) var lastActiveAt: Instant? {
        get { packedLastActiveAt.value }
        set { packedLastActiveAt.value = newValue }
    }
    var quietReleaseAt: Instant? {
        get { packedQuietReleaseAt.value }
        set { packedQuietReleaseAt.value = newValue }
    }
    var nextDailyAt: Instant? {
        get { packedNextDailyAt.value }
        set { packedNextDailyAt.value = newValue }
    }
    private var packedLastActiveAt = PackedInstant()
    private var packedQuietReleaseAt = PackedInstant()
    private var packedNextDailyAt = PackedInstant()

    public init(settings: PushUserSettings) { self.settings = settings }

    /// Sends awaiting a provider's answer or a retry.
    public var sendsInFlight: Int { sends.count }
    /// Notifications still being pushed (awaiting answers, escalation or the 15 min check).
    public var notificationsInFlight: Int { jobs.count }

    /// Removes send `s`; the last one frees the buffer (a plain `remove(at:)` keeps it).
    mutating func removeSend(at s: Int) -> PushSendRecord { pending.value.removeSend(at: s) }

    /// Removes job `j`; the last one frees the buffer.
    mutating func removeJob(at j: Int) { pending.value.removeJob(at: j) }

    /// Whether the server still holds notification `id`: held or queued through quiet
    /// hours, or being pushed (a send awaiting an answer or a retry, or a high push
    /// awaiting its 5 min or 15 min rule).
    public func holds(_ id: NotificationID) -> Bool {
        heldNormal.contains(id) || queuedHigh.contains { $0.request.id == id } || jobs.contains { $0.id == id }
    }
}

/// What a user's server holds for it: notifications held or queued through quiet hours,
/// being pushed, and their sends. Usually all empty, so ``PushUserState`` keeps it out
/// of line in a ``Storage``, allocated only while something is held.
struct PushPending: Hashable, Sendable {
    var heldNormal: [NotificationID] = []
    var queuedHigh: [QueuedPush] = []
    var jobs: [PushJob] = []
    var sends: [PushSendRecord] = []

    var isEmpty: Bool { heldNormal.isEmpty && queuedHigh.isEmpty && jobs.isEmpty && sends.isEmpty }

    /// ``PushUserState/removeSend(at:)`` in one access to the box.
    mutating func removeSend(at s: Int) -> PushSendRecord {
        let record = sends.remove(at: s)
        if sends.isEmpty { sends = [] }
        return record
    }

    mutating func removeJob(at j: Int) {
        jobs.remove(at: j)
        if jobs.isEmpty { jobs = [] }
    }

    /// A ``PushPending`` out of line, with value semantics: nil (8 bytes, no allocation)
    /// while empty; a change that leaves it not empty allocates its box, one that empties
    /// it frees the box, and a change to a shared box copies it first.
    struct Storage: Hashable, Sendable {
        /// Only mutated through ``value`` when uniquely referenced, so never while shared.
        private final class Box: @unchecked Sendable {
            @exclusivity(unchecked) var value: PushPending
            init(_ value: PushPending) { self.value = value }
        }
        private var box: Box?

        /// What `body` reads of the value: a plain call the optimiser inlines, where a
        /// `_read` coroutine (not inlined) made callers copy the whole owner around it.
        @inline(__always) func read<R>(_ body: (PushPending) -> R) -> R {
            if let box { return body(box.value) }
            return body(PushPending())
        }

        var value: PushPending {
            get { read { $0 } }
            _modify {
                if box == nil {
                    var fresh = PushPending()
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

        static func == (a: Storage, b: Storage) -> Bool { a.box === b.box || a.value == b.value }
        func hash(into hasher: inout Hasher) { hasher.combine(value) }
    }
}

/// An `Instant?` in 8 bytes, where the optional takes 16 inside a struct: nil is
/// `Int64.min` µs, an instant no run reaches.
struct PackedInstant: Hashable, Sendable {
    private var microseconds = Int64.min

    var value: Instant? {
        get { microseconds == .min ? nil : Instant(unixMicroseconds: microseconds) }
        set {
            assert(newValue?.unixMicroseconds != .min, "Int64.min µs stands for nil")
            microseconds = newValue?.unixMicroseconds ?? .min
        }
    }
}

struct QueuedPush: Hashable, Sendable {
    var request: PushNotificationRequest
    var createdAt: Instant
}

/// A notification being pushed to one or more devices.
struct PushJob: Hashable, Sendable {
    enum Source: Hashable, Sendable {
        case request(PushNotificationRequest)
        case summary(count: Int)
    }
    var id: NotificationID
    var priority: PushPriority
    var source: Source
    var expiration: Instant
    /// The device tried first (high priority escalates to the others).
    var firstDevice: PushDeviceID
    /// Sends not yet ended.
    var outstanding = 0
    var accepted = false
    var delivered = false
    var escalated = false
    var emailed = false
    /// The 15 min check of a high push has run.
    var delayChecked = false

    var collapseId: String? {
        if case .request(let request) = source { return request.collapseId }
        return nil
    }
}

/// One send to a provider, across its retries (each attempt has a new id).
struct PushSendRecord: Hashable, Sendable {
    enum Purpose: Hashable, Sendable {
        case notification(NotificationID)
        case badge
        case validation
    }
    var id: PushSendID
    var purpose: Purpose
    var token: PushToken
    var payload: PushPayload
    var priority: PushPriority
    var collapseId: String?
    var expiration: Instant
    var retries = 0
    var waitingRetry = false
}
