import SimKernel

/// The radio that carries a transfer. LTE and Wi-Fi are separate hardware, each with
/// its own state machine and tail.
public enum Bearer: UInt8, Sendable, CaseIterable {
    case cellular, wifi
}

/// Where one radio's state machine is at a given moment (`docs/platform-facts.md` I).
public enum RadioPhase: UInt8, Sendable {
    /// RRC idle (LTE) or standby (Wi-Fi): paging only, not charged to the app.
    case idle
    /// RRC idle → connected promotion (LTE only).
    case promotion
    /// Connected, moving data.
    case connected
    /// After the last byte, until the inactivity timers drop the radio to idle (LTE:
    /// DRX; Wi-Fi: its tail).
    case tail
}

/// One radio's timing and power, `docs/platform-facts.md` I.
public struct RadioProfile: Sendable, Equatable {
    public var promotionSeconds: Double
    public var promotionWatts: Double
    /// Power while data moves.
    public var activeWatts: Double
    public var tailSeconds: Double
    public var tailWatts: Double

    public init(promotionSeconds: Double, promotionWatts: Double, activeWatts: Double, tailSeconds: Double, tailWatts: Double) {
        self.promotionSeconds = promotionSeconds
        self.promotionWatts = promotionWatts
        self.activeWatts = activeWatts
        self.tailSeconds = tailSeconds
        self.tailWatts = tailWatts
    }

    /// `docs/platform-facts.md` I, LTE (ARO `lte.conf`, Huang et al. 2012): promotion 0.26 s at
    /// 1.21 W; transfer at the 1.2 W throughput baseline; the DRX tail (0.1 s inactivity
    /// timer, short then long DRX cycles) modelled as its 10 s at the 1.06 W baseline.
    /// The per-Mbps throughput terms are left out: FleetSim's requests are small.
    public static let lte = RadioProfile(promotionSeconds: 0.26, promotionWatts: 1.21, activeWatts: 1.2, tailSeconds: 10, tailWatts: 1.06)

    /// `docs/platform-facts.md` I, Wi-Fi (ARO `WiFi.conf`): active 0.403 W, tail 0.25 s, no
    /// promotion. **Assumption**: the tail is spent at the active power (the row gives
    /// none for it); standby (0.02 W) is the device's, never the app's.
    public static let wifi = RadioProfile(promotionSeconds: 0, promotionWatts: 0, activeWatts: 0.403, tailSeconds: 0.25, tailWatts: 0.403)
}

/// Radio and CPU energy parameters shared by a fleet.
///
/// Timing: the network model's latency is the whole request, promotion included.
/// Energy: a request from idle is charged the promotion at its power on top of the
/// request's window at the active power, as `docs/platform-facts.md` I's worked example adds them
/// ("promotion 0.26 s x 1.21 W + ~1 s of transfer at ~1.2 W + a 10 s tail at 1.06 W,
/// about 12 J").
///
/// CPU: **assumption** `cpuActiveMilliamps` (150 mA at the nominal voltage) while the
/// app runs in the background; `docs/platform-facts.md` I lists only idle/suspend CPU currents.
public struct RadioEnergyModel: Sendable {
    public var lte = RadioProfile.lte
    public var wifi = RadioProfile.wifi
    public var cpuActiveMilliamps = 150.0
    /// Nominal cell voltage used to turn joules into mAh (`docs/platform-facts.md` I, worked example).
    public var volts = 3.85

    public init() {}

    @inlinable public func profile(_ bearer: Bearer) -> RadioProfile {
        switch bearer {
        case .cellular: return lte
        case .wifi: return wifi
        }
    }

    public func milliampHours(joules: Double) -> Double { joules / (volts * 3.6) }
    public func cpuJoules(seconds: Double) -> Double { cpuActiveMilliamps / 1000 * volts * seconds }
}

/// One radio's last burst: the state machine reduced to two instants.
public struct RadioBurst: Sendable, Equatable {
    /// End of the last transfer: the tail starts here.
    public var activeUntil = SimTime(microseconds: Int64.min / 2)
    /// Start of the last promotion from idle.
    public var promotedAt = SimTime(microseconds: Int64.min / 2)
    public init() {}

    /// The radio's phase at `now`, for a `now` not before the last transfer's start.
    public func phase(at now: SimTime, profile: RadioProfile) -> RadioPhase {
        if now >= promotedAt, now < promotedAt + .fromSeconds(profile.promotionSeconds) { return .promotion }
        if now <= activeUntil { return .connected }
        return now < tailEnd(profile) ? .tail : .idle
    }

    /// When the radio drops to idle unless another transfer starts: the next deadline.
    public func tailEnd(_ profile: RadioProfile) -> SimTime { activeUntil + .fromSeconds(profile.tailSeconds) }
}

/// One device's radios: their state machines and what they have cost the app.
///
/// A transfer is charged its whole tail at once; a later transfer that starts inside
/// that tail refunds the unused part, so a fleet's sum is exact and each request's
/// returned cost includes the tail it leaves behind. Two requests a few seconds apart
/// therefore pay one promotion and one tail between them (the second pays the gap at
/// tail power); a lone request pays a whole tail.
public struct RadioState: Sendable {
    public var cellular = RadioBurst()
    public var wifi = RadioBurst()
    /// Energy of both radios (J).
    public var joules = 0.0
    /// Seconds in promotion, transfer or tail, both radios.
    public var activeSeconds = 0.0
    public init() {}

    public func burst(_ bearer: Bearer) -> RadioBurst { bearer == .cellular ? cellular : wifi }

    /// Accounts a transfer over `[start, end]` on `bearer` and returns the energy it
    /// added (J); negative never, zero when it lies inside a transfer already paid for.
    public mutating func transfer(from start: SimTime, to end: SimTime, over bearer: Bearer = .cellular, model: RadioEnergyModel) -> Double {
        let profile = model.profile(bearer)
        var radio = burst(bearer)
        let added = account(&radio, from: start, to: end, profile: profile)
        switch bearer {
        case .cellular: cellular = radio
        case .wifi: wifi = radio
        }
        return added
    }

    private mutating func account(_ radio: inout RadioBurst, from start: SimTime, to end: SimTime, profile: RadioProfile) -> Double {
        let before = joules
        let tailEnd = radio.tailEnd(profile)
        if start < radio.activeUntil {
            // Overlaps a transfer: the tail moves to the new end, already paid for.
            if end > radio.activeUntil { active(seconds: (end - radio.activeUntil).seconds, profile); radio.activeUntil = end }
            return joules - before
        }
        if start < tailEnd {
            let unused = (tailEnd - start).seconds
            joules -= unused * profile.tailWatts
            activeSeconds -= unused
        } else {
            joules += profile.promotionSeconds * profile.promotionWatts
            activeSeconds += profile.promotionSeconds
            radio.promotedAt = start
        }
        if end > start { active(seconds: (end - start).seconds, profile) }
        radio.activeUntil = end > start ? end : start
        joules += profile.tailSeconds * profile.tailWatts
        activeSeconds += profile.tailSeconds
        return joules - before
    }

    private mutating func active(seconds: Double, _ profile: RadioProfile) {
        joules += seconds * profile.activeWatts
        activeSeconds += seconds
    }
}
