import SimKernel

/// Apple Push Notification service as FleetSim models it (docs/platform-facts.md G):
/// - `apns-priority` 10 is delivered at once to an online device; 5 after a delay
///   "based on power considerations"; 1 later still, as it "does not wake the device".
/// - `apns-expiration`: at or before `now` means one attempt and no storage; otherwise
///   an offline device's notification is stored until it comes online, at most 30 days.
/// - Offline storage keeps one notification per app, the latest (the pre-2024 rule; the
///   June 2024 multi-message queue is not modelled). A collapse id replacing a shown
///   notification is the phone's business (its notification centre), not the gateway's.
/// - `apns-collapse-id` at most 64 bytes; payload at most 4096 bytes.
/// - Errors: 400 BadDeviceToken / BadCollapseId / BadPriority, 410 Unregistered (a token
///   issued but no longer held: rotated, or the app uninstalled), 413 PayloadTooLarge; 403, 405, 429, 500 and 503 come
///   from the error-rate faults only (their causes, certificates, methods and per-token
///   rates, are not modelled).
/// - An outage answers nothing.
///
/// Random draws (answer latency, delivery delay, injected errors) come from the stream
/// the caller passes: the sending device's own, so other devices' traffic never shifts them.
public struct APNsGatewayModel: Sendable {
    public struct Configuration: Equatable, Sendable {
        /// **Assumption**: APNs answers in lognormal median 40 ms, p99 400 ms (seed `001`
        /// targets a provider latency p95 under 500 ms).
        public var answerLatency: Distribution = .lognormal(median: 40_000, p99: 400_000)
        /// **Assumption**: priority 10 reaches an online device in median 300 ms, p99 3 s.
        public var immediateDelay: Distribution = .lognormal(median: 300_000, p99: 3_000_000)
        /// **Assumption**: priority 5 in median 2 min, p99 30 min ("based on power considerations").
        public var powerDelay: Distribution = .lognormal(median: 120e6, p99: 1_800e6)
        /// **Assumption**: priority 1 in median 30 min, p99 4 h ("does not wake the device").
        public var powerFirstDelay: Distribution = .lognormal(median: 1_800e6, p99: 14_400e6)
        /// docs/platform-facts.md G: 4096 bytes.
        public var payloadLimit = 4096
        /// docs/platform-facts.md G: 64 bytes.
        public var collapseIdLimit = 64
        /// docs/platform-facts.md G: stored and retried for up to 30 days.
        public var storageLimit: SimDuration = .days(30)
        public init() {}
    }

    public struct Request: Hashable, Sendable {
        public var token: GatewayToken
        /// The caller's id for the message, handed back in deliveries.
        public var message: UInt64
        /// `apns-priority`: 10, 5 or 1.
        public var priority: Int
        /// `apns-expiration`; at or before the send time, one attempt only.
        public var expiration: SimTime
        public var collapseId: String?
        public var payloadBytes: Int
        public init(token: GatewayToken, message: UInt64, priority: Int, expiration: SimTime, collapseId: String?, payloadBytes: Int) {
            self.token = token
            self.message = message
            self.priority = priority
            self.expiration = expiration
            self.collapseId = collapseId
            self.payloadBytes = payloadBytes
        }
    }

    struct Stored: Hashable, Sendable {
        var message: UInt64
        var expiration: SimTime
    }

    struct Slot: Hashable, Sendable {
        /// The last token generation issued to the device; 0: none yet.
        var generation: UInt32 = 0
        /// The app was uninstalled after `generation` was issued: every token it had is unregistered.
        var removed = false
        var stored: Stored?
    }

    public var config: Configuration
    public var faults = PushGatewayFaults()
    private var slots: [Slot]

    /// A gateway for devices `0 ..< deviceCount`, none holding a token yet.
    public init(deviceCount: Int, config: Configuration = .init()) {
        self.config = config
        slots = Array(hugePagesRepeating: Slot(), count: deviceCount)
    }

    /// The device obtained token `generation` (registration or rotation, or a reinstall);
    /// older ones become unregistered.
    public mutating func tokenIssued(device: UInt32, generation: UInt32) {
        slots[Int(device)].generation = generation
        slots[Int(device)].removed = false
    }

    /// The app was uninstalled: its tokens answer 410 Unregistered (seed `001`: "Unregistered |
    /// 410 | Device uninstalled app") and its stored notification is dropped.
    public mutating func appRemoved(device: UInt32) {
        slots[Int(device)].removed = true
        slots[Int(device)].stored = nil
    }

    /// Answers a send and, if accepted for an online device, when it is delivered. An
    /// accepted send to an offline device is stored (replacing any earlier one) unless
    /// its expiration is already past, in which case it is dropped.
    public mutating func send(_ request: Request, deviceOnline: Bool, now: SimTime, rng: inout RandomStream) -> (GatewayAnswer, GatewayDelivery?) {
        if faults.outage { return (.unanswered, nil) }
        let latency = config.answerLatency.sampleDuration(&rng)
        func reject(_ status: Int, _ reason: String) -> (GatewayAnswer, GatewayDelivery?) {
            (.rejected(status: status, reason: reason, retryAfter: nil, latency: latency), nil)
        }
        if let status = faults.injectedStatus(&rng) { return reject(status, APNsGatewayModel.reason(status)) }
        let slot = slots[Int(request.token.device)]
        // A token never issued is malformed (400); one issued, then replaced or uninstalled, is gone (410).
        if request.token.generation > slot.generation || request.token.generation == 0 { return reject(400, "BadDeviceToken") }
        if request.token.generation < slot.generation || slot.removed { return reject(410, "Unregistered") }
        if request.payloadBytes > config.payloadLimit { return reject(413, "PayloadTooLarge") }
        if let id = request.collapseId, id.utf8.count > config.collapseIdLimit { return reject(400, "BadCollapseId") }
        let delay: Distribution
        switch request.priority {
        case 10: delay = config.immediateDelay
        case 5: delay = config.powerDelay
        case 1: delay = config.powerFirstDelay
        default: return reject(400, "BadPriority")
        }
        let arrives = now + latency
        if deviceOnline {
            return (.accepted(latency: latency), GatewayDelivery(message: request.message, device: request.token.device, at: arrives + delay.sampleDuration(&rng)))
        }
        if request.expiration > arrives {
            let keepUntil = min(request.expiration, arrives + config.storageLimit)
            slots[Int(request.token.device)].stored = Stored(message: request.message, expiration: keepUntil)
        }
        return (.accepted(latency: latency), nil)
    }

    /// The device came online: its stored notification, unless it has expired.
    public mutating func deviceCameOnline(_ device: UInt32, now: SimTime) -> GatewayDelivery? {
        guard let stored = slots[Int(device)].stored else { return nil }
        slots[Int(device)].stored = nil
        guard now < stored.expiration else { return nil }
        return GatewayDelivery(message: stored.message, device: device, at: now)
    }

    /// The reason APNs gives with an injected `status` (docs/platform-facts.md G). An injected 400
    /// is a bad request (`BadTopic`), not a bad token: the fault tests the rule "no retry on
    /// 4xx" without expiring tokens; the model's own token checks answer `BadDeviceToken`.
    static func reason(_ status: Int) -> String {
        switch status {
        case 400: return "BadTopic"
        case 403: return "InvalidProviderToken"
        case 405: return "MethodNotAllowed"
        case 410: return "Unregistered"
        case 413: return "PayloadTooLarge"
        case 429: return "TooManyRequests"
        case 500: return "InternalServerError"
        case 503: return "ServiceUnavailable"
        default: return "Status\(status)"
        }
    }
}
