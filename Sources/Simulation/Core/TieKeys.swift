import SimKernel

/// The same-instant order with `"tieBreak": "shuffle"` (docs/scenario.md): each event's
/// queue order is a seeded key of its own (the scenario's seed, its global device, its
/// identity, its time) and of a per-device serial, never a draw from one fleet-wide
/// stream. So a change on one device reorders no other device's events (`diverge` meets
/// the first real difference first), and a shard orders its devices' events as the plain
/// run does (merged shards equal the plain run, docs/scale.md).
///
/// The order is `(H >> 32) << 16 | serial` (48 bits, ``EventQueue/orderBits``), with H
/// the SplitMix64 finalizer over (seed, device, kind code, payload, time). The serial
/// (16 bits, wrapping; one counter per device and one for fleet-wide events) only orders
/// events whose 32-bit parts are equal: the same identity at the same instant. With
/// `fifo` (``fifo``) nothing here runs: the queue's sequence orders ties.
struct TieKeys {
    /// Nil: fifo.
    let seedKey: UInt64?
    private var serials: [UInt16]
    private var fleetSerial: UInt16 = 0

    static let fifo = TieKeys(seedKey: nil, serials: [])

    private init(seedKey: UInt64?, serials: [UInt16]) {
        self.seedKey = seedKey
        self.serials = serials
    }

    /// Keyed ties for a world of `devices` devices.
    init(seed: UInt64, devices: Int) {
        self.init(seedKey: EventHashes.mix(seed ^ 0x7469_6542_7265_616B), serials: [UInt16](repeating: 0, count: devices))
    }

    @inline(__always) var isKeyed: Bool { seedKey != nil }

    /// The next serial of local device `device` (nil: a fleet-wide event).
    @inline(__always) mutating func nextSerial(_ device: UInt32?) -> UInt16 {
        guard let device else { fleetSerial &+= 1; return fleetSerial }
        serials[Int(device)] &+= 1
        return serials[Int(device)]
    }

    /// The order of an event of `identity` (kind code, payload) on global device `global`
    /// (`UInt32.max`: fleet-wide) at `time`, with `serial`.
    @inline(__always) func order(code: UInt8, payload: UInt32, global: UInt64, at time: SimTime, serial: UInt16) -> UInt64 {
        let h = EventHashes.mix(EventHashes.mix(EventHashes.mix(seedKey! ^ global << 8 ^ UInt64(code)) ^ UInt64(payload)) ^ UInt64(bitPattern: time.microseconds))
        return (h >> 32) << 16 | UInt64(serial)
    }
}

extension WorldCore {
    /// Schedules `e` at `time` (the one choke point of the world's schedules): with fifo
    /// exactly ``SimClock/schedule(_:at:)``; with keyed ties at its key (``TieKeys``).
    /// An event whose device only its feature host's tables tell takes
    /// ``schedule(_:at:identity:)`` (``FeatureEvent/ownIdentity`` is nil).
    @inline(__always) mutating func schedule(_ e: WorldEvent, at time: SimTime) {
        guard ties.isKeyed else { clock.schedule(e, at: time); return }
        clock.schedule(e, at: time, order: tieOrder(ownIdentity(e), at: time))
    }

    @inline(__always) mutating func schedule(_ e: WorldEvent, after delay: SimDuration) {
        schedule(e, at: now + delay)
    }

    /// ``schedule(_:at:)``, returning where it went (``SimClock/scheduleRetractably(_:at:)``).
    @inline(__always) @discardableResult mutating func scheduleRetractably(_ e: WorldEvent, at time: SimTime) -> EventQueue<WorldEvent>.Placement {
        guard ties.isKeyed else { return clock.scheduleRetractably(e, at: time) }
        return clock.scheduleRetractably(e, at: time, order: tieOrder(ownIdentity(e), at: time))
    }

    /// ``schedule(_:at:)`` of an event whose identity the caller gives (one whose device only its host's tables tell).
    @inline(__always) mutating func schedule(_ e: WorldEvent, at time: SimTime, identity: (UInt8, UInt32, UInt32?)) {
        guard ties.isKeyed else { clock.schedule(e, at: time); return }
        clock.schedule(e, at: time, order: tieOrder(identity, at: time))
    }

    /// The identity of an event that carries its device (``FeatureEvent/ownIdentity``).
    @inline(__always) func ownIdentity(_ e: WorldEvent) -> (UInt8, UInt32, UInt32?) {
        guard let identity = e.identity(in: self) else { preconditionFailure("WorldCore: this event's host schedules it with its identity") }
        return identity
    }

    /// The key of an event of `identity` placed at `time` (clamped to now, as the clock
    /// places it); takes the device's next serial.
    @inline(never) mutating func tieOrder(_ identity: (UInt8, UInt32, UInt32?), at time: SimTime) -> UInt64 {
        let serial = ties.nextSerial(identity.2)
        return ties.order(code: identity.0, payload: identity.1, global: identity.2.map { globalID(Int($0)) } ?? UInt64(UInt32.max),
                          at: time < now ? now : time, serial: serial)
    }
}
