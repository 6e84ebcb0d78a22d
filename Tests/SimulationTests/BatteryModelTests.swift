import Testing
import SimKernel
import Platform

/// The battery's level, its low state (docs/platform-facts.md E) and when each habit plugs in.
@Suite struct BatteryModelTests {
    /// 3300 mAh at 130 mA: 3.939 %/h.
    let model = BatteryModel(capacityMah: 3300, habit: .rarely)

    @Test func lowIsAtOrBelow15PercentUnplugged() {
        let at15 = BatteryState(percent: 15, since: .zero, charging: false)
        #expect(model.isLow(at15, at: .zero))
        let above = BatteryState(percent: 15.01, since: .zero, charging: false)
        #expect(!model.isLow(above, at: .zero))
        let plugged = BatteryState(percent: 3, since: .zero, charging: true)
        #expect(!model.isLow(plugged, at: .zero))
    }

    @Test func drainsAndChargesLinearlyAndClamps() {
        let s = BatteryState(percent: 50, since: .zero, charging: false)
        // 130 mA for 10 h = 1300 mAh = 39.39 % of 3300.
        #expect(abs(model.percent(s, at: .zero + .hours(10)) - 10.606) < 0.001)
        #expect(model.percent(s, at: .zero + .hours(20)) == 0)
        let charging = BatteryState(percent: 50, since: .zero, charging: true)
        #expect(model.percent(charging, at: .zero + .hours(2)) == 100)
    }

    @Test func rarelyPlugsInAtTheCriticalFivePercent() {
        let s = BatteryState(percent: 15, since: .zero, charging: false)
        // 10 points at 3.939 %/h: 2.538 h = 9138.46 s.
        let at = model.nextSwitch(s, now: .zero, user: DailyRhythm(seed: 1).user(0), local: (0, 0), rhythm: DailyRhythm(seed: 1))
        #expect(abs(at.seconds - 9138.46) < 0.01)
    }

    /// `overnight` follows the user's own day (``DailyRhythm``): on at bedtime, off at the
    /// next wake-up, to the second, with tomorrow's times after today's have passed.
    @Test func overnightPlugsInAtBedtimeAndOutAtWakeUp() {
        let night = BatteryModel(capacityMah: 3300, habit: .overnight)
        let rhythm = DailyRhythm(seed: 7)
        let user = rhythm.user(12), day: Int32 = 20_500
        let today = rhythm.day(user, day: day), tomorrow = rhythm.day(user, day: day + 1)
        let up = BatteryState(percent: 80, since: .zero, charging: false)
        // One second before bedtime, and at bedtime itself (then tomorrow's bedtime).
        #expect(night.nextSwitch(up, now: .zero, user: user, local: (day, today.bedtime - 1), rhythm: rhythm) == .zero + .seconds(1))
        #expect(night.nextSwitch(up, now: .zero, user: user, local: (day, today.bedtime), rhythm: rhythm)
                == .zero + .seconds(Int64(86_400 - today.bedtime + tomorrow.bedtime)))
        let plugged = BatteryState(percent: 80, since: .zero, charging: true)
        // Plugged in before today's wake-up: off at it; after bedtime: off at tomorrow's.
        #expect(night.nextSwitch(plugged, now: .zero, user: user, local: (day, today.wakeUp - 1), rhythm: rhythm) == .zero + .seconds(1))
        #expect(night.nextSwitch(plugged, now: .zero, user: user, local: (day, today.bedtime), rhythm: rhythm)
                == .zero + .seconds(Int64(86_400 - today.bedtime + tomorrow.wakeUp)))
        #expect(night.initial(percent: 40, user: user, local: (day, today.wakeUp - 1), rhythm: rhythm).charging)
        #expect(!night.initial(percent: 40, user: user, local: (day, today.wakeUp), rhythm: rhythm).charging)
        #expect(night.initial(percent: 40, user: user, local: (day, today.bedtime), rhythm: rhythm).charging)
    }
}
