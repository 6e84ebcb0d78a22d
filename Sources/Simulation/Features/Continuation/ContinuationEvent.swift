import SimKernel

/// The continuation's own events (seed `004`), kept in one case of ``FeatureEvent``
/// (Features/Features.swift).
enum ContinuationEvent {
    /// The user answers the offer's alert (World+Continuation's `continuationChoice`),
    /// unless the process it was shown in has died since.
    case choice(device: UInt32, incarnation: UInt32)

    /// The event hashes' identity (Core/EventHashes): kind code, payload, device. The
    /// code is fixed: the one it had as a case of its own.
    @inline(__always) var identity: (UInt8, UInt32, UInt32?) {
        switch self {
        case .choice(let d, _): return (19, 0, d)
        }
    }

    /// The device whose state the event reads (Core/Prefetch).
    @inline(__always) var device: UInt32 {
        switch self {
        case .choice(let d, _): return d
        }
    }

    /// Whether its guard will drop it (Core/QueueStats): the app was restarted since.
    @inline(__always) func isSuperseded(_ devices: [Device]) -> Bool {
        switch self {
        case .choice(let d, let incarnation): return devices[Int(d)].incarnation != incarnation
        }
    }

    /// What a request sent while it is handled was caused by (``LoadCause``).
    var loadCause: LoadCause {
        switch self {
        case .choice: return .userAction
        }
    }
}

extension WorldEvent {
    /// A continuation event, as the world's queue holds it.
    static func continuation(_ event: ContinuationEvent) -> WorldEvent { .feature(.continuation(event)) }
}
