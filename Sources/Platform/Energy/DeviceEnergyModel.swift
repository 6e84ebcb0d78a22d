import SimKernel

/// What the app's CPU costs while it runs in the background, and what a background launch
/// costs by the state the OS finds the app in (a cohort's `energy` section).
///
/// **Assumption** `cpuActiveMilliamps` (150 mA at the nominal voltage): `docs/platform-facts.md` I
/// lists only idle and suspend CPU currents.
///
/// **Assumption**, the background launch: the CPU for `coldLaunch` (400 ms) when the OS
/// starts a terminated app, for `resume` (100 ms) when it resumes a suspended one, nothing
/// when it is already running. Apple's WWDC 2019 session 423 (*Optimizing App Launch*)
/// names the launch types (cold: no process; resume: the process is in memory) and a
/// 400 ms budget to the first frame, about 100 ms of it the system's; no published figure
/// gives a background launch's energy. Energy only: the launch takes no simulated time.
public struct DeviceEnergyModel: Sendable {
    /// Nominal cell voltage, to turn joules into mAh (`docs/platform-facts.md` I, worked example).
    public static let volts = 3.85

    public var cpuActiveMilliamps: Double
    public var coldLaunch: SimDuration
    public var resume: SimDuration

    public init(cpuActiveMilliamps: Double = 150, coldLaunch: SimDuration = .milliseconds(400), resume: SimDuration = .milliseconds(100)) {
        self.cpuActiveMilliamps = cpuActiveMilliamps
        self.coldLaunch = coldLaunch
        self.resume = resume
    }

    public static func milliampHours(joules: Double) -> Double { joules / (volts * 3.6) }

    /// The CPU's energy over `seconds` of background work (J).
    public func cpuJoules(seconds: Double) -> Double { cpuActiveMilliamps / 1000 * DeviceEnergyModel.volts * seconds }

    /// The energy of launching the app in the background from `state` (J).
    public func launchJoules(from state: AppProcessState) -> Double {
        switch state {
        case .terminated: return cpuJoules(seconds: coldLaunch.seconds)
        case .suspended: return cpuJoules(seconds: resume.seconds)
        case .running: return 0
        }
    }
}
