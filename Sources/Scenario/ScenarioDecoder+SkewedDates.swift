import Foundation
import Reports
import SimKernel

extension ScenarioDecoder {
    /// The pre-1970 refusal (``checkLocalDates(start:fleet:file:)``) applied to each
    /// device's skewed clock: a `clockSkew` fault that sets a clock back before local
    /// 1970-01-01 is refused too (a start at 1970-01-01T12:00Z with a -3 d skew gave
    /// false violations). Skews add up while they overlap, so the clock is checked at every
    /// instant the sum changes (each skew's start, and its end when it has a duration),
    /// in every time zone of positive weight of every cohort the skew reaches (`fraction`
    /// above 0), from the true instant plus the skews then in force.
    static func checkSkewedLocalDates(start: Int64, duration: SimDuration, fleet: [Cohort], faults: [Fault], file: String) throws(ScenarioError) {
        let skews: [(index: Int, fault: Fault, offset: Int64)] = faults.enumerated().compactMap { k, fault in
            guard case .clockSkew(let offset) = fault.kind, fault.fraction > 0, fault.at < duration else { return nil }
            return (k, fault, offset.microseconds / 1_000_000)
        }
        guard !skews.isEmpty else { return }
        for cohort in fleet {
            let reaching = skews.filter { $0.fault.cohort == nil || $0.fault.cohort == cohort.name }
            // The instants the cohort's sum of skews changes, each with the fault that changes it.
            var instants: [(at: SimDuration, index: Int)] = reaching.map { ($0.fault.at, $0.index) }
            for s in reaching {
                if let d = s.fault.duration, s.fault.at + d < duration { instants.append((s.fault.at + d, s.index)) }
            }
            for instant in instants.sorted(by: { ($0.at, $0.index) < ($1.at, $1.index) }) {
                let inForce = reaching.filter { s in
                    s.fault.at <= instant.at && s.fault.duration.map { instant.at < s.fault.at + $0 } ?? true
                }
                let skew = inForce.reduce(Int64(0)) { $0 + $1.offset }
                let clock = start + instant.at.microseconds / 1_000_000 + skew
                let date = Date(timeIntervalSince1970: Double(clock))
                for (zone, weight) in cohort.timeZones.options where weight > 0 {
                    let offset = Int64(TimeZone(identifier: zone)?.secondsFromGMT(for: date) ?? 0)
                    guard clock + offset < 0 else { continue }
                    let local = String(UTCTimestamp.format(clock + offset).dropLast())
                    throw ScenarioError(file: file, path: "$.faults[\(instant.index)].offset",
                                        expected: "device clocks that stay at local 1970-01-01 or later (FleetSim's local calendar begins there; the start is \(UTCTimestamp.format(start)))",
                                        found: "a skew of \(SimDuration.seconds(skew)) in all at \(instant.at) into the run, when the clocks of cohort '\(cohort.name)' in \(zone) read \(local) local")
                }
            }
        }
    }
}
