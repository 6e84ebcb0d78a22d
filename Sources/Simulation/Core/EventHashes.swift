import SimKernel
import Reports

/// Rolling hashes of a run's delivered event stream, so two builds or two
/// configurations can tell whether, and on which devices, they part ways without
/// keeping the events (docs/diverge.md).
///
/// Each delivered event (a stale timer, task or job entry dropped by its generation,
/// serial or incarnation guard is not delivered) is hashed from its content only: the
/// time in microseconds, a fixed code per event kind, the device, and one small payload
/// field (timer kind, fault index, a feature event's source...). Generations, serials, job and slot
/// numbers are bookkeeping and are left out. The function is SplitMix64's finalizer
/// (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA
/// 2014), so the value is the same on every platform and in every process (never
/// Swift's `Hasher`, which is seeded per process).
///
/// - A device's hash chains its events in order: `h = mix(h ^ eventHash)`, from 0; it is
///   kept in the device's ``Device/eventHash``.
/// - `devices` is the wrapping sum of every device's hash: order-independent, so shard
///   reports add up to the whole fleet's exactly.
/// - `fleet` chains the events that belong to no device (faults, a feature's broadcasts).
/// - `total` is `devices &+ fleet`.
/// - `byCohort` and `byBucket` (device id modulo 256) are the same sums over parts of
///   the fleet, so a difference points at where to look; report.json stays small at a
///   million devices (256 buckets, not one hash per device).
struct EventHashes {
    var fleet: UInt64 = 0
    /// Delivered events hashed (device and fleet ones).
    var delivered: UInt64 = 0
    /// The fleet-wide ones among them (every shard delivers them all).
    var fleetDelivered: UInt64 = 0

    static let buckets = 256

    /// SplitMix64's output function: a fixed bijective 64-bit mixer.
    @inline(__always) static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The hash of one event: time, kind code (8 bits), payload (24 bits) and device (32 bits).
    @inline(__always) static func eventHash(time: SimTime, code: UInt8, payload: UInt32, device: UInt32) -> UInt64 {
        let word = UInt64(code) << 56 | UInt64(payload & 0xFF_FFFF) << 32 | UInt64(device)
        return mix(mix(UInt64(bitPattern: time.microseconds)) ^ word)
    }

    /// Folds one delivered event of a device into its `chain`. `globalDevice` (the id in
    /// the whole fleet, different in a shard) is what is hashed, so a shard's device
    /// hashes equal the plain run's and shards add up exactly. Returns the event's hash.
    @inline(__always) mutating func add(time: SimTime, code: UInt8, payload: UInt32, globalDevice: UInt32, chain: inout UInt64) -> UInt64 {
        delivered &+= 1
        let h = Self.eventHash(time: time, code: code, payload: payload, device: globalDevice)
        chain = Self.mix(chain ^ h)
        return h
    }

    /// Folds one delivered fleet-wide event in. Returns its hash.
    @inline(__always) mutating func addFleetWide(time: SimTime, code: UInt8, payload: UInt32) -> UInt64 {
        delivered &+= 1
        let h = Self.eventHash(time: time, code: code, payload: payload, device: UInt32.max)
        fleetDelivered &+= 1
        fleet = Self.mix(fleet ^ h)
        return h
    }

    /// Each device's chain of delivered events' hashes, in device order.
    static func chains(_ devices: [Device]) -> [UInt64] { devices.map(\.eventHash) }

    /// The wrapping sum of the devices' chains (`devices` in the report).
    static func sum(_ chains: [UInt64]) -> UInt64 { chains.reduce(0, &+) }

    /// The wrapping sum of the device chains in each bucket (global device id modulo 256).
    static func bucketSums(_ chains: [UInt64], globalID: (Int) -> UInt64) -> [UInt64] {
        var sums = Array(repeating: UInt64(0), count: Self.buckets)
        for (d, h) in chains.enumerated() { sums[Int(globalID(d) % UInt64(Self.buckets))] &+= h }
        return sums
    }

    /// A hash as report.json writes it: 16 lower-case hex digits.
    static func hex(_ h: UInt64) -> String { HashText.hex(h) }
}

/// One delivered event as ``World/eventObserver`` sees it (for `run --record-events`
/// and `diverge`): its time, its device (nil for a fleet-wide event), its hash and a
/// short description.
public struct DeliveredEvent: Sendable {
    public var time: SimTime
    public var device: Int?
    public var hash: UInt64
    public var description: String

    /// A hash as report.json and event lines write it: 16 lower-case hex digits.
    public static func hex(_ h: UInt64) -> String { EventHashes.hex(h) }

    /// `2026-03-01T12:00:00Z` (fractions when there are any).
    public static func utc(unixMicroseconds: Int64) -> String { Trace.utc(unixMicroseconds) }
}

extension EventHashes {
    /// Hashes `event` into `world`'s hashes if it will be delivered (called once per
    /// popped event, before its handler runs, since the stale check reads the state the
    /// handler changes), and shows it to the observer. A read of the world's state but
    /// for the hashes themselves: its own and the device's chain (``Device/eventHash``).
    @inline(__always) static func hashDelivered<Logics: LogicSet>(_ event: WorldEvent, in world: inout World<Logics>) {
        if event.isSuperseded(in: world) { return }
        let (code, payload, device) = event.identity(in: world)
        let now = world.now
        let h: UInt64
        if let device {
            let i = Int(device)
            h = world.eventHashes.add(time: now, code: code, payload: payload, globalDevice: UInt32(truncatingIfNeeded: world.core.globalID(i)),
                                      chain: &world.core.devices[i].eventHash)
        } else {
            h = world.eventHashes.addFleetWide(time: now, code: code, payload: payload)
        }
        if let eventObserver = world.eventObserver {
            eventObserver(DeliveredEvent(time: now, device: device.map(Int.init), hash: h, description: event.described))
        }
    }
}

extension WorldEvent {
    /// A short description: the case and its fields, e.g. `deviceTimer(device: 3, timer: hardStop, generation: 2)`.
    var described: String {
        String(describing: self).replacingOccurrences(of: "Simulation.", with: "")
    }

    /// The request's endpoint kind, a job event's payload (not its number in the pool):
    /// its row's code in the endpoint table (``EndpointRow/hashCode``).
    @inline(__always) static func endpointCode(_ job: UInt32, _ core: borrowing WorldCore) -> UInt32 {
        RequestOwner.endpoints[Int(core.jobs[Int(job)].endpointRow)].hashCode
    }

    /// The kind code, the small payload and the device of an event (nil: fleet-wide).
    /// The codes are fixed here (not the enum's layout), so adding a case moves no hash.
    /// Inlined for the reason ``isSuperseded(in:)`` is.
    @inline(__always) func identity<Logics: LogicSet>(in world: World<Logics>) -> (UInt8, UInt32, UInt32?) {
        if case .feature(let e) = self { return world.featureEventIdentity(e) }
        return identity(in: world.core)!
    }

    /// ``identity(in:)`` from the core alone: nil for a feature event whose device only its
    /// host's tables tell (the keyed ties' key, Core/TieKeys).
    @inline(__always) func identity(in core: borrowing WorldCore) -> (UInt8, UInt32, UInt32?)? {
        switch self {
        case .userOpensApp(let d): return (1, 0, d)
        case .notificationTapped(let d): return (2, 0, d)
        case .foregroundSessionEnds(let d, _): return (3, 0, d)
        case .taskLaunch(let d, _): return (5, 0, d)
        case .taskExpires(let d, _): return (6, 0, d)
        case .taskWatchdog(let d, _): return (7, 0, d)
        case .suspendAfterTask(let d, _): return (8, 0, d)
        case .keyValueFlush(let d, _): return (9, 0, d)
        case .requestReachesServer(let job, _): return (10, Self.endpointCode(job, core), core.jobs[Int(job)].device)
        case .serviceCompletes(let job, _): return (11, Self.endpointCode(job, core), core.jobs[Int(job)].device)
        case .responseReachesDevice(let job, _): return (12, Self.endpointCode(job, core), core.jobs[Int(job)].device)
        case .requestTimesOut(let job, _): return (13, Self.endpointCode(job, core), core.jobs[Int(job)].device)
        case .offlineSpellStarts(let d): return (14, 0, d)
        case .offlineSpellEnds(let d): return (15, 0, d)
        case .faultStarts(let index): return (16, UInt32(index), nil)
        case .faultEnds(let index): return (17, UInt32(index), nil)
        case .jetsam(let d, let fault): return (18, UInt32(fault), d)
        case .deviceTimer(let d, _, let timer): return (20, UInt32(timer.rawValue), d)
        case .android(let e):
            switch e {
            case .screenSessionStarts(let d): return (21, 0, d)
            case .screenOff(let d, _): return (22, 0, d)
            case .motion(let d): return (23, 0, d)
            case .timer(let d, _, let timer): return (24, UInt32(timer.hashCode), d)
            case .jobStops(let d, _, _): return (25, 0, d)
            }
        case .batterySwitch(let d): return (34, 0, d)
        case .feature(let e): return e.ownIdentity
        }
    }
}
