/// The step sync's own events, kept in one case of ``FeatureEvent`` (Features/Features.swift).
enum StepSyncEvent {
    /// HealthKit background delivery wakes the app (new step samples).
    case healthDelivery(device: UInt32)

    /// The event hashes' identity (Core/EventHashes): kind code, payload, device. The
    /// code is fixed: the one it had as a case of its own.
    @inline(__always) var identity: (UInt8, UInt32, UInt32?) {
        switch self {
        case .healthDelivery(let d): return (33, 0, d)
        }
    }

    /// The device whose state the event reads (Core/Prefetch).
    @inline(__always) var device: UInt32 {
        switch self {
        case .healthDelivery(let d): return d
        }
    }

    /// What a request sent while it is handled was caused by (``LoadCause``).
    var loadCause: LoadCause {
        switch self {
        case .healthDelivery: return .healthKitDelivery
        }
    }
}

extension WorldEvent {
    /// A step-sync event, as the world's queue holds it.
    static func stepSync(_ event: StepSyncEvent) -> WorldEvent { .feature(.stepSync(event)) }
}
