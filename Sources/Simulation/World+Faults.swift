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
        var stream = RandomStream(seed: scenario.seed, entity: UInt64(d), purpose: StreamPurpose("fault.\(index)"))
        return stream.chance(fault.fraction)
    }

    mutating func applyFault(_ index: Int, starting: Bool) {
        let fault = scenario.faults[index]
        switch fault.kind {
        case .backendOutage:
            server.outage = starting
        case .backendSlowdown(let factor):
            server.slowdown = starting ? factor : 1
        case .pushProviderErrors, .pushProviderOutage:
            break  // rejected by the decoder until the push pipeline exists
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
        case .networkLatency:
            if starting { devices[i].latencyFault = Int16(index) } else if devices[i].latencyFault == Int16(index) { devices[i].latencyFault = -1 }
        case .clockSkew(let offset):
            devices[i].clock.skew = starting ? offset : .zero
            note(d, "fault: device clock now off by \(devices[i].clock.skew)")
        case .timeZoneChange(let to):
            let zone = starting ? UInt16(timeZones.firstIndex(of: to)!) : devices[i].homeTimeZone
            devices[i].clock.timeZone = zone
            note(d, "fault: user \(starting ? "travels to" : "returns to") \(timeZones[Int(zone)])")
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
            // A request held back while Low Power Mode was on gets a new launch moment.
            if !starting, devices[i].task.heldBack, !devices[i].lowPowerMode {
                submitRefresh(d, earliestBegin: now)
            }
        case .backendOutage, .backendSlowdown, .pushProviderErrors, .pushProviderOutage:
            break
        }
    }
}
