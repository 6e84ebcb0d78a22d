import SimKernel
import AppLogic
import Platform
import Scenario

/// What happens to a device, dispatched: the user opens the app, the phone is plugged
/// in or unplugged, a fault starts or ends, and the app's process resumes (cold start),
/// is suspended, terminated (in-memory state and unpersisted writes lost) or persisted
/// (UserDefaults reaches the disk). The core's parts (the next open, the battery, which
/// devices a fault touches) are ``WorldCore``'s; the features that react are listed in
/// Features/Features.swift and nowhere else; the OS hears through its seam (OS/OSSeam.swift).
extension World {
    // MARK: - The user

    /// The user opens the app by habit, and the next open is drawn.
    mutating func userOpensApp(_ d: UInt32) {
        openApp(d, fromNotification: false)
        core.scheduleNextOpen(d)
    }

    /// The user opens the app: the features' ground truth (a test seen, maybe taken), the
    /// token, the process, the OS, then every feature that hears of an open.
    mutating func openApp(_ d: UInt32, fromNotification: Bool) {
        let i = Int(d)
        core.metrics.appOpens += 1
        core.observeAppOpened(i)
        core.note(d, fromNotification ? "user opens the app from the notification" : "user opens the app")
        featuresHearOpening(d)
        // Signing in again (assumption) or renewing the token in the foreground.
        if !core.devices[i].signedIn { core.devices[i].signedIn = true; core.note(d, "user signs in") }
        tokens.issue(i, at: now)

        resume(d)
        // An open never shortens a foreground stay already planned (a user waiting on an analysis).
        core.devices[i].foregroundUntil = max(core.devices[i].foregroundUntil, now + World.foregroundSession)
        core.schedule(.foregroundSessionEnds(device: d, incarnation: core.devices[i].incarnation), after: World.foregroundSession)
        appOpened(d)
        featuresHearAppOpened(d)
    }

    // MARK: - The battery

    /// The user plugs the phone in or unplugs it (``WorldEvent/batterySwitch(device:)``):
    /// the battery's next switch is drawn and the OS hears of it.
    mutating func batterySwitches(_ d: UInt32) {
        core.toggleBattery(d)
        chargingChanged(d)
    }

    // MARK: - Faults

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
            if starting { core.faults.activeLatency.append(index) } else { core.faults.activeLatency.removeAll { $0 == index } }
        default:
            if featuresTakeFleetFault(fault.kind, starting: starting) { return }
            for d in core.devices.indices where core.isAffected(d, by: index) {
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
            core.observeCalendarMoved(i)
            core.note(d) { c in "fault: device clock now off by \(c.human(c.devices[i].clock.skew))" }
        case .timeZoneChange(let to):
            let target = core.faults.timeZoneIndex[index]
            core.observeCalendarMoved(i)
            // Owed screen sessions before now draw the next one where the user was.
            if core.devices[i].isAndroid { android.settleDoze(d, before: now, core: &core) }
            if starting {
                core.devices[i].clock.travel(to: target)
                core.note(d, "fault: user travels to \(to)")
            } else if core.devices[i].clock.location == target {
                // Back home, unless a later trip has moved the user on.
                core.devices[i].clock.travel(to: core.devices[i].homeTimeZone)
                core.note(d) { c in "fault: user returns to \(c.timeZones[Int(c.devices[i].homeTimeZone)])" }
            }
        case .appTermination(let rate):
            guard starting, rate > 0 else { return }
            let gap = SimDuration.fromSeconds(core.withStream(.os, of: i) { $0.exponential(mean: 86_400 / rate) })
            core.schedule(.jetsam(device: d, fault: UInt16(index)), after: gap)
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

    // MARK: - Process lifecycle

    /// The app runs (cold start if it was terminated); unpersisted writes get a flush.
    mutating func resume(_ d: UInt32) {
        let i = Int(d)
        if core.devices[i].process == .terminated { core.note(d, "app cold-starts") }
        core.devices[i].process = .running
        if core.devices[i].keyValue.dirty { core.armFlush(d) }
    }

    /// The OS launches the app in the background (a background task or job, a HealthKit
    /// wake, an Android step job): the launch costs energy by the state it finds the app
    /// in (``DeviceEnergyModel/launchJoules(from:)``), charged to the operation open on
    /// the app's books (or outside any), then the app runs.
    mutating func backgroundLaunch(_ d: UInt32) {
        let i = Int(d)
        let joules = core.cohorts[Int(core.devices[i].cohort)].energy.launchJoules(from: core.devices[i].process)
        if joules > 0 { core.devices[i].ledger.chargeApp(joules: joules) }
        resume(d)
    }

    /// The one rule for whether the OS may suspend the app now (docs/model.md,
    /// "Suspension"): it runs, out of the foreground, with no background task of its
    /// own running (a `BGTask`) and no feature's work holding it (``featuresHoldProcess(_:)``).
    @inline(__always) func mayBeSuspended(_ i: Int) -> Bool {
        core.devices[i].process == .running && now >= core.devices[i].foregroundUntil
            && !core.devices[i].task.running && !featuresHoldProcess(i)
    }

    /// The OS suspends the app, if the one rule (``mayBeSuspended(_:)``) allows: every
    /// suspension path ends here, so none can skip a hold.
    mutating func suspend(_ d: UInt32) {
        guard mayBeSuspended(Int(d)) else { return }
        featuresHearSuspended(d)
        core.devices[Int(d)].process = .suspended
        core.note(d, "app suspended")
    }

    /// Abrupt termination: in-memory state and unpersisted writes are lost.
    mutating func terminate(_ d: UInt32) {
        let i = Int(d)
        if core.devices[i].keyValue.dirty { core.note(d, "UserDefaults: unpersisted writes lost") }
        core.devices[i].process = .terminated
        core.devices[i].incarnation &+= 1
        core.devices[i].keyValue.dirty = false
        core.cancelFlush(d)
        featuresHearTerminated(d)
        if core.devices[i].task.running { endTask(d) }
    }

    mutating func jetsam(_ d: UInt32, fault: Int) {
        let f = scenario.faults[fault]
        let until = f.duration.map { SimTime.zero + f.at + $0 } ?? end
        guard now < until, case .appTermination(let rate) = f.kind else { return }
        let i = Int(d)
        if core.devices[i].process != .terminated {
            core.metrics.jetsamKills += 1
            core.note(d, "OS: app terminated (jetsam)")
            terminate(d)
        }
        let gap = SimDuration.fromSeconds(core.withStream(.os, of: i) { $0.exponential(mean: 86_400 / rate) })
        core.schedule(.jetsam(device: d, fault: UInt16(fault)), after: gap)
    }

    // MARK: - Key-value durability

    mutating func persist(_ d: UInt32, how: String) {
        let i = Int(d)
        featuresPersist(i)
        core.devices[i].keyValue.dirty = false
        core.cancelFlush(d)
        core.note(d, "UserDefaults: \(how)")
    }

    /// The foreground session is over: the features hear the app leave; the app is
    /// suspended unless background work holds it (or the user force-quits it).
    mutating func foregroundSessionEnds(_ d: UInt32, incarnation: UInt32) {
        let i = Int(d)
        guard core.devices[i].incarnation == incarnation, core.devices[i].process == .running,
              now >= core.devices[i].foregroundUntil else { return }
        featuresHearLeftForeground(d)
        // The user may swipe away only an app the OS would suspend.
        guard mayBeSuspended(i) else { return }
        if userMayForceQuit(d) { return }
        suspend(d)
    }

    /// Shortly after a task completed, the OS suspends an app nothing else holds.
    mutating func suspendAfterTask(_ d: UInt32, serial: UInt32) {
        guard core.devices[Int(d)].task.serial == serial else { return }
        suspend(d)
    }

    /// The persistence delay is over: UserDefaults writes a running app's dirty state.
    mutating func keyValueFlushDue(_ d: UInt32, generation: UInt32) {
        let i = Int(d)
        guard core.devices[i].keyValue.flush.isCurrent(generation), core.devices[i].process == .running else { return }
        persist(d, how: "persisted by UserDefaults")
    }
}
