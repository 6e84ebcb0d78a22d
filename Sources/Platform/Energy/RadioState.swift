import SimKernel

/// One device's radios: their state machines and what they have cost the app.
///
/// A transfer is opened when the app sends (``open(at:over:model:)``: the wait before its
/// first byte) and closed when the answer or the failure reaches the app
/// (``close(at:over:model:)``: its energy). All energy is charged at closes: the
/// promotion to the first transfer that closes after it; connected time to the transfer
/// that closes next; the new tail, less what a tail cut short by a new transfer did not
/// spend, to the transfer that leaves the radio idle. So each second is counted once,
/// overlapping transfers pay one promotion and one tail, a transfer inside a tail pays no
/// promotion, and no charge is negative; a lone transfer's charge includes its whole tail.
public struct RadioState: Sendable {
    public var cellular = RadioBurst()
    public var wifi = RadioBurst()
    /// Energy of both radios (J).
    public var joules = 0.0
    /// Seconds in promotion, connected or tail, both radios.
    public var activeSeconds = 0.0
    public init() {}

    public func burst(_ bearer: Bearer) -> RadioBurst { bearer == .cellular ? cellular : wifi }

    /// A transfer starts at `now` on `bearer`: returns how long it waits for its first
    /// byte (the promotion from idle, or the rest of one under way); charges nothing.
    public mutating func open(at now: SimTime, over bearer: Bearer, model: RadioEnergyModel) -> SimDuration {
        let profile = model.profile(bearer)
        var radio = burst(bearer)
        var wait = SimDuration.zero
        switch radio.phase(at: now, profile: profile) {
        case .promotion:
            wait = radio.chargedUntil - now
        case .connected:
            break
        case .tail:
            radio.cutAfter = Int32((now - radio.chargedUntil).microseconds)
            radio.chargedUntil = now
        case .idle:
            wait = .fromSeconds(profile.promotionSeconds)
            radio.promotionUnpaid = true
            radio.chargedUntil = now + wait
        }
        radio.inFlight += 1
        store(radio, bearer)
        return wait
    }

    /// The transfer opened on `bearer` ends at `now`: returns the energy charged to it (J).
    public mutating func close(at now: SimTime, over bearer: Bearer, model: RadioEnergyModel) -> Double {
        let profile = model.profile(bearer)
        var radio = burst(bearer)
        var charged = 0.0, seconds = 0.0
        if radio.promotionUnpaid {
            charged += profile.promotionSeconds * profile.promotionWatts
            seconds += profile.promotionSeconds
            radio.promotionUnpaid = false
        }
        if now > radio.chargedUntil {
            let connected = (now - radio.chargedUntil).seconds
            charged += connected * profile.activeWatts
            seconds += connected
            radio.chargedUntil = now
        }
        radio.inFlight -= 1
        if radio.inFlight == 0 {
            if radio.cutAfter >= 0 {
                // The cut tail is settled now: what it spent before the cut.
                let spent = Double(radio.cutAfter) / 1_000_000
                charged += profile.tailJoules(spent: spent)
                seconds += min(spent, profile.tailSeconds)
            } else {
                charged += profile.tailJoules
                seconds += profile.tailSeconds
            }
            radio.cutAfter = -1
        }
        joules += charged
        activeSeconds += seconds
        store(radio, bearer)
        return charged
    }

    private mutating func store(_ radio: RadioBurst, _ bearer: Bearer) {
        switch bearer {
        case .cellular: cellular = radio
        case .wifi: wifi = radio
        }
    }
}
