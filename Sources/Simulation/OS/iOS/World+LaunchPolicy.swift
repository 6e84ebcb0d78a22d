import SimKernel
import Platform

/// iOS: when the system grants a pending `BGAppRefreshTask` a launch, by
/// ``LaunchPolicyModel``: looks at opportunities after `earliestBeginDate`, a grant
/// probability that follows the user's own hours of use, charging and Wi-Fi, a daily
/// budget that grows with use, and the hard rules of `docs/platform-facts.md` F (Background App
/// Refresh off, Low Power Mode, force-quit).
extension World {
    /// The system's first look at a request just submitted.
    mutating func scheduleFirstLook(_ d: UInt32, earliestBegin: SimTime, generation: UInt32) {
        let i = Int(d)
        let policy = cohorts[Int(devices[i].cohort)].launchPolicy
        let look = policy.firstLook(earliestBegin: earliestBegin, now: now, rng: &devices[i].osStream)
        clock.schedule(.refreshLaunch(device: d, generation: generation), at: look)
        note(d, "OS: refresh request pending, earliest \(format(earliestBegin)); the system first looks at \(format(look))")
    }

    /// A request the policy blocked gets a new look after a condition ended (an open
    /// after a force-quit).
    mutating func lookAgainSoon(_ d: UInt32) {
        let i = Int(d)
        devices[i].task.heldBack = false
        let generation = devices[i].task.pending.arm()
        scheduleFirstLook(d, earliestBegin: now, generation: generation)
    }

    /// One look of the launch policy at the pending request; true when it grants the launch.
    mutating func launchPolicyGrants(_ d: UInt32, generation: UInt32) -> Bool {
        let i = Int(d)
        let policy = cohorts[Int(devices[i].cohort)].launchPolicy
        let conditions = LaunchPolicyModel.Conditions(
            backgroundAppRefresh: devices[i].backgroundAppRefresh, lowPowerMode: devices[i].lowPowerMode,
            charging: isCharging(i), onWiFi: onWiFi(i, at: now))
        let hourAhead = userLocalTime(i, at: now + policy.usageLead).hour
        metrics.platform.launchLooks += 1
        var rng = devices[i].osStream
        let decision = policy.decide(now: now, conditions: conditions, localHourAhead: hourAhead,
                                     state: &devices[i].launchPolicy, rng: &rng)
        devices[i].osStream = rng
        switch decision {
        case .launch:
            metrics.platform.launchGrants += 1
            note(d, "OS: launch policy grants the refresh (\(devices[i].launchPolicy.launchesInDay) of \(budget(i)) today; \(conditionText(conditions)), local hour ahead \(hourAhead))")
            return true
        case .lookAgain(let at):
            clock.schedule(.refreshLaunch(device: d, generation: generation), at: at)
            if Double(devices[i].launchPolicy.launchesInDay) >= policy.dailyBudget(devices[i].launchPolicy) {
                metrics.platform.budgetExhausted += 1
                note(d, "OS: launch policy: daily budget of \(budget(i)) launches used; next look \(format(at))")
            } else {
                note(d, "OS: launch policy looks: not now (\(conditionText(conditions)), local hour ahead \(hourAhead)); next look \(format(at))")
            }
            return false
        case .blocked(let reason):
            devices[i].task.heldBack = true
            switch reason {
            case .lowPowerMode:
                metrics.launchesHeldBack += 1
                note(d, "OS: refresh due but held back (Low Power Mode)")
            case .forceQuit:
                metrics.platform.heldBackByForceQuit += 1
                note(d, "OS: refresh due but held back (the user force-quit the app; none until the next open)")
            case .backgroundAppRefreshOff:
                note(d, "OS: refresh due but held back (Background App Refresh off)")
            }
            return false
        }
    }

    private func budget(_ i: Int) -> String {
        let b = cohorts[Int(devices[i].cohort)].launchPolicy.dailyBudget(devices[i].launchPolicy)
        return String((b * 10).rounded() / 10)
    }

    private func conditionText(_ c: LaunchPolicyModel.Conditions) -> String {
        "\(c.charging ? "charging" : "unplugged"), \(c.onWiFi ? "Wi-Fi" : "cellular")"
    }

    /// An open, as the launch policy learns it: the user's hours of use, and an open
    /// after a force-quit allows launches again.
    mutating func launchPolicySeesOpen(_ d: UInt32) {
        let i = Int(d)
        let model = cohorts[Int(devices[i].cohort)].launchPolicy
        let hour = userLocalTime(i, at: now).hour
        let wasForceQuit = devices[i].launchPolicy.forceQuit
        devices[i].launchPolicy.appOpened(at: now, localHour: hour, model: model)
        if wasForceQuit { note(d, "OS: launch policy: the app was opened again after a force-quit; launches allowed") }
        // A request the policy blocked (force-quit) gets a new look.
        if devices[i].task.heldBack, devices[i].task.hasPending, !devices[i].lowPowerMode {
            lookAgainSoon(d)
        }
    }

    /// iOS: when a foreground session ends, the user may swipe the app away
    /// (`usage.forceQuitProbability`, an **assumption**). The app is terminated and the
    /// launch policy launches nothing until the next open (`docs/platform-facts.md` F).
    /// Returns true when the user force-quit the app.
    mutating func iOSUserMayForceQuit(_ d: UInt32) -> Bool {
        let i = Int(d)
        let p = cohorts[Int(devices[i].cohort)].usage.forceQuitProbability
        guard p > 0, devices[i].userStream.chance(p) else { return false }
        metrics.platform.forceQuits += 1
        note(d, "user force-quits the app (swipes it away in the app switcher)")
        devices[i].launchPolicy.userForceQuits()
        terminate(d)
        return true
    }
}
