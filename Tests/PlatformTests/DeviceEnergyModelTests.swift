import Testing
import SimKernel
@testable import Platform

/// The background launch's cost (an assumption, docs/model.md): CPU at 150 mA × 3.85 V =
/// 0.5775 W for 400 ms from a terminated app, 100 ms from a suspended one, nothing when
/// running; 1 mAh = 3.85 × 3.6 = 13.86 J.
@Suite struct DeviceEnergyModelTests {
    func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

    @Test func aLaunchCostsByTheStateItFinds() {
        let model = DeviceEnergyModel()
        #expect(close(model.launchJoules(from: .terminated), 0.231))
        #expect(close(DeviceEnergyModel.milliampHours(joules: model.launchJoules(from: .terminated)), 0.231 / 13.86))
        #expect(close(model.launchJoules(from: .suspended), 0.05775))
        #expect(close(DeviceEnergyModel.milliampHours(joules: model.launchJoules(from: .suspended)), 0.05775 / 13.86))
        #expect(model.launchJoules(from: .running) == 0)
    }

    @Test func theKeysChangeIt() {
        let model = DeviceEnergyModel(cpuActiveMilliamps: 300, coldLaunch: .seconds(1), resume: .zero)
        #expect(close(model.launchJoules(from: .terminated), 0.3 * 3.85))
        #expect(model.launchJoules(from: .suspended) == 0)
        #expect(close(model.cpuJoules(seconds: 2), 2 * 0.3 * 3.85))
    }
}
