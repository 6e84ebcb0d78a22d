import SimKernel
import Platform

/// iOS: when the system grants a pending `BGAppRefreshTask` a launch, by
/// ``LaunchPolicyModel``: looks at opportunities after `earliestBeginDate`, a grant
/// probability that follows the user's own hours of use, charging and Wi-Fi, a daily
/// budget that grows with use, and the hard rules of `docs/platform-facts.md` F
/// (Background App Refresh off, Low Power Mode, force-quit). The charger, the Wi-Fi and
/// the local hour come from the world (the OS seam's ``World/launchPolicyGrants(_:generation:)``).
extension WorldCore {
    /// The system's first look at a request just submitted.
    mutating func scheduleFirstLook(_ d: UInt32, earliestBegin: SimTime, generation: UInt32) {
        let i = Int(d)
        let policy = cohorts[Int(devices[i].cohort)].launchPolicy
        let now = self.now
        let look = withStream(.os, of: i) { policy.firstLook(earliestBegin: earliestBegin, now: now, rng: &$0) }
        schedule(.taskLaunch(device: d, generation: generation), at: look)
        note(d) { c in "OS: BGAppRefreshTask request pending, earliest \(c.format(earliestBegin)); the system first looks at \(c.format(look))" }
    }

    /// `work`'s request, which the policy blocked, gets a new look after a condition
    /// ended (an open after a force-quit).
    mutating func lookAgainSoon(_ d: UInt32, _ work: WorkID) {
        let i = Int(d), slot = launchPolicySlot(i)
        bgTaskRequests[slot].heldBack[Int(work.rawValue)] = false
        let generation = devices[i].task.pending.arm()
        bgTaskRequests[slot].generations[Int(work.rawValue)] = generation
        scheduleFirstLook(d, earliestBegin: now, generation: generation)
    }

    /// One look of the launch policy at the pending request under `conditions`, with the
    /// user's local hour `hourAhead` (the policy's usage lead from now); true when it
    /// grants the launch.
    mutating func launchPolicyGrants(_ d: UInt32, generation: UInt32, _ conditions: LaunchPolicyModel.Conditions, hourAhead: Int) -> Bool {
        let i = Int(d)
        let policy = cohorts[Int(devices[i].cohort)].launchPolicy
        metrics.platform.launchLooks += 1
        let slot = launchPolicySlot(i), now = self.now
        var state = launchPolicies[slot]
        let decision = withStream(.os, of: i) {
            policy.decide(now: now, conditions: conditions, localHourAhead: hourAhead, state: &state, rng: &$0)
        }
        launchPolicies[slot] = state
        switch decision {
        case .launch:
            metrics.platform.launchGrants += 1
            note(d) { c in "OS: launch policy grants a launch (\(c.launchPolicies[c.launchPolicySlot(i)].launchesInDay) of \(c.budget(i)) today; \(c.conditionText(conditions)), local hour ahead \(hourAhead))" }
            return true
        case .lookAgain(let at):
            schedule(.taskLaunch(device: d, generation: generation), at: at)
            if Double(launchPolicies[launchPolicySlot(i)].launchesInDay) >= policy.dailyBudget(launchPolicies[launchPolicySlot(i)]) {
                metrics.platform.budgetExhausted += 1
                note(d) { c in "OS: launch policy: daily budget of \(c.budget(i)) launches used; next look \(c.format(at))" }
            } else {
                note(d) { c in "OS: launch policy looks: not now (\(c.conditionText(conditions)), local hour ahead \(hourAhead)); next look \(c.format(at))" }
            }
            return false
        case .blocked(let reason):
            if let work = bgTaskRequests[slot].work(of: generation) { bgTaskRequests[slot].heldBack[Int(work.rawValue)] = true }
            switch reason {
            case .lowPowerMode:
                metrics.launchesHeldBack += 1
                note(d, "OS: BGAppRefreshTask due but held back (Low Power Mode)")
            case .forceQuit:
                metrics.platform.heldBackByForceQuit += 1
                note(d, "OS: BGAppRefreshTask due but held back (the user force-quit the app; none until the next open)")
            case .backgroundAppRefreshOff:
                note(d, "OS: BGAppRefreshTask due but held back (Background App Refresh off)")
            }
            return false
        }
    }

    private func budget(_ i: Int) -> String {
        let b = cohorts[Int(devices[i].cohort)].launchPolicy.dailyBudget(launchPolicies[launchPolicySlot(i)])
        return String((b * 10).rounded() / 10)
    }

    private func conditionText(_ c: LaunchPolicyModel.Conditions) -> String {
        "\(c.charging ? "charging" : "unplugged"), \(c.onWiFi ? "Wi-Fi" : "cellular")\(c.requirementsMet ? "" : ", the request's requirements unmet")"
    }

    /// An open at the user's local hour `hour`, as the launch policy learns it: the
    /// user's hours of use, and an open after a force-quit allows launches again.
    mutating func launchPolicySeesOpen(_ d: UInt32, localHour hour: Int) {
        let i = Int(d)
        let model = cohorts[Int(devices[i].cohort)].launchPolicy
        let wasForceQuit = launchPolicies[launchPolicySlot(i)].forceQuit
        launchPolicies[launchPolicySlot(i)].appOpened(at: now, localHour: hour, model: model)
        if wasForceQuit { note(d, "OS: launch policy: the app was opened again after a force-quit; launches allowed") }
        // Each request the policy blocked (force-quit) gets a new look.
        guard !devices[i].lowPowerMode else { return }
        WorkID.forEach { work in
            let requests = bgTaskRequests[launchPolicySlot(i)]
            if requests.heldBack[Int(work.rawValue)], requests.isPending(work) { lookAgainSoon(d, work) }
        }
    }

    /// iOS: when a foreground session ends, the user may swipe the app away
    /// (`usage.forceQuitProbability`, an **assumption**); the launch policy then launches
    /// nothing until the next open (`docs/platform-facts.md` F). Returns true when the
    /// user force-quit the app (the seam terminates it).
    mutating func userSwipesAppAway(_ d: UInt32) -> Bool {
        let i = Int(d)
        let p = cohorts[Int(devices[i].cohort)].usage.forceQuitProbability
        guard p > 0, withStream(.user, of: i, { $0.chance(p) }) else { return false }
        metrics.platform.forceQuits += 1
        note(d, "user force-quits the app (swipes it away in the app switcher)")
        launchPolicies[launchPolicySlot(i)].userForceQuits()
        return true
    }
}
