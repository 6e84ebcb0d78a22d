import SimKernel
import Platform
import Scenario

/// The scenario's faults as the core keeps them (``WorldCore/faults``): which devices a
/// narrowed fault touches, where a time-zone fault takes the user, and the latency
/// faults in force. What a fault does when it starts or ends is the world's dispatch
/// (Core/World+Lifecycle.swift, ``World/applyFault(_:starting:)``).
struct FaultState {
    /// One stream purpose per fault (which devices a narrowed fault touches).
    let purposes: [StreamPurpose]
    /// The time-zone table index of each `timeZoneChange` fault's destination.
    let timeZoneIndex: [UInt16]
    /// Indices of the `networkLatency` faults in force.
    var activeLatency: [Int] = []

    /// `zones`: the fleet's time-zone table.
    init(_ faults: [Fault], zones: [String]) {
        purposes = faults.indices.map { StreamPurpose("fault.\($0)") }
        timeZoneIndex = faults.map { fault in
            if case .timeZoneChange(let to) = fault.kind { return UInt16(zones.firstIndex(of: to) ?? 0) }
            return 0
        }
    }
}

extension WorldCore {
    /// Whether fault `index` touches device `d`: in its cohort (if narrowed), and in its
    /// `fraction`, drawn from a stream of (seed, device, fault) so the choice is the
    /// same at the fault's start and end and independent of everything else.
    func isAffected(_ d: Int, by index: Int) -> Bool {
        let fault = scenario.faults[index]
        if let name = fault.cohort, cohorts[Int(devices[d].cohort)].name != name { return false }
        if fault.fraction >= 1 { return true }
        var stream = RandomStream(seed: scenario.seed, entity: globalID(d), purpose: faults.purposes[index])
        return stream.chance(fault.fraction)
    }

    /// The extra latency of the `networkLatency` faults in force that touch device `d`.
    mutating func extraLatency(_ d: Int) -> SimDuration {
        var extra = SimDuration.zero
        for index in faults.activeLatency where isAffected(d, by: index) {
            if case .networkLatency(let distribution) = scenario.faults[index].kind {
                extra = extra + withStream(.network, of: d) { distribution.sampleDuration(&$0) }
            }
        }
        return extra
    }
}
