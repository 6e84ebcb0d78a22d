import Testing
import SimKernel
@testable import Platform

/// BGProcessingTaskRequest (docs/platform-facts.md F): power and network requirements, idle
/// device, never after a force-quit, only for an app used within the past week.
@Suite struct iOSProcessingTaskTests {
    let model = BGProcessingTaskModel()
    let now = SimTime.zero + .days(10)

    func idle(charging: Bool = true, online: Bool = true, offFor: SimDuration = .hours(1), lastUse: SimDuration = .hours(5)) -> BGProcessingTaskModel.Conditions {
        .init(charging: charging, online: online, lowPowerMode: false, forceQuit: false, screenOn: false,
              screenOffFor: offFor, lastAppUse: now - lastUse)
    }

    @Test func aTaskRequiringPowerNeverRunsUnplugged() {
        var rng = RandomStream(seed: 5, entity: 0, purpose: "test.processing")
        var ran = 0
        for _ in 0..<20_000 {
            let request = BGProcessingTaskModel.Request(earliestBegin: now - .hours(rng.int(in: -2...2)),
                                                        requiresExternalPower: true, requiresNetworkConnectivity: rng.chance(0.5))
            let on = rng.chance(0.3)
            let c = BGProcessingTaskModel.Conditions(
                charging: false, online: rng.chance(0.8), lowPowerMode: rng.chance(0.1), forceQuit: rng.chance(0.1),
                screenOn: on, screenOffFor: on ? .zero : .minutes(rng.int(in: 0...120)),
                lastAppUse: now - .days(rng.int(in: 0...9)))
            let d = model.decide(request, now: now, conditions: c)
            if case .run = d { ran += 1 }
            #expect(model.mustExpire(request, conditions: c))
        }
        #expect(ran == 0)
    }

    @Test func itRunsPluggedInAfterTenMinutesOfScreenOff() {
        let request = BGProcessingTaskModel.Request(earliestBegin: .zero, requiresExternalPower: true)
        #expect(model.decide(request, now: now, conditions: idle(offFor: .minutes(10) - .microseconds(1)))
                == .waitUntil(now + .microseconds(1)))
        #expect(model.decide(request, now: now, conditions: idle(offFor: .minutes(10))) == .run(expiresAfter: .minutes(5)))
        #expect(model.decide(request, now: now, conditions: idle(charging: false, offFor: .minutes(10))) == .waitFor(.externalPower))
    }

    @Test func itWaitsForTheNetworkOnlyWhenRequired() {
        let needs = BGProcessingTaskModel.Request(earliestBegin: .zero, requiresNetworkConnectivity: true)
        let doesNot = BGProcessingTaskModel.Request(earliestBegin: .zero)
        #expect(model.decide(needs, now: now, conditions: idle(online: false)) == .waitFor(.network))
        #expect(model.decide(doesNot, now: now, conditions: idle(online: false)) == .run(expiresAfter: .minutes(5)))
    }

    @Test func neverAfterAForceQuitNorWhileInUseNorBeforeEarliestBegin() {
        let request = BGProcessingTaskModel.Request(earliestBegin: now + .hours(2))
        var c = idle()
        #expect(model.decide(request, now: now, conditions: c) == .waitUntil(now + .hours(2)))
        c.forceQuit = true
        #expect(model.decide(request, now: now + .hours(3), conditions: c) == .waitFor(.forceQuit))
        c.forceQuit = false
        c.screenOn = true
        c.screenOffFor = .zero
        #expect(model.decide(request, now: now + .hours(3), conditions: c) == .waitFor(.inUse))
        #expect(model.mustExpire(request, conditions: c))
    }

    @Test func onlyForAnAppUsedWithinTheLastSevenDays() {
        let request = BGProcessingTaskModel.Request(earliestBegin: .zero)
        #expect(model.decide(request, now: now, conditions: idle(lastUse: .days(7))) == .run(expiresAfter: .minutes(5)))
        #expect(model.decide(request, now: now, conditions: idle(lastUse: .days(7) + .microseconds(1))) == .waitFor(.notUsedRecently))
    }

    @Test func submitFailsAsUnavailableWithBackgroundAppRefreshOff() {
        #expect(model.submit(backgroundAppRefresh: false) == .unavailable)
        #expect(model.submit(backgroundAppRefresh: true) == .pending)
    }
}
