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
        let policy = core.cohorts[Int(core.devices[i].cohort)].launchPolicy
        let now = self.now
        let look = core.withStream(.os, of: i) { policy.firstLook(earliestBegin: earliestBegin, now: now, rng: &$0) }
        core.clock.schedule(.refreshLaunch(device: d, generation: generation), at: look)
        core.note(d, "OS: refresh request pending, earliest \(core.format(earliestBegin)); the system first looks at \(core.format(look))")
    }

    /// A request the policy blocked gets a new look after a condition ended (an open
    /// after a force-quit).
    mutating func lookAgainSoon(_ d: UInt32) {
        let i = Int(d)
        core.devices[i].task.heldBack = false
        let generation = core.devices[i].task.pending.arm()
        scheduleFirstLook(d, earliestBegin: now, generation: generation)
    }

    /// One look of the launch policy at the pending request; true when it grants the launch.
    mutating func launchPolicyGrants(_ d: UInt32, generation: UInt32) -> Bool {
        let i = Int(d)
        let policy = core.cohorts[Int(core.devices[i].cohort)].launchPolicy
        let conditions = LaunchPolicyModel.Conditions(
            backgroundAppRefresh: core.devices[i].backgroundAppRefresh, lowPowerMode: core.devices[i].lowPowerMode,
            charging: core.isCharging(i), onWiFi: core.onWiFi(i, at: now))
        let hourAhead = core.userLocalTime(i, at: now + policy.usageLead).hour
        core.metrics.platform.launchLooks += 1
        let slot = core.launchPolicySlot(i), now = self.now
        var state = core.launchPolicies[slot]
        let decision = core.withStream(.os, of: i) {
            policy.decide(now: now, conditions: conditions, localHourAhead: hourAhead, state: &state, rng: &$0)
        }
        core.launchPolicies[slot] = state
        switch decision {
        case .launch:
            core.metrics.platform.launchGrants += 1
            core.note(d, "OS: launch policy grants the refresh (\(core.launchPolicies[core.launchPolicySlot(i)].launchesInDay) of \(budget(i)) today; \(conditionText(conditions)), local hour ahead \(hourAhead))")
            return true
        case .lookAgain(let at):
            core.clock.schedule(.refreshLaunch(device: d, generation: generation), at: at)
            if Double(core.launchPolicies[core.launchPolicySlot(i)].launchesInDay) >= policy.dailyBudget(core.launchPolicies[core.launchPolicySlot(i)]) {
                core.metrics.platform.budgetExhausted += 1
                core.note(d, "OS: launch policy: daily budget of \(budget(i)) launches used; next look \(core.format(at))")
            } else {
                core.note(d, "OS: launch policy looks: not now (\(conditionText(conditions)), local hour ahead \(hourAhead)); next look \(core.format(at))")
            }
            return false
        case .blocked(let reason):
            core.devices[i].task.heldBack = true
            switch reason {
            case .lowPowerMode:
                core.metrics.launchesHeldBack += 1
                core.note(d, "OS: refresh due but held back (Low Power Mode)")
            case .forceQuit:
                core.metrics.platform.heldBackByForceQuit += 1
                core.note(d, "OS: refresh due but held back (the user force-quit the app; none until the next open)")
            case .backgroundAppRefreshOff:
                core.note(d, "OS: refresh due but held back (Background App Refresh off)")
            }
            return false
        }
    }

    private func budget(_ i: Int) -> String {
        let b = core.cohorts[Int(core.devices[i].cohort)].launchPolicy.dailyBudget(core.launchPolicies[core.launchPolicySlot(i)])
        return String((b * 10).rounded() / 10)
    }

    private func conditionText(_ c: LaunchPolicyModel.Conditions) -> String {
        "\(c.charging ? "charging" : "unplugged"), \(c.onWiFi ? "Wi-Fi" : "cellular")"
    }

    /// An open, as the launch policy learns it: the user's hours of use, and an open
    /// after a force-quit allows launches again.
    mutating func launchPolicySeesOpen(_ d: UInt32) {
        let i = Int(d)
        let model = core.cohorts[Int(core.devices[i].cohort)].launchPolicy
        let hour = core.userLocalTime(i, at: now).hour
        let wasForceQuit = core.launchPolicies[core.launchPolicySlot(i)].forceQuit
        core.launchPolicies[core.launchPolicySlot(i)].appOpened(at: now, localHour: hour, model: model)
        if wasForceQuit { core.note(d, "OS: launch policy: the app was opened again after a force-quit; launches allowed") }
        // A request the policy blocked (force-quit) gets a new look.
        if core.devices[i].task.heldBack, core.devices[i].task.hasPending, !core.devices[i].lowPowerMode {
            lookAgainSoon(d)
        }
    }

    /// iOS: when a foreground session ends, the user may swipe the app away
    /// (`usage.forceQuitProbability`, an **assumption**). The app is terminated and the
    /// launch policy launches nothing until the next open (`docs/platform-facts.md` F).
    /// Returns true when the user force-quit the app.
    mutating func iOSUserMayForceQuit(_ d: UInt32) -> Bool {
        let i = Int(d)
        let p = core.cohorts[Int(core.devices[i].cohort)].usage.forceQuitProbability
        guard p > 0, core.withStream(.user, of: i, { $0.chance(p) }) else { return false }
        core.metrics.platform.forceQuits += 1
        core.note(d, "user force-quits the app (swipes it away in the app switcher)")
        core.launchPolicies[core.launchPolicySlot(i)].userForceQuits()
        terminate(d)
        return true
    }
}
