import Testing
import SimKernel
@testable import Platform

/// docs/platform-facts.md I: LTE promotion 0.26 s at 1.21 W, transfer at 1.2 W, 10 s tail at
/// 1.06 W; Wi-Fi active 0.403 W, tail 0.25 s. Expected joules are worked by hand.
@Suite struct RadioEnergyTests {
    let model = RadioEnergyModel()

    func t(_ seconds: Double) -> SimTime { SimTime(microseconds: Int64(seconds * 1_000_000)) }
    func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

    @Test func aLoneLTERequestPaysPromotionTransferAndAWholeTail() {
        var radio = RadioState()
        let joules = radio.transfer(from: t(0), to: t(1), model: model)
        // 0.26 × 1.21 + 1 × 1.2 + 10 × 1.06 (docs/platform-facts.md I, worked example: "about 12 J").
        #expect(close(joules, 12.1146))
        #expect(close(radio.joules, 12.1146))
        #expect(close(radio.activeSeconds, 11.26))
        // "about 0.9 mAh at 3.85 V".
        #expect(abs(model.milliampHours(joules: joules) - 0.874069) < 1e-6)
    }

    @Test func twoLTERequestsFiveSecondsApartShareOneTail() {
        var radio = RadioState()
        let first = radio.transfer(from: t(0), to: t(1), model: model)
        let second = radio.transfer(from: t(5), to: t(6), model: model)
        #expect(close(first, 12.1146))
        // The second pays its transfer and the 4 s of tail it cut short: 1.2 + 4 × 1.06.
        #expect(close(second, 5.44))
        #expect(close(radio.joules, 17.5546))
        // Two lone requests would have cost 24.2292 J.
    }

    @Test func aRequestAtTheLastMomentOfTheTailPaysNoPromotion() {
        var radio = RadioState()
        _ = radio.transfer(from: t(0), to: t(1), model: model)
        _ = radio.transfer(from: t(10.9), to: t(11.9), model: model)
        #expect(close(radio.joules, 23.8086))
    }

    @Test func aRequestWhenTheTailHasEndedPaysAFreshPromotionAndTail() {
        var radio = RadioState()
        _ = radio.transfer(from: t(0), to: t(1), model: model)
        let second = radio.transfer(from: t(11), to: t(12), model: model)
        #expect(close(second, 12.1146))
        #expect(close(radio.joules, 24.2292))
    }

    @Test func aRequestInsideAnotherPaysOnlyWhatItExtends() {
        var radio = RadioState()
        _ = radio.transfer(from: t(0), to: t(2), model: model)
        let inside = radio.transfer(from: t(1), to: t(2), model: model)
        let extending = radio.transfer(from: t(1.5), to: t(3), model: model)
        #expect(inside == 0)
        #expect(close(extending, 1.2))
        #expect(close(radio.joules, 0.3146 + 3 * 1.2 + 10.6))
    }

    @Test func theLTEStateMachinePassesPromotionConnectedTailIdle() {
        var radio = RadioState()
        _ = radio.transfer(from: t(100), to: t(101), model: model)
        let burst = radio.cellular
        #expect(burst.phase(at: t(100), profile: .lte) == .promotion)
        #expect(burst.phase(at: t(100.259999), profile: .lte) == .promotion)
        #expect(burst.phase(at: t(100.26), profile: .lte) == .connected)
        #expect(burst.phase(at: t(101), profile: .lte) == .connected)
        #expect(burst.phase(at: t(101.000001), profile: .lte) == .tail)
        #expect(burst.phase(at: t(110.999999), profile: .lte) == .tail)
        #expect(burst.phase(at: t(111), profile: .lte) == .idle)
        #expect(burst.tailEnd(.lte) == t(111))
    }

    @Test func aLoneWiFiRequestPaysActivePowerAndAQuarterSecondTail() {
        var radio = RadioState()
        let joules = radio.transfer(from: t(0), to: t(1), over: .wifi, model: model)
        // 1 s × 0.403 W + 0.25 s × 0.403 W (tail at active power: assumption).
        #expect(close(joules, 0.50375))
        #expect(radio.wifi.phase(at: t(0), profile: .wifi) == .connected)
        #expect(radio.wifi.phase(at: t(1.2), profile: .wifi) == .tail)
        #expect(radio.wifi.phase(at: t(1.25), profile: .wifi) == .idle)
    }

    @Test func wiFiAndLTEKeepSeparateTails() {
        var radio = RadioState()
        _ = radio.transfer(from: t(0), to: t(1), over: .cellular, model: model)
        let wifi = radio.transfer(from: t(2), to: t(3), over: .wifi, model: model)
        #expect(close(wifi, 0.50375))
        #expect(radio.cellular.phase(at: t(3), profile: .lte) == .tail)
        // A Wi-Fi request half a second after the last Wi-Fi one pays a new tail.
        let again = radio.transfer(from: t(3.5), to: t(4.5), over: .wifi, model: model)
        #expect(close(again, 0.50375))
        #expect(close(radio.joules, 12.1146 + 0.50375 * 2))
    }
}

@Suite struct EnergyLedgerTests {
    let model = RadioEnergyModel()
    func t(_ seconds: Double) -> SimTime { SimTime(microseconds: Int64(seconds * 1_000_000)) }
    func close(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) < 1e-6 } ?? false }

    @Test func aRefreshOfTwoRequestsCostsOnePromotionOneTailAndItsCPU() {
        var radio = RadioState()
        var ledger = EnergyLedger()
        ledger.begin(.refresh)
        ledger.chargeApp(joules: radio.transfer(from: t(0), to: t(1), model: model))
        ledger.chargeApp(joules: radio.transfer(from: t(5), to: t(6), model: model))
        // CPU for a 6 s task: 150 mA × 3.85 V × 6 s (assumption, README).
        ledger.chargeApp(joules: model.cpuJoules(seconds: 6))
        let perRefresh = ledger.end()
        #expect(close(perRefresh, 17.5546 + 3.465))
        #expect(close(model.milliampHours(joules: perRefresh!), 1.516566))
        #expect(ledger.appJoules == perRefresh)
    }

    @Test func appEnergyCountsItsOperationsAndWhatFallsOutsideThem() {
        var ledger = EnergyLedger()
        ledger.begin(.sync)
        ledger.chargeApp(joules: 12)
        ledger.end()
        ledger.chargeApp(joules: 0.5)
        #expect(ledger.appJoules == 12.5)
        #expect(ledger.appJoulesOutsideOperations == 0.5)
        #expect(ledger.appJoulesByOperation[Int(EnergyOperation.sync.rawValue)] == 12)
    }

    @Test func beginningAnOperationClosesTheOpenOne() {
        var ledger = EnergyLedger()
        ledger.begin(.pushHandling)
        ledger.chargeApp(joules: 3)
        let closed = ledger.begin(.refresh)
        ledger.chargeApp(joules: 4)
        let ended = ledger.end()
        let nothingOpen = ledger.end()
        #expect(closed == 3)
        #expect(ended == 4)
        #expect(nothingOpen == nil)
        #expect(ledger.appJoulesByOperation[Int(EnergyOperation.pushHandling.rawValue)] == 3)
        #expect(ledger.appJoulesByOperation[Int(EnergyOperation.refresh.rawValue)] == 4)
    }

    /// The total adds the per-kind sums in kind order, not the charges as they came: a
    /// sync of 1e16 J and then two refresh charges of 1 J. Charged as they came, each 1 J
    /// is lost to rounding (doubles near 1e16 are 2 apart); by kind, the refresh's 2 J
    /// are summed first and survive. The report's energy per device-day is this total.
    @Test func theTotalAddsTheKindsInTheirOrder() {
        var ledger = EnergyLedger()
        ledger.begin(.sync)
        ledger.chargeApp(joules: 1e16)
        ledger.begin(.refresh)
        ledger.chargeApp(joules: 1)
        ledger.chargeApp(joules: 1)
        ledger.end()
        #expect(ledger.appJoules == 1e16 + 2)
        #expect(1e16 + 1 + 1 == 1e16)
    }
}
