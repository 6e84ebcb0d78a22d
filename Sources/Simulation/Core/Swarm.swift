import SimKernel
import Scenario

/// Swarm testing (after TigerBeetle's VOPR): every OS-policy parameter and fault rate
/// is drawn from the seed, within documented ranges, so a sweep of seeds also sweeps
/// the environment. The draws come from their own streams, so the same seed always
/// gives the same swarm, and `replay --swarm` reproduces it.
public enum Swarm {
    /// The ranges, as shown by `fleetsim help` and the README.
    public static let ranges: [(parameter: String, range: String)] = [
        ("ios.launchPolicy.opportunityGap", "5 min to 2 h"),
        ("ios.launchPolicy.baseAcceptance", "0.02 to 1"),
        ("ios.earlyExpirationRate", "0 to 0.2"),
        ("ios.watchdogGrace", "1 s to 10 s"),
        ("ios.kvPersistDelay", "1 s to 60 s"),
        ("network.failureRate", "0 to 0.1"),
        ("network.offlineSpellsPerDay", "0 to 8"),
        ("backend.serviceTime", "lognormal, median 10 ms to 2 s, p99 3 to 30 times the median"),
        ("fault appTermination", "rate 0 to 4 per device-day over the whole run"),
        ("fault backendOutage", "one, starting in the run's first 80 %, lasting 10 min to 6 h (half the seeds)"),
    ]

    /// The scenario with its environment drawn from `scenario.seed`.
    public static func apply(to scenario: Scenario) -> Scenario {
        var s = scenario
        s.swarm = true
        var rng = RandomStream(seed: s.seed, entity: 0, purpose: "swarm")
        for c in s.fleet.indices {
            var r = RandomStream(seed: s.seed, entity: UInt64(c) + 1, purpose: "swarm.cohort")
            s.fleet[c].ios.launchPolicy.opportunityGap = .fromSeconds(r.uniform(300, 7_200))
            s.fleet[c].ios.launchPolicy.baseAcceptance = r.uniform(0.02, 1)
            s.fleet[c].ios.earlyExpirationRate = r.uniform(0, 0.2)
            s.fleet[c].ios.watchdogGrace = .fromSeconds(r.uniform(1, 10))
            s.fleet[c].ios.kvPersistDelay = .fromSeconds(r.uniform(1, 60))
            s.fleet[c].network.failureRate = r.uniform(0, 0.1)
            s.fleet[c].network.offlineSpellsPerDay = r.uniform(0, 8)
        }
        let median = rng.uniform(0.01, 2) * 1e6
        s.backend.serviceTime = .lognormal(median: median, p99: median * rng.uniform(3, 30))
        s.faults.append(Fault(kind: .appTermination(ratePerDeviceDay: rng.uniform(0, 4)), at: .zero, duration: nil, cohort: nil, fraction: 1))
        if rng.chance(0.5) {
            let at = SimDuration(microseconds: Int64(rng.uniform(0, 0.8) * Double(s.duration.microseconds)))
            s.faults.append(Fault(kind: .backendOutage, at: at, duration: .fromSeconds(rng.uniform(600, 21_600)), cohort: nil, fraction: 1))
        }
        return s
    }
}
