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
        let at = model.nextSwitch(s, now: .zero, localSecondsOfDay: 0)
        #expect(abs(at.seconds - 9138.46) < 0.01)
    }

    @Test func overnightPlugsInAt22AndOutAt07Local() {
        let night = BatteryModel(capacityMah: 3300, habit: .overnight)
        let day = BatteryState(percent: 80, since: .zero, charging: false)
        #expect(night.nextSwitch(day, now: .zero, localSecondsOfDay: 21 * 3600 + 59 * 60) == .zero + .minutes(1))
        #expect(night.nextSwitch(day, now: .zero, localSecondsOfDay: 22 * 3600) == .zero + .hours(24))
        let plugged = BatteryState(percent: 80, since: .zero, charging: true)
        #expect(night.nextSwitch(plugged, now: .zero, localSecondsOfDay: 23 * 3600) == .zero + .hours(8))
        #expect(night.initial(percent: 40, localSecondsOfDay: 6 * 3600).charging)
        #expect(!night.initial(percent: 40, localSecondsOfDay: 7 * 3600).charging)
    }
}
