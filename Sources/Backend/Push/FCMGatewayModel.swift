import SimKernel

/// Firebase Cloud Messaging as FleetSim models it (docs/platform-facts.md H):
/// - High priority reaches an online device at once, even in Doze; normal priority
///   waits while the device is idle (the caller says so: ``Reach/idle``) and is
///   delivered when it wakes.
/// - `ttl` 0 to 2 419 200 s (28 days): a message waiting longer is dropped; 0 means
///   now or never.
/// - Stored messages (offline, or normal priority while idle): at most 4 collapse keys,
///   a newer message replacing the one with its key; 100 non-collapsible messages, and
///   the 101st discards every stored message (the device is told of deleted messages).
/// - Per device: 240 messages a minute and 5 000 an hour; collapsible messages have a
///   burst of 20, refilled 1 per 3 min; over any of them, 429 QUOTA_EXCEEDED.
/// - Errors: 404 UNREGISTERED (a token rotated away or of an uninstalled app), 400
///   INVALID_ARGUMENT (payload over 4096 bytes, ttl out of range, a token never issued), 429 QUOTA_EXCEEDED; 403, 500 and 503 from the error-rate faults.
///
/// **Assumptions**: a 5th collapse key evicts the oldest key; the message that
/// overflows the 100 is discarded with the others; the rate windows are fixed minutes
/// and hours counted from the device's first message. High-priority deprioritisation
/// (docs/platform-facts.md H: highs without a visible notification, over 7 days) is not modelled.
public struct FCMGatewayModel: Sendable {
    public struct Configuration: Equatable, Sendable {
        /// **Assumption**: FCM answers in lognormal median 60 ms, p99 500 ms.
        public var answerLatency: Distribution = .lognormal(median: 60_000, p99: 500_000)
        /// **Assumption**: a reachable device gets a message in median 300 ms, p99 3 s.
        public var deliveryDelay: Distribution = .lognormal(median: 300_000, p99: 3_000_000)
        public var payloadLimit = 4096
        public var ttlMax: SimDuration = .seconds(2_419_200)
        public var collapseKeyLimit = 4
        public var storedLimit = 100
        public var perMinute = 240
        public var perHour = 5_000
        public var collapsibleBurst = 20
        public var collapsibleRefill: SimDuration = .minutes(3)
        public init() {}
    }

    /// Where the device is when a message arrives.
    public enum Reach: Hashable, Sendable { case offline, idle, active }

    public struct Request: Hashable, Sendable {
        public var token: GatewayToken
        public var message: UInt64
        public var highPriority: Bool
        public var ttl: SimDuration
        public var collapseKey: String?
        public var payloadBytes: Int
        public init(token: GatewayToken, message: UInt64, highPriority: Bool, ttl: SimDuration, collapseKey: String?, payloadBytes: Int) {
            self.token = token
            self.message = message
            self.highPriority = highPriority
            self.ttl = ttl
            self.collapseKey = collapseKey
            self.payloadBytes = payloadBytes
        }
    }

    /// What a device gets when it becomes reachable.
    public struct Flush: Hashable, Sendable {
        public var deliveries: [GatewayDelivery]
        /// Stored messages were discarded (`onDeletedMessages`).
        public var deletedMessages: Bool
        public init(deliveries: [GatewayDelivery], deletedMessages: Bool) {
            self.deliveries = deliveries
            self.deletedMessages = deletedMessages
        }
    }

    struct Stored: Hashable, Sendable {
        var message: UInt64
        var expires: SimTime
        var collapseKey: String?
    }

    /// One per device (56 bytes): the times first, then the counts and flags packed
    /// behind them. The counts are at most the configuration's per-minute and per-hour
    /// limits (240 and 5,000) and the burst at most its size (20): 32 bits hold them.
    struct Slot: Hashable, Sendable {
        var stored: [Stored] = []
        var minuteStart = SimTime.zero
        var hourStart = SimTime.zero
        var burstRefilledAt = SimTime.zero
        /// The last token generation issued to the device; 0: none yet.
        var generation: UInt32 = 0
        var minuteCount: Int32 = 0
        var hourCount: Int32 = 0
        /// Collapsible messages left in the burst; -1 until the first.
        var burst: Int32 = -1
        /// The app was uninstalled after `generation` was issued: every token it had is unregistered.
        var removed = false
        var deleted = false
    }

    public var config: Configuration
    public var faults = PushGatewayFaults()
    private var slots: [Slot]

    public init(deviceCount: Int, config: Configuration = .init()) {
        self.config = config
        slots = Array(hugePagesRepeating: Slot(), count: deviceCount)
    }

    /// The device obtained token `generation` (registration, rotation or a reinstall); older ones become unregistered.
    public mutating func tokenIssued(device: UInt32, generation: UInt32) {
        slots[Int(device)].generation = generation
        slots[Int(device)].removed = false
    }

    /// The app was uninstalled: its tokens answer 404 UNREGISTERED (docs/platform-facts.md H; seed `001`:
    /// "Device uninstalled app") and its stored messages and rate counts are dropped.
    public mutating func appRemoved(device: UInt32) {
        let generation = slots[Int(device)].generation
        slots[Int(device)] = Slot(generation: generation, removed: true)
    }

    public mutating func send(_ request: Request, reach: Reach, now: SimTime, rng: inout RandomStream) -> (GatewayAnswer, GatewayDelivery?) {
        if faults.outage { return (.unanswered, nil) }
        let latency = config.answerLatency.sampleDuration(&rng)
        func reject(_ status: Int, _ reason: String) -> (GatewayAnswer, GatewayDelivery?) {
            (.rejected(status: status, reason: reason, retryAfter: nil, latency: latency), nil)
        }
        if let status = faults.injectedStatus(&rng) { return reject(status, FCMGatewayModel.reason(status)) }
        let d = Int(request.token.device)
        if request.token.generation > slots[d].generation || request.token.generation == 0 { return reject(400, "INVALID_ARGUMENT") }
        if request.token.generation < slots[d].generation || slots[d].removed { return reject(404, "UNREGISTERED") }
        if request.payloadBytes > config.payloadLimit || request.ttl < .zero || request.ttl > config.ttlMax {
            return reject(400, "INVALID_ARGUMENT")
        }
        guard admit(d, collapsible: request.collapseKey != nil, now: now) else { return reject(429, "QUOTA_EXCEEDED") }

        let arrives = now + latency
        if reach == .active || (reach == .idle && request.highPriority) {
            let at = arrives + config.deliveryDelay.sampleDuration(&rng)
            return (.accepted(latency: latency), GatewayDelivery(message: request.message, device: request.token.device, at: at))
        }
        if request.ttl > .zero { store(Stored(message: request.message, expires: arrives + request.ttl, collapseKey: request.collapseKey), in: d) }
        return (.accepted(latency: latency), nil)
    }

    /// The device came online or out of idle: its stored messages that have not expired, oldest first.
    public mutating func deviceReachable(_ device: UInt32, now: SimTime) -> Flush {
        let d = Int(device)
        let flush = Flush(deliveries: slots[d].stored.filter { now < $0.expires }.map { GatewayDelivery(message: $0.message, device: device, at: now) },
                          deletedMessages: slots[d].deleted)
        slots[d].stored = []
        slots[d].deleted = false
        return flush
    }

    private mutating func store(_ message: Stored, in d: Int) {
        if let key = message.collapseKey {
            if let i = slots[d].stored.firstIndex(where: { $0.collapseKey == key }) {
                slots[d].stored.remove(at: i)
            } else if slots[d].stored.filter({ $0.collapseKey != nil }).count >= config.collapseKeyLimit,
                      let oldest = slots[d].stored.firstIndex(where: { $0.collapseKey != nil }) {
                slots[d].stored.remove(at: oldest)
            }
            slots[d].stored.append(message)
            return
        }
        if slots[d].stored.filter({ $0.collapseKey == nil }).count >= config.storedLimit {
            slots[d].stored = []
            slots[d].deleted = true
            return
        }
        slots[d].stored.append(message)
    }

    /// Counts a message against the device's rates; false when over one of them.
    private mutating func admit(_ d: Int, collapsible: Bool, now: SimTime) -> Bool {
        var s = slots[d]
        if s.minuteCount == 0 || now - s.minuteStart >= .minutes(1) { s.minuteStart = now; s.minuteCount = 0 }
        if s.hourCount == 0 || now - s.hourStart >= .hours(1) { s.hourStart = now; s.hourCount = 0 }
        guard s.minuteCount < config.perMinute, s.hourCount < config.perHour else { return false }
        if collapsible {
            if s.burst < 0 { s.burst = Int32(config.collapsibleBurst); s.burstRefilledAt = now }
            let refills = (now - s.burstRefilledAt).microseconds / config.collapsibleRefill.microseconds
            if refills > 0 {
                s.burst = Int32(min(config.collapsibleBurst, Int(s.burst) + Int(refills)))
                s.burstRefilledAt = s.burst == config.collapsibleBurst ? now : s.burstRefilledAt + config.collapsibleRefill * refills
            }
            guard s.burst > 0 else { return false }
            s.burst -= 1
        }
        s.minuteCount += 1
        s.hourCount += 1
        slots[d] = s
        return true
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 400: return "INVALID_ARGUMENT"
        case 403: return "SENDER_ID_MISMATCH"
        case 404: return "UNREGISTERED"
        case 429: return "QUOTA_EXCEEDED"
        case 500: return "INTERNAL"
        case 503: return "UNAVAILABLE"
        default: return "STATUS_\(status)"
        }
    }
}
