import SimKernel
import Platform
import Scenario

extension World {
    /// Whether fault `index` touches device `d`: in its cohort (if narrowed), and in its
    /// `fraction`, drawn from a stream of (seed, device, fault) so the choice is the
    /// same at the fault's start and end and independent of everything else.
    func isAffected(_ d: Int, by index: Int) -> Bool {
        let fault = scenario.faults[index]
        if let name = fault.cohort, core.cohorts[Int(core.devices[d].cohort)].name != name { return false }
        if fault.fraction >= 1 { return true }
        var stream = RandomStream(seed: scenario.seed, entity: core.globalID(d), purpose: faultPurposes[index])
        return stream.chance(fault.fraction)
    }

    /// The extra latency of the `networkLatency` faults in force that touch device `d`.
    mutating func extraLatency(_ d: Int) -> SimDuration {
        var extra = SimDuration.zero
        for index in activeLatencyFaults where isAffected(d, by: index) {
            if case .networkLatency(let distribution) = scenario.faults[index].kind {
                extra = extra + core.withStream(.network, of: d) { distribution.sampleDuration(&$0) }
            }
        }
        return extra
    }

    /// A fault's start or end: an event of the whole fleet, which every shard processes
    /// (counted in ``World/fleetWideEvents``).
    mutating func applyFault(_ index: Int, starting: Bool) {
        fleetWideEvents += 1
        let fault = scenario.faults[index]
        // Faults may overlap: every start is undone by its own end, never by another's.
        switch fault.kind {
        case .backendOutage:
            if starting { server.outageStarts() } else { server.outageEnds() }
        case .backendSlowdown(let factor):
            if starting { server.slowdownStarts(factor) } else { server.slowdownEnds(factor) }
        case .networkLatency:
            if starting { activeLatencyFaults.append(index) } else { activeLatencyFaults.removeAll { $0 == index } }
        default:
            if featuresTakeFleetFault(fault.kind, starting: starting) { return }
            for d in core.devices.indices where isAffected(d, by: index) {
                applyDeviceFault(fault, index: index, device: UInt32(d), starting: starting)
            }
        }
    }

    private mutating func applyDeviceFault(_ fault: Fault, index: Int, device d: UInt32, starting: Bool) {
        let i = Int(d)
        switch fault.kind {
        case .networkOutage:
            core.devices[i].outageFaults = starting ? core.devices[i].outageFaults + 1 : core.devices[i].outageFaults - 1
            core.note(d, starting ? "fault: network outage begins" : "fault: network outage ends")
            if !starting, core.devices[i].online { featuresHearReachable(d) }
        case .clockSkew(let offset):
            core.devices[i].clock.skew = starting ? core.devices[i].clock.skew + offset : core.devices[i].clock.skew - offset
            observeCalendarMoved(i)
            core.note(d, "fault: device clock now off by \(core.human(core.devices[i].clock.skew))")
        case .timeZoneChange(let to):
            let target = timeZoneIndex[index]
            observeCalendarMoved(i)
            if starting {
                core.devices[i].clock.travel(to: target)
                core.note(d, "fault: user travels to \(to)")
            } else if core.devices[i].clock.location == target {
                // Back home, unless a later trip has moved the user on.
                core.devices[i].clock.travel(to: core.devices[i].homeTimeZone)
                core.note(d, "fault: user returns to \(core.timeZones[Int(core.devices[i].homeTimeZone)])")
            }
        case .appTermination(let rate):
            guard starting, rate > 0 else { return }
            let gap = SimDuration.fromSeconds(core.withStream(.os, of: i) { $0.exponential(mean: 86_400 / rate) })
            core.clock.schedule(.jetsam(device: d, fault: UInt16(index)), after: gap)
        case .authExpiry:
            tokens.expire(i, at: now)
            core.note(d, "fault: auth token expires")
        case .lowPowerMode:
            core.devices[i].lowPowerFaults = starting ? core.devices[i].lowPowerFaults + 1 : core.devices[i].lowPowerFaults - 1
            core.note(d, starting ? "fault: Low Power Mode on" : "fault: Low Power Mode off")
            lowPowerModeChanged(d, on: starting)
        default:
            // The fleet's faults (``applyFault(_:starting:)``).
            break
        }
    }
}
