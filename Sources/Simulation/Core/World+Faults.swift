import SimKernel
import Platform
import Scenario

extension World {
    /// Whether fault `index` touches device `d`: in its cohort (if narrowed), and in its
    /// `fraction`, drawn from a stream of (seed, device, fault) so the choice is the
    /// same at the fault's start and end and independent of everything else.
    func isAffected(_ d: Int, by index: Int) -> Bool {
        let fault = scenario.faults[index]
        if let name = fault.cohort, cohorts[Int(devices[d].cohort)].name != name { return false }
        if fault.fraction >= 1 { return true }
        var stream = RandomStream(seed: scenario.seed, entity: globalID(d), purpose: faultPurposes[index])
        return stream.chance(fault.fraction)
    }

    /// The extra latency of the `networkLatency` faults in force that touch device `d`.
    mutating func extraLatency(_ d: Int) -> SimDuration {
        var extra = SimDuration.zero
        for index in activeLatencyFaults where isAffected(d, by: index) {
            if case .networkLatency(let distribution) = scenario.faults[index].kind {
                extra = extra + distribution.sampleDuration(&devices[d].networkStream)
            }
        }
        return extra
    }

    mutating func applyFault(_ index: Int, starting: Bool) {
        let fault = scenario.faults[index]
        // Faults may overlap: every start is undone by its own end, never by another's.
        switch fault.kind {
        case .backendOutage:
            if starting { server.outageStarts() } else { server.outageEnds() }
        case .backendSlowdown(let factor):
            if starting { server.slowdownStarts(factor) } else { server.slowdownEnds(factor) }
        case .networkLatency:
            if starting { activeLatencyFaults.append(index) } else { activeLatencyFaults.removeAll { $0 == index } }
        case .pushProviderErrors, .pushProviderOutage:
            push.applyFault(fault.kind, starting: starting)
        default:
            for d in devices.indices where isAffected(d, by: index) {
                applyDeviceFault(fault, index: index, device: UInt32(d), starting: starting)
            }
        }
    }

    private mutating func applyDeviceFault(_ fault: Fault, index: Int, device d: UInt32, starting: Bool) {
        let i = Int(d)
        switch fault.kind {
        case .networkOutage:
            devices[i].outageFaults = starting ? devices[i].outageFaults + 1 : devices[i].outageFaults - 1
            note(d, starting ? "fault: network outage begins" : "fault: network outage ends")
            if !starting, devices[i].online { pushDeviceReachable(d) }
        case .clockSkew(let offset):
            devices[i].clock.skew = starting ? devices[i].clock.skew + offset : devices[i].clock.skew - offset
            observeCalendarMoved(i)
            note(d, "fault: device clock now off by \(human(devices[i].clock.skew))")
        case .timeZoneChange(let to):
            let target = timeZoneIndex[index]
            observeCalendarMoved(i)
            if starting {
                devices[i].clock.travel(to: target)
                note(d, "fault: user travels to \(to)")
            } else if devices[i].clock.location == target {
                // Back home, unless a later trip has moved the user on.
                devices[i].clock.travel(to: devices[i].homeTimeZone)
                note(d, "fault: user returns to \(timeZones[Int(devices[i].homeTimeZone)])")
            }
        case .appTermination(let rate):
            guard starting, rate > 0 else { return }
            let gap = SimDuration.fromSeconds(devices[i].osStream.exponential(mean: 86_400 / rate))
            clock.schedule(.jetsam(device: d, fault: UInt16(index)), after: gap)
        case .authExpiry:
            tokens.expire(i, at: now)
            note(d, "fault: auth token expires")
        case .lowPowerMode:
            devices[i].lowPowerFaults = starting ? devices[i].lowPowerFaults + 1 : devices[i].lowPowerFaults - 1
            note(d, starting ? "fault: Low Power Mode on" : "fault: Low Power Mode off")
            lowPowerModeChanged(d, on: starting)
        case .backendOutage, .backendSlowdown, .networkLatency, .pushProviderErrors, .pushProviderOutage:
            break
        }
    }
}
