import SimKernel

/// The API server as a queueing system: `workers` requests in service at once, the
/// rest waiting first-in first-out; a request arriving to a full queue is answered
/// 503 at once; during an outage nothing answers (the client times out). Service
/// times are drawn by the caller (from the requesting device's stream) and multiplied
/// by ``slowdown`` (`backendSlowdown` fault).
public struct APIServerModel: Sendable {
    public let workers: Int
    public let queueLimit: Int
    public let serviceTime: Distribution
    /// An endpoint's own service time by its row in the endpoint table (`backend.endpoints`),
    /// nil for one that draws from ``serviceTime``; empty when no endpoint has its own.
    public let endpointServiceTimes: [Distribution?]
    public private(set) var busy = 0
    /// Factors of the `backendSlowdown` faults in force, in start order.
    public private(set) var slowdowns: [Double] = []
    /// `backendOutage` faults in force.
    public private(set) var outages = 0
    public var slowdown: Double { slowdowns.reduce(1, *) }
    public var outage: Bool { outages > 0 }
    private var waiting = RingBuffer<Waiting>(capacity: 64)

    public struct Waiting: Sendable {
        public var job: UInt32
        public var since: SimTime
    }

    public enum Admission: Equatable, Sendable {
        /// A worker takes it now.
        case serve
        /// It waits for a worker.
        case queued
        /// Queue full: 503.
        case rejected
        /// Outage: no answer.
        case unanswered
    }

    public init(workers: Int, queueLimit: Int, serviceTime: Distribution, endpointServiceTimes: [Distribution?] = []) {
        self.workers = workers
        self.queueLimit = queueLimit
        self.serviceTime = serviceTime
        self.endpointServiceTimes = endpointServiceTimes.contains { $0 != nil } ? endpointServiceTimes : []
    }

    /// The service time the endpoint at `row` was given of its own, if any.
    @inline(__always) public func ownServiceTime(row: Int) -> Distribution? {
        row < endpointServiceTimes.count ? endpointServiceTimes[row] : nil
    }

    /// The most requests that waited at once.
    public private(set) var peakQueueDepth = 0

    /// Faults may overlap: each start is undone by its own end.
    public mutating func outageStarts() { outages += 1 }
    public mutating func outageEnds() { outages -= 1 }
    public mutating func slowdownStarts(_ factor: Double) { slowdowns.append(factor) }
    public mutating func slowdownEnds(_ factor: Double) {
        if let i = slowdowns.firstIndex(of: factor) { slowdowns.remove(at: i) }
    }

    public mutating func arrive(job: UInt32, now: SimTime) -> Admission {
        if outage { return .unanswered }
        if busy < workers { busy += 1; return .serve }
        if waiting.count >= queueLimit { return .rejected }
        waiting.append(Waiting(job: job, since: now))
        peakQueueDepth = max(peakQueueDepth, waiting.count)
        return .queued
    }

    /// A worker finished; returns the job it takes next, if any (else the worker idles).
    public mutating func finish() -> Waiting? {
        if let next = waiting.popFirst() { return next }
        busy -= 1
        return nil
    }

    /// A service time drawn from ``serviceTime``, slowed down by the current factor.
    public func slowedDown(_ base: SimDuration) -> SimDuration {
        guard !slowdowns.isEmpty else { return base }
        return .fromSeconds(base.seconds * slowdown)
    }
}
