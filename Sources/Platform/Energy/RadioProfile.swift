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
    /// RRC idle → connected promotion (LTE only), before the first byte.
    case promotion
    /// Connected, moving data.
    case connected
    /// After the last byte, until the inactivity timers drop the radio to idle (LTE:
    /// continuous-reception tail, then short and long DRX; Wi-Fi: its tail).
    case tail
}

/// One stretch of a radio's tail at one average power.
public struct TailPhase: Sendable, Equatable {
    public var seconds: Double
    public var watts: Double
    public init(seconds: Double, watts: Double) { self.seconds = seconds; self.watts = watts }

    /// A DRX phase as ARO charges it (`ProfileLTE.energy`, `LTE_DRX_SHORT`/`LTE_DRX_LONG`):
    /// every `period` a `ping` at `pingWatts`, the rest of the period at `baseWatts`;
    /// linear in the time spent, so one average power.
    public static func drx(seconds: Double, period: Double, ping: Double, pingWatts: Double, baseWatts: Double) -> TailPhase {
        TailPhase(seconds: seconds, watts: (ping * pingWatts + (period - ping) * baseWatts) / period)
    }
}

/// One radio's timing and power, `docs/platform-facts.md` I: a promotion before the
/// first byte, the connected power, and the tail as up to three phases.
public struct RadioProfile: Sendable {
    public var promotionSeconds: Double
    public var promotionWatts: Double
    /// Power while connected (ARO's β: the per-Mbps terms are left out, see ``lte``).
    public var activeWatts: Double
    /// The tail's phases in order; unused ones last, of zero length.
    public var tail: InlineArray<3, TailPhase>
    /// The whole tail's length.
    public let tailSeconds: Double

    public init(promotionSeconds: Double, promotionWatts: Double, activeWatts: Double, tail: InlineArray<3, TailPhase>) {
        self.promotionSeconds = promotionSeconds
        self.promotionWatts = promotionWatts
        self.activeWatts = activeWatts
        self.tail = tail
        var seconds = 0.0
        for k in 0..<tail.count { seconds += tail[k].seconds }
        tailSeconds = seconds
    }

    /// The energy of the first `spent` seconds of the tail (J): piecewise linear, the
    /// whole tail's energy from its end on.
    public func tailJoules(spent: Double) -> Double {
        var left = max(0, spent), joules = 0.0
        for k in 0..<tail.count {
            let s = min(left, tail[k].seconds)
            joules += s * tail[k].watts
            left -= s
        }
        return joules
    }

    /// The whole tail's energy (J).
    public var tailJoules: Double { tailJoules(spent: tailSeconds) }

    /// LTE as AT&T ARO parameterises it (`ARODataAnalyzer/src/lte.conf`, charged as
    /// `ProfileLTE.energy` does, `docs/platform-facts.md` I): `T_PROMOTION` 0.26 s at
    /// `P_PROMOTION` 1.21 W before the first packet (`RrcStateRange.promoteLTE`);
    /// connected at `LTE_BETA` 1.2 W; then the tail: `INACTIVITY_TIMER` 0.1 s at β,
    /// `T_SHORT_DRX` 0.02 s and `T_LONG_DRX` 10 s of DRX with `T_DRX_PING` 2 ms at
    /// 1.68 W every 20 ms and 40 ms, `P_TAIL` 1.06 W between: 10.12 s, 11.05244 J.
    /// Left out: ARO's per-Mbps terms (`LTE_ALPHA_UP` 438.39, `LTE_ALPHA_DOWN`
    /// 51.97 mW/Mbps), a bound of 3.5 µJ per byte sent and 0.42 µJ per byte received:
    /// 0.011 J for a 2 kB request and a 10 kB answer, under 0.1 % of a lone request.
    public static let lte: RadioProfile = {
        let beta = 1.2, tailBase = 1.06, ping = 0.002, pingWatts = 1.68
        return RadioProfile(
            promotionSeconds: 0.26, promotionWatts: 1.21, activeWatts: beta,
            tail: [TailPhase(seconds: 0.1, watts: beta),
                   .drx(seconds: 0.02, period: 0.02, ping: ping, pingWatts: pingWatts, baseWatts: tailBase),
                   .drx(seconds: 10, period: 0.04, ping: ping, pingWatts: pingWatts, baseWatts: tailBase)])
    }()

    /// Wi-Fi as ARO parameterises it (`WiFi.conf`): `POWER_WIFI_ACTIVE` 0.403 W,
    /// `WIFI_TAIL_TIME` 0.25 s, no promotion; ARO charges the tail at the active power
    /// (`ProfileWiFi.energy`). Standby (0.02 W) is the device's, never the app's.
    public static let wifi = RadioProfile(
        promotionSeconds: 0, promotionWatts: 0, activeWatts: 0.403,
        tail: [TailPhase(seconds: 0.25, watts: 0.403), TailPhase(seconds: 0, watts: 0), TailPhase(seconds: 0, watts: 0)])
}
