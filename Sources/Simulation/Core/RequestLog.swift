import SimKernel

/// One request as the backend saw it, recorded for a replay through another backend
/// (`requests.bin`: docs/scale.md, "One pooled backend"): an API request (its arrival at
/// the server, its endpoint, the service time drawn for it) or a send to a notification
/// provider (its arrival at the sending service, the provider, how long it held one of
/// the provider's streams). 16 bytes on disk.
public struct RecordedRequest: Equatable, Sendable {
    /// Microseconds since the run's start.
    public var arrival: Int64
    /// The service time (API) or the stream's hold (a provider's send), in microseconds, at most
    /// `UInt32.max` (71 min); 0 and ``Flags/unknownService`` when the run drew none (a 503,
    /// a send refused by a full queue, an outage's unanswered request).
    public var service: UInt32
    /// Bit 7: a provider's send; bits 0-6: the endpoint's row (``LoadSeries/endpointNames``) or
    /// the provider (0 APNs, 1 FCM).
    public var resource: UInt8
    public var flags: Flags
    /// The shard that recorded it (its `K` of `--shard K/N`; 0 for a plain run).
    public var shard: UInt16

    public struct Flags: OptionSet, Equatable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Sent after a failed answer or by a retry backoff (``LoadCause``).
        public static let retry = Flags(rawValue: 1 << 0)
        /// Refused at once: a 503 of a full API queue, or a send a provider's full queue refused.
        public static let rejected = Flags(rawValue: 1 << 1)
        /// Arrived during a `backendOutage`: nothing answered it.
        public static let unanswered = Flags(rawValue: 1 << 2)
        /// No service time was drawn for it (``service`` is 0).
        public static let unknownService = Flags(rawValue: 1 << 3)
    }

    public init(arrival: Int64, service: UInt32, resource: UInt8, flags: Flags, shard: UInt16) {
        self.arrival = arrival
        self.service = service
        self.resource = resource
        self.flags = flags
        self.shard = shard
    }

    public var isSend: Bool { resource & 0x80 != 0 }
    /// The endpoint row or the provider.
    public var index: Int { Int(resource & 0x7F) }

    static func microseconds(_ d: SimDuration) -> UInt32 { UInt32(clamping: max(0, d.microseconds)) }
}

/// `requests.bin`: a 32-byte header, then one 16-byte little-endian record per request
/// (``RecordedRequest``), in the order the run recorded them (a request when a worker
/// takes it or refuses it; a provider's send when its stream starts or it is refused). A merge
/// writes the union sorted by arrival, shard and recorded order (``sortedForReplay(_:)``).
public enum RequestLog {
    public static let fileName = "requests.bin"
    static let magic: [UInt8] = Array("FSREQ01\n".utf8)
    public static let headerBytes = 32
    public static let recordBytes = 16

    /// The whole scenario's backend (not a shard's part) and the run's length: what a
    /// pooled replay answers with unless asked for another capacity.
    public struct Header: Equatable, Sendable {
        public var durationMicroseconds: Int64
        public var workers: Int
        public var queueLimit: Int
        public var streams: Int
        public var streamQueueLimit: Int
        public init(durationMicroseconds: Int64, workers: Int, queueLimit: Int, streams: Int, streamQueueLimit: Int) {
            self.durationMicroseconds = durationMicroseconds
            self.workers = workers
            self.queueLimit = queueLimit
            self.streams = streams
            self.streamQueueLimit = streamQueueLimit
        }
    }

    public struct FormatError: Error, Equatable { public var message: String }

    public static func encode(_ h: Header) -> [UInt8] {
        var bytes = magic
        put(UInt64(bitPattern: h.durationMicroseconds), 8, &bytes)
        for v in [h.workers, h.queueLimit, h.streams, h.streamQueueLimit] { put(UInt64(UInt32(clamping: v)), 4, &bytes) }
        return bytes
    }

    @inline(__always) public static func append(_ r: RecordedRequest, to bytes: inout [UInt8]) {
        put(UInt64(bitPattern: r.arrival), 8, &bytes)
        put(UInt64(r.service), 4, &bytes)
        bytes.append(r.resource)
        bytes.append(r.flags.rawValue)
        put(UInt64(r.shard), 2, &bytes)
    }

    @inline(__always) static func put(_ v: UInt64, _ n: Int, _ bytes: inout [UInt8]) {
        for k in 0..<n { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) }
    }

    static func get(_ bytes: UnsafeRawBufferPointer, _ at: Int, _ n: Int) -> UInt64 {
        var v: UInt64 = 0
        for k in 0..<n { v |= UInt64(bytes[at + k]) << (8 * UInt64(k)) }
        return v
    }

    /// The header and records of a `requests.bin`; a wrong magic, a short header or a
    /// length that is not whole records is an error that says which.
    public static func decode(_ data: [UInt8]) throws(FormatError) -> (header: Header, records: [RecordedRequest]) {
        guard data.count >= headerBytes, Array(data[0..<8]) == magic else {
            throw FormatError(message: "expected a FleetSim request log (it starts with 'FSREQ01'), found \(data.count < 8 ? "\(data.count) bytes" : "another file")")
        }
        guard (data.count - headerBytes) % recordBytes == 0 else {
            throw FormatError(message: "expected whole \(recordBytes)-byte records after the \(headerBytes)-byte header, found \(data.count - headerBytes) bytes (a run cut short?)")
        }
        return data.withUnsafeBytes { b in
            let header = Header(durationMicroseconds: Int64(bitPattern: get(b, 8, 8)), workers: Int(get(b, 16, 4)), queueLimit: Int(get(b, 20, 4)),
                                streams: Int(get(b, 24, 4)), streamQueueLimit: Int(get(b, 28, 4)))
            let n = (data.count - headerBytes) / recordBytes
            var records: [RecordedRequest] = []
            records.reserveCapacity(n)
            for k in 0..<n {
                let at = headerBytes + k * recordBytes
                records.append(RecordedRequest(arrival: Int64(bitPattern: get(b, at, 8)), service: UInt32(get(b, at + 8, 4)),
                                               resource: b[at + 12], flags: .init(rawValue: b[at + 13]), shard: UInt16(get(b, at + 14, 2))))
            }
            return (header, records)
        }
    }

    /// Records in replay order: by arrival, then shard, then the order the shard recorded
    /// them in (a stable sort). A shard records a request when a worker takes it, so equal
    /// arrivals keep the order the run's queue gave them; and as each shard's records
    /// come from one input, the union's order does not depend on the inputs' order.
    public static func sortedForReplay(_ records: [RecordedRequest]) -> [RecordedRequest] {
        let order = records.indices.sorted { a, b in
            let x = records[a], y = records[b]
            if x.arrival != y.arrival { return x.arrival < y.arrival }
            if x.shard != y.shard { return x.shard < y.shard }
            return a < b
        }
        return order.map { records[$0] }
    }

    /// The records of a run as a file: the header, then the records.
    public static func file(_ header: Header, _ records: [RecordedRequest]) -> [UInt8] {
        var bytes = encode(header)
        bytes.reserveCapacity(headerBytes + records.count * recordBytes)
        for r in records { append(r, to: &bytes) }
        return bytes
    }
}

/// Streams a run's records (``RequestLog``) to `sink` in blocks of 64 KiB as the run
/// goes, so a run holds one block whatever its length. Set on a world
/// (``World/requestRecorder``) before it runs; ``finish()`` hands over the last block.
public final class RequestRecorder {
    let shard: UInt16
    private var buffer: [UInt8] = []
    private let sink: ([UInt8]) -> Void
    public private(set) var count: UInt64 = 0
    static let blockBytes = 1 << 16

    /// `header` is written first (the whole scenario's capacity: ``RequestLog/Header``).
    public init(header: RequestLog.Header, shard: Int, sink: @escaping ([UInt8]) -> Void) {
        self.shard = UInt16(clamping: shard)
        self.sink = sink
        buffer.reserveCapacity(Self.blockBytes + RequestLog.recordBytes)
        buffer.append(contentsOf: RequestLog.encode(header))
    }

    @inline(__always) func record(arrival: SimTime, service: SimDuration?, resource: UInt8, flags: RecordedRequest.Flags) {
        var f = flags
        if service == nil { f.insert(.unknownService) }
        RequestLog.append(RecordedRequest(arrival: arrival.microseconds, service: service.map(RecordedRequest.microseconds) ?? 0,
                                          resource: resource, flags: f, shard: shard), to: &buffer)
        count &+= 1
        if buffer.count >= Self.blockBytes { sink(buffer); buffer.removeAll(keepingCapacity: true) }
    }

    /// An API request to endpoint row `endpoint`.
    func api(arrival: SimTime, service: SimDuration?, endpoint: Int, flags: RecordedRequest.Flags) {
        record(arrival: arrival, service: service, resource: UInt8(endpoint & 0x7F), flags: flags)
    }

    /// A send to provider `provider` (0 APNs, 1 FCM).
    public func send(arrival: SimTime, hold: SimDuration?, provider: Int, rejected: Bool) {
        record(arrival: arrival, service: hold, resource: 0x80 | UInt8(provider & 0x7F), flags: rejected ? .rejected : [])
    }

    /// Hands the last block to the sink.
    public func finish() {
        if !buffer.isEmpty { sink(buffer) }
        buffer.removeAll()
    }
}
