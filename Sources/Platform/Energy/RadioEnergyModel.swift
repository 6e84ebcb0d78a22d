import SimKernel

/// The radios' profiles shared by a fleet (`docs/platform-facts.md` I: AT&T ARO's LTE and
/// Wi-Fi parameters, documented constants, not scenario keys).
///
/// Timing: the network model's latencies are round trips with the radio connected; a
/// request that finds the radio idle first waits for the promotion (ARO places it before
/// the first packet), so timing and energy count the same seconds once.
public struct RadioEnergyModel: Sendable {
    public var lte = RadioProfile.lte
    public var wifi = RadioProfile.wifi

    public init() {}

    @inlinable public func profile(_ bearer: Bearer) -> RadioProfile {
        switch bearer {
        case .cellular: return lte
        case .wifi: return wifi
        }
    }
}
