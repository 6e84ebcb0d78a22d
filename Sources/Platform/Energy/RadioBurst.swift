import SimKernel

/// One radio's state machine, reduced to what decides its phase and its charges in 16
/// bytes: the transfers in flight, the time paid up to, and how much of a tail a new
/// transfer cut off.
///
/// `chargedUntil` tells every phase: a promotion is under way while it lies ahead (only
/// a promotion sets it in the future: to its end); with no transfer in flight the tail
/// starts there (the last close set it).
public struct RadioBurst: Sendable, Equatable {
    /// Connected time is paid up to here; the end of a promotion under way; the tail's start.
    public var chargedUntil = SimTime(microseconds: Int64.min / 2)
    /// Microseconds of the previous tail spent when a transfer cut it; negative: none.
    /// (A tail is 10.12 s at most, so 32 bits hold it.)
    public var cutAfter: Int32 = -1
    /// Transfers opened and not yet closed.
    public var inFlight: UInt16 = 0
    /// The last promotion is not yet charged to a transfer.
    public var promotionUnpaid = false
    public init() {}

    /// The radio's phase at `now`, for a `now` not before its last change.
    public func phase(at now: SimTime, profile: RadioProfile) -> RadioPhase {
        if now < chargedUntil { return .promotion }
        if inFlight > 0 { return .connected }
        return now < tailEnd(profile) ? .tail : .idle
    }

    /// When the radio drops to idle unless another transfer starts (no transfer in flight).
    public func tailEnd(_ profile: RadioProfile) -> SimTime { chargedUntil + .fromSeconds(profile.tailSeconds) }
}
