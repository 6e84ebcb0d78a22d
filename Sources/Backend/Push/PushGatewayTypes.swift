import SimKernel

/// A device's push token as a provider knows it: the device and which of its tokens.
public struct GatewayToken: Hashable, Sendable {
    public var device: UInt32
    public var generation: UInt32
    public init(device: UInt32, generation: UInt32) {
        self.device = device
        self.generation = generation
    }
}

/// How a provider answered a send.
public enum GatewayAnswer: Hashable, Sendable {
    /// 200, after `latency`.
    case accepted(latency: SimDuration)
    /// An error status and the provider's reason (docs/platform-facts.md G and H), after `latency`.
    case rejected(status: Int, reason: String, retryAfter: SimDuration?, latency: SimDuration)
    /// No answer at all (an outage): the client times out.
    case unanswered
}

/// A message handed to the device at `at`.
public struct GatewayDelivery: Hashable, Sendable {
    public var message: UInt64
    public var device: UInt32
    public var at: SimTime
    public init(message: UInt64, device: UInt32, at: SimTime) {
        self.message = message
        self.device = device
        self.at = at
    }
}

/// The `pushProviderOutage` and `pushProviderErrors` faults in force (docs/scenario.md, "Fault kinds").
/// Faults may overlap: each start is undone by its own end.
public struct PushGatewayFaults: Hashable, Sendable {
    public private(set) var outages = 0
    /// `(status, rate)` of each error fault in force, in start order.
    public private(set) var errors: [ErrorRate] = []

    public struct ErrorRate: Hashable, Sendable {
        public var status: Int
        public var rate: Double
        public init(status: Int, rate: Double) { self.status = status; self.rate = rate }
    }

    public init() {}
    public var outage: Bool { outages > 0 }
    public mutating func outageStarts() { outages += 1 }
    public mutating func outageEnds() { outages -= 1 }
    public mutating func errorsStart(_ e: ErrorRate) { errors.append(e) }
    public mutating func errorsEnd(_ e: ErrorRate) {
        if let i = errors.firstIndex(of: e) { errors.remove(at: i) }
    }

    /// The injected status for one send, or nil: one uniform draw when any error fault is
    /// in force, falling into the faults' rates in start order (rates summing past 1 saturate).
    func injectedStatus(_ rng: inout RandomStream) -> Int? {
        guard !errors.isEmpty else { return nil }
        var x = rng.uniform()
        for e in errors {
            if x < e.rate { return e.status }
            x -= e.rate
        }
        return nil
    }
}
