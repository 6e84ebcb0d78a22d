import Testing
import SimKernel
@testable import Platform

/// `docs/platform-facts.md` B and H (FCM high priority per bucket) and C (while-idle alarms).
@Suite struct DeliveryLimitTests {
    let t0 = SimTime.zero
    let fcm = FCMDeliveryModel()

    func dozing() -> DozeState {
        let c = DozeController()
        var d = DozeState()
        var out: [DozeTransition] = []
        c.handle(.screen(on: false), state: &d, now: t0, into: &out)
        c.handle(.timer, state: &d, now: t0 + .minutes(1), into: &out)
        return d
    }

    /// RARE: 5 high-priority messages a day; the 6th waits for Doze as a normal one,
    /// until the first leaves the 24 h window.
    @Test func rareAppGetsFiveHighPriorityMessagesADay() {
        let d = dozing()
        var log = fcm.makeLog()
        for i in 0..<5 {
            #expect(fcm.deliver(.high, bucket: .rare, doze: d, log: &log, now: t0 + .minutes(Int64(2 + i))) == .now(asHighPriority: true))
        }
        #expect(fcm.deliver(.high, bucket: .rare, doze: d, log: &log, now: t0 + .hours(24) + .minutes(2) - .microseconds(1)) == .whenDozeAllows)
        #expect(fcm.deliver(.high, bucket: .rare, doze: d, log: &log, now: t0 + .hours(24) + .minutes(2)) == .now(asHighPriority: true))
    }

    @Test func frequentGetsTenAndActiveIsUnlimited() {
        let d = dozing()
        var log = fcm.makeLog()
        for i in 0..<10 { #expect(fcm.deliver(.high, bucket: .frequent, doze: d, log: &log, now: t0 + .minutes(Int64(2 + i))) == .now(asHighPriority: true)) }
        #expect(fcm.deliver(.high, bucket: .frequent, doze: d, log: &log, now: t0 + .minutes(12)) == .whenDozeAllows)
        #expect(fcm.deliver(.high, bucket: .active, doze: d, log: &log, now: t0 + .minutes(12)) == .now(asHighPriority: true))
    }

    @Test func normalPriorityWaitsOnlyWhileDozeRestricts() {
        var log = fcm.makeLog()
        #expect(fcm.deliver(.normal, bucket: .active, doze: dozing(), log: &log, now: t0 + .minutes(2)) == .whenDozeAllows)
        let awake = DozeState()
        #expect(fcm.deliver(.normal, bucket: .rare, doze: awake, log: &log, now: t0) == .now(asHighPriority: false))
    }

    @Test func beforeAndroid12WhileIdleAlarmsAreNineMinutesApartWhileIdle() {
        let a = WhileIdleAlarmLimiter(policy: .beforeAndroid12)
        var log = a.makeLog()
        #expect(a.fireTime(due: t0, deviceIdle: true, log: log) == t0)
        log.record(t0)
        #expect(a.fireTime(due: t0 + .minutes(1), deviceIdle: true, log: log) == t0 + .minutes(9))
        #expect(a.fireTime(due: t0 + .minutes(10), deviceIdle: true, log: log) == t0 + .minutes(10))
        #expect(a.fireTime(due: t0 + .seconds(1), deviceIdle: false, log: log) == t0 + .seconds(5))
    }

    /// Android 12+: the 73rd alarm in an hour waits for the first to leave the hour;
    /// a compat-target app gets 7.
    @Test func android12WhileIdleQuotaIs72PerHour() {
        let a = WhileIdleAlarmLimiter(policy: .android12)
        var log = a.makeLog()
        for i in 0..<72 {
            let due = t0 + .seconds(Int64(i))
            #expect(a.fireTime(due: due, deviceIdle: true, log: log) == due)
            log.record(due)
        }
        #expect(a.fireTime(due: t0 + .seconds(72), deviceIdle: true, log: log) == t0 + .hours(1))
        let compat = WhileIdleAlarmLimiter(policy: .android12CompatTarget)
        var clog = compat.makeLog()
        for i in 0..<7 { clog.record(t0 + .minutes(Int64(i))) }
        #expect(compat.fireTime(due: t0 + .minutes(7), deviceIdle: true, log: clog) == t0 + .hours(1))
    }

    /// The log keeps the newest `capacity` times across wrap-arounds: with capacity 3,
    /// after 5 deliveries (0, 10, 20, 30, 40 s) the 3 newest are 20, 30, 40 s.
    @Test func theLogKeepsTheNewestTimesAsItWraps() {
        var log = DeliveryLog(capacity: 3)
        for i in 0..<5 { log.record(t0 + .seconds(Int64(i) * 10)) }
        #expect(log.last == t0 + .seconds(40))
        #expect(log.count(in: .minutes(1), now: t0 + .seconds(40)) == 3)
        #expect(log.count(in: .seconds(15), now: t0 + .seconds(40)) == 2)
        // 3 per minute: the next slot opens when 20 s leaves the window.
        #expect(log.nextSlot(limit: 3, window: .minutes(1), now: t0 + .seconds(41)) == t0 + .seconds(80))
        #expect(log.nextSlot(limit: 2, window: .minutes(1), now: t0 + .seconds(41)) == t0 + .seconds(90))
        log.record(t0 + .seconds(50))
        #expect(log.nextSlot(limit: 3, window: .minutes(1), now: t0 + .seconds(51)) == t0 + .seconds(90))
    }

    @Test func aggressiveOEMKillsAfterTheScreenIsOffLongEnough() {
        #expect(OEMBackgroundPolicy.stock.killTime(screenOffAt: t0) == nil)
        #expect(OEMBackgroundPolicy.killsBackgroundApps(afterScreenOff: .minutes(10)).killTime(screenOffAt: t0) == t0 + .minutes(10))
    }
}
