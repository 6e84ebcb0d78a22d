import Testing
import SimKernel
import Scenario
import Reports
@testable import Simulation

/// The push the iOS silent-push throttle holds, in whole-world runs (docs/model.md, Push):
/// delivered at its time, at once if the user opens the app first, discarded if the app is
/// force-quit, killed or uninstalled first; and no silent push wakes an app whose Background
/// App Refresh is off.
@Suite struct SilentPushWorldTests {
    /// `count` iPhones that push only, all authorized, Background App Refresh `refresh`,
    /// no Low Power Mode, no offline spells, no opens from a push (the only opens are
    /// `opensPerDay`): 240 low-priority notifications a day, each a badge-only silent push.
    static func scenario(count: Int = 1, duration: String = "1d", opensPerDay: Double = 0, refresh: Double = 1,
                         forceQuit: Double = 0, kills: Double = 0, reinstalls: Double = 0, seed: Int = 3,
                         tieBreak: String = "fifo", foreground: String = "throttled") throws -> Scenario {
        try Fixtures.decode("""
        {"name": "held", "duration": "\(duration)", "seed": \(seed), "tieBreak": "\(tieBreak)",
         "fleet": [{"cohort": "c", "count": \(count), "platform": "ios", "features": ["push"],
           "usage": {"appOpensPerDay": \(opensPerDay), "forceQuitProbability": \(forceQuit)},
           "network": {"offlineSpellsPerDay": 0}, "ios": {"foregroundSilentPush": "\(foreground)"},
           "settings": {"notificationPermission": {"authorized": 1}, "lowPowerMode": 0, "backgroundAppRefresh": \(refresh)},
           "push": {"quietHours": {"none": 1}, "openProbability": 0, "optOut": {"challenges": 0, "announcements": 0},
             "sources": {"assignmentDue": {"perDay": 240, "priority": {"low": 1}},
                         "teacherFeedback": {"perDay": 0}, "challenge": {"perDay": 0}, "announcement": {"perDay": 0}},
             "tokenRotationsPerMonth": 0, "reinstallsPerMonth": \(reinstalls)}}],
         "faults": [{"kind": "appTermination", "at": "0s", "rate": \(kills)}]}
        """)
    }

    /// Device 0's silent-push counters (``PushMetrics/silentNames``).
    static func silent(_ world: World, _ name: String) -> UInt64 {
        world.features.push.metrics.silent[PushMetrics.silentNames.firstIndex(of: name)!]
    }

    /// A traced world run until device 0's throttle first holds a push; returns its due time.
    static func untilHeld(_ world: inout World) -> SimTime {
        while !world.features.push.truth[0].silent.waiting {
            world.run(until: world.now + .minutes(1))
        }
        return world.features.push.truth[0].silent.waitingUntil
    }

    static func lines(_ world: World, containing text: String) -> [SimTime] {
        world.trace.filter { $0.line.contains(text) }.map(\.time)
    }

    /// Apple: "If the user launches the app, the system immediately delivers the held
    /// notification": an open one second before the due time delivers it then, and the
    /// due time finds nothing.
    /// `ios.foregroundSilentPush`: by default a silent push to the app in the foreground
    /// goes through the throttle like a background one (an assumption: Apple documents the
    /// throttle for background delivery); `delivered` hands it to the running app at once.
    /// 48 opens a day of 3 min each against a push every 6 min: some arrive in the foreground.
    @Test func aForegroundSilentPushIsThrottledUnlessTheKeySaysDelivered() throws {
        var throttled = World(scenario: try Self.scenario(opensPerDay: 48), traceDevice: 0)
        throttled.runToEnd()
        var delivered = World(scenario: try Self.scenario(opensPerDay: 48, foreground: "delivered"), traceDevice: 0)
        delivered.runToEnd()
        let line = "OS: silent push delivered to the app in the foreground"
        let inForeground = delivered.trace.filter { $0.line.contains(line) }.count
        #expect(inForeground > 5)
        #expect(!throttled.trace.contains { $0.line.contains(line) })
        #expect(Self.silent(delivered, "delivered") > Self.silent(throttled, "delivered"))
        #expect(Self.silent(delivered, "coalesced") < Self.silent(throttled, "coalesced"))
    }

    @Test func anOpenOneSecondBeforeTheDueTimeDeliversTheHeldPushThen() throws {
        var world = World(scenario: try Self.scenario(), traceDevice: 0)
        let due = Self.untilHeld(&world)
        world.core.clock.schedule(.userOpensApp(device: 0), at: due - .seconds(1))
        world.run(until: due + .minutes(1))
        #expect(Self.lines(world, containing: "delivered at the launch") == [due - .seconds(1)])
        #expect(Self.silent(world, "deliveredAtLaunch") == 1)
        #expect(Self.silent(world, "deliveredAfterWait") == 0)
        #expect(Self.lines(world, containing: "OS: held silent push").count == 1)
    }

    /// One second after the due time the push was delivered in the background already:
    /// the open finds nothing held.
    @Test func anOpenOneSecondAfterTheDueTimeFindsNothingHeld() throws {
        var world = World(scenario: try Self.scenario(), traceDevice: 0)
        let due = Self.untilHeld(&world)
        world.core.clock.schedule(.userOpensApp(device: 0), at: due + .seconds(1))
        world.run(until: due + .seconds(2))
        #expect(Self.silent(world, "deliveredAfterWait") == 1)
        #expect(Self.silent(world, "deliveredAtLaunch") == 0)
        #expect(Self.lines(world, containing: "OS: held silent push (") == [due])
    }

    /// An open at the due instant itself: one delivery, whichever of the two events the
    /// queue takes first (first in, first out, or shuffled over seeds).
    @Test func anOpenAtTheDueInstantDeliversOnce() throws {
        for (tieBreak, seed) in [("fifo", 3)] + (1...6).map({ ("shuffle", $0) }) {
            var world = World(scenario: try Self.scenario(seed: seed, tieBreak: tieBreak), traceDevice: 0)
            let due = Self.untilHeld(&world)
            world.core.clock.schedule(.userOpensApp(device: 0), at: due)
            world.run(until: due + .seconds(1))
            #expect(Self.silent(world, "deliveredAtLaunch") + Self.silent(world, "deliveredAfterWait") == 1, "\(tieBreak) \(seed)")
            #expect(Self.lines(world, containing: "OS: held silent push (") == [due], "\(tieBreak) \(seed)")
        }
    }

    /// Apple: "If something force quits or kills the app, the system discards the held
    /// notification": a kill one second before the due time discards it, nothing comes
    /// at the due time, and the next push can wake the app again (a kill is not a force-quit).
    @Test func aKillWhileHeldDiscardsIt() throws {
        var world = World(scenario: try Self.scenario(), traceDevice: 0)
        let due = Self.untilHeld(&world)
        world.run(until: due - .seconds(1))
        let killedAt = world.now
        world.terminate(0)
        #expect(Self.silent(world, "discardedAtKill") == 1)
        #expect(Self.lines(world, containing: "discarded (app terminated)") == [killedAt])
        world.run(until: due + .hours(2))
        // Every later hold ended at its time or is still held.
        #expect(Self.silent(world, "deliveredAfterWait") + Self.silent(world, "droppedAfterWait") + Self.stillHeld(world)
                == Self.silent(world, "held") - 1)
        #expect(!Self.lines(world, containing: "OS: held silent push (").contains(due))
        #expect(Self.silent(world, "delivered") > 3, "a push after the kill woke the app")
    }

    /// A force-quit ten minutes before the due time discards the held push, and the open five minutes later (which allows launches again) finds
    /// nothing held (pushes in between were dropped); nothing is delivered at the due time
    /// (a push after the open that the throttle holds is discarded by the next force-quit,
    /// at the end of that open's session: every session ends in one here).
    @Test func aForceQuitWhileHeldDiscardsItEvenIfTheUserReopensBeforeTheDueTime() throws {
        var world = World(scenario: try Self.scenario(forceQuit: 1), traceDevice: 0)
        let due = Self.untilHeld(&world)
        world.run(until: due - .minutes(10))
        let quitAt = world.now
        let quit = world.userMayForceQuit(0)
        #expect(quit)
        #expect(Self.lines(world, containing: "discarded (force-quit)") == [quitAt])
        world.core.clock.schedule(.userOpensApp(device: 0), at: due - .minutes(5))
        world.run(until: due + .seconds(1))
        #expect(Self.silent(world, "deliveredAtLaunch") == 0)
        #expect(Self.silent(world, "deliveredAfterWait") == 0)
        #expect(Self.silent(world, "discardedAtForceQuit") >= 1 && Self.silent(world, "discardedAtKill") == 0)
    }

    /// An uninstall while a push is held discards it.
    @Test func anUninstallWhileHeldDiscardsIt() throws {
        var world = World(scenario: try Self.scenario(), traceDevice: 0)
        let due = Self.untilHeld(&world)
        world.run(until: due - .seconds(1))
        _ = world.features.push.tokenLifecycle(0, reinstall: true, core: &world.core)
        world.run(until: due + .seconds(1))
        #expect(Self.lines(world, containing: "discarded (app uninstalled)").count == 1)
        #expect(Self.silent(world, "discardedAtKill") == 1)
        #expect(Self.silent(world, "deliveredAfterWait") + Self.silent(world, "droppedAfterWait") == 0)
    }

    /// Background App Refresh switched off while a push is held: dropped at the due time.
    @Test func refreshSwitchedOffWhileHeldDropsItAtTheDueTime() throws {
        var world = World(scenario: try Self.scenario(), traceDevice: 0)
        let due = Self.untilHeld(&world)
        world.run(until: due - .seconds(1))
        world.core.devices[0].backgroundAppRefresh = false
        world.run(until: due + .seconds(1))
        #expect(Self.silent(world, "droppedAfterWait") == 1)
        #expect(Self.lines(world, containing: "dropped (backgroundAppRefreshOff)").contains(due))
    }

    /// Off ten seconds before the due time and on again one second before: delivered then.
    @Test func refreshSwitchedOffAndOnAgainBeforeTheDueTimeStillDelivers() throws {
        var world = World(scenario: try Self.scenario(), traceDevice: 0)
        let due = Self.untilHeld(&world)
        world.run(until: due - .seconds(10))
        world.core.devices[0].backgroundAppRefresh = false
        world.run(until: due - .seconds(1))
        world.core.devices[0].backgroundAppRefresh = true
        world.run(until: due + .seconds(1))
        #expect(Self.silent(world, "deliveredAfterWait") == 1 && Self.silent(world, "droppedAfterWait") == 0)
    }

    /// Off while held, then the user opens the app: delivered at the launch (a foreground
    /// delivery, which Background App Refresh does not govern: an assumption).
    @Test func refreshSwitchedOffWhileHeldThenTheUserOpensDelivers() throws {
        var world = World(scenario: try Self.scenario(), traceDevice: 0)
        let due = Self.untilHeld(&world)
        world.run(until: due - .seconds(10))
        world.core.devices[0].backgroundAppRefresh = false
        world.core.clock.schedule(.userOpensApp(device: 0), at: due - .seconds(5))
        world.run(until: due + .seconds(1))
        #expect(Self.silent(world, "deliveredAtLaunch") == 1)
        #expect(Self.silent(world, "deliveredAfterWait") + Self.silent(world, "droppedAfterWait") == 0)
    }

    /// A cohort with Background App Refresh off must get no silent-push wakes. Off: none
    /// at arrival, after a wait or at a launch, and every push dropped at arrival; on: wakes.
    @Test func aCohortWithBackgroundAppRefreshOffGetsNoSilentPushWakes() throws {
        let off = try PushLifecycleTests.run(try Self.scenario(count: 10, duration: "2d", opensPerDay: 4, refresh: 0))
        for key in ["delivered", "coalesced", "held", "deliveredAfterWait", "deliveredAtLaunch", "discardedAtForceQuit", "discardedAtKill"] {
            #expect(PushLifecycleTests.count(off, "push.display.silent.\(key)") == 0, "\(key)")
        }
        #expect(PushLifecycleTests.count(off, "push.display.silent.dropped") > 1_000)
        let on = try PushLifecycleTests.run(try Self.scenario(count: 10, duration: "2d", opensPerDay: 4, refresh: 1))
        #expect(PushLifecycleTests.count(on, "push.display.silent.delivered") > 100)
    }

    /// The independent check of silent-push holds over a fleet with opens, force-quits and jetsam
    /// kills: walking each device's story, every hold ends by the first of the user's open
    /// (delivered then), a force-quit or kill (discarded then) and its due time (delivered
    /// or dropped then); and the report's counts add up: each hold ended one way or is
    /// still held at the end. Each way happens, so the check cannot pass vacuously.
    @Test func everyHoldEndsByTheFirstOfAnOpenAKillAndItsDueTime() throws {
        let devices = 8
        let scenario = try Self.scenario(count: devices, duration: "2d", opensPerDay: 8, forceQuit: 0.3, kills: 3)
        var ends = [String: Int]()
        for device in 0..<devices {
            var world = World(scenario: scenario, traceDevice: device)
            world.runToEnd()
            var held = false, opened = false, killed = false
            for (time, line) in world.trace {
                if line.contains("OS: silent push held until") {
                    #expect(!held, "device \(device) at \(time): \(line)")
                    held = true; opened = false; killed = false
                    continue
                }
                guard held else { continue }
                if line.contains("user opens the app") { opened = true }
                if line.contains("user force-quits the app") || line.contains("OS: app terminated (jetsam)") { killed = true }
                guard line.contains("OS: held silent push (") else { continue }
                let way: String
                if line.contains("delivered at the launch") {
                    way = "launch"
                    #expect(opened && !killed, "device \(device) at \(time): \(line)")
                } else if line.contains("discarded") {
                    way = "kill"
                    #expect(killed && !opened, "device \(device) at \(time): \(line)")
                } else {
                    way = "due"
                    #expect(!opened && !killed, "device \(device) at \(time): \(line)")
                }
                ends[way, default: 0] += 1
                held = false
            }
            guard device == 0 else { continue }
            let m = world.features.push.metrics.silent
            let count = { (n: String) in m[PushMetrics.silentNames.firstIndex(of: n)!] }
            #expect(count("held") == count("deliveredAfterWait") + count("droppedAfterWait") + count("deliveredAtLaunch")
                    + count("discardedAtForceQuit") + count("discardedAtKill") + Self.stillHeld(world))
        }
        #expect(ends["launch", default: 0] > 0 && ends["kill", default: 0] > 0 && ends["due", default: 0] > 0, "\(ends)")
    }

    /// The holds still open when the run ended, over the fleet.
    static func stillHeld(_ world: World) -> UInt64 {
        UInt64(world.features.push.truth.count { $0.silent.waiting })
    }
}
