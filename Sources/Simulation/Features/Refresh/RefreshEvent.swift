/// The refresh's own events (seed `000`'s tests), kept in one case of ``FeatureEvent``
/// (Features/Features.swift).
enum RefreshEvent {
    /// The user finishes the test they started at an open (World+Refresh's
    /// `userSeesTest`): the next window's clock starts.
    case testCompleted(device: UInt32)

    /// The event hashes' identity (Core/EventHashes): kind code, payload, device. The
    /// code is fixed: the one it had as a case of its own.
    @inline(__always) var identity: (UInt8, UInt32, UInt32?) {
        switch self {
        case .testCompleted(let d): return (4, 0, d)
        }
    }

    /// The device whose state the event reads (Core/Prefetch).
    @inline(__always) var device: UInt32 {
        switch self {
        case .testCompleted(let d): return d
        }
    }

    /// What a request sent while it is handled was caused by (``LoadCause``).
    var loadCause: LoadCause {
        switch self {
        case .testCompleted: return .userAction
        }
    }
}
