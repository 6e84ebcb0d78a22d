import Testing
import SimKernel
@testable import Platform

/// docs/platform-facts.md I, AT&T ARO's `lte.conf` and `WiFi.conf`: LTE promotion 0.26 s at
/// 1.21 W before the first byte, connected at 1.2 W, tail 0.1 s at 1.2 W + 0.02 s short DRX
/// at (0.002 × 1.68 + 0.018 × 1.06) / 0.02 = 1.122 W + 10 s long DRX at
/// (0.002 × 1.68 + 0.038 × 1.06) / 0.04 = 1.091 W: 10.12 s, 0.12 + 0.02244 + 10.91 =
/// 11.05244 J; Wi-Fi 0.403 W active and for its 0.25 s tail. Expected joules are worked by hand.
@Suite struct RadioEnergyTests {
    let model = RadioEnergyModel()
    let lteTail = 11.05244

    func t(_ seconds: Double) -> SimTime { SimTime(microseconds: Int64((seconds * 1_000_000).rounded())) }
    func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

    /// The radios after one LTE request sent at 0 and answered at 1.26 s.
    func loneRequest() -> RadioState {
        var radio = RadioState()
        _ = radio.open(at: t(0), over: .cellular, model: model)
        _ = radio.close(at: t(1.26), over: .cellular, model: model)
        return radio
    }

    @Test func theLTEProfileIsAROsLteConf() {
        let lte = RadioProfile.lte
        #expect(close(lte.tailSeconds, 10.12))
        #expect(close(lte.tail[1].watts, 1.122))
        #expect(close(lte.tail[2].watts, 1.091))
        #expect(close(lte.tailJoules, lteTail))
    }

    /// Piecewise linear: inside the CR tail at β, into short DRX, the whole tail from its end on.
    @Test func tailJoulesIsPiecewiseLinear() {
        let lte = RadioProfile.lte
        #expect(close(lte.tailJoules(spent: 0.05), 0.06))
        #expect(close(lte.tailJoules(spent: 0.11), 0.12 + 0.01 * 1.122))
        #expect(close(lte.tailJoules(spent: 10.12), lteTail))
        #expect(close(lte.tailJoules(spent: 20), lteTail))
        #expect(lte.tailJoules(spent: -1) == 0)
    }

    /// ARO's `ProfileWiFi.energy` charges the Wi-Fi tail at the active power.
    @Test func theWiFiTailIsAtActivePowerAsARODoes() {
        #expect(close(RadioProfile.wifi.tailJoules, 0.25 * 0.403))
        #expect(RadioProfile.wifi.tailSeconds == 0.25)
    }

    /// 0.26 × 1.21 + 1 × 1.2 + 11.05244 = 12.56704 J = 0.906713 mAh; active 0.26 + 1 + 10.12 = 11.38 s.
    @Test func aLoneLTERequestWaitsForThePromotionAndPaysItOnce() {
        var radio = RadioState()
        #expect(radio.open(at: t(0), over: .cellular, model: model) == .milliseconds(260))
        let joules = radio.close(at: t(1.26), over: .cellular, model: model)
        #expect(close(joules, 12.56704))
        #expect(close(radio.joules, 12.56704))
        #expect(close(radio.activeSeconds, 11.38))
        #expect(abs(DeviceEnergyModel.milliampHours(joules: joules) - 0.906713) < 1e-6)
    }

    @Test func phasesFromPromotionToIdle() {
        var radio = RadioState()
        _ = radio.open(at: t(0), over: .cellular, model: model)
        #expect(radio.cellular.phase(at: t(0), profile: .lte) == .promotion)
        #expect(radio.cellular.phase(at: t(0.259999), profile: .lte) == .promotion)
        #expect(radio.cellular.phase(at: t(0.26), profile: .lte) == .connected)
        _ = radio.close(at: t(1.26), over: .cellular, model: model)
        #expect(radio.cellular.phase(at: t(1.26), profile: .lte) == .tail)
        #expect(radio.cellular.phase(at: t(11.379999), profile: .lte) == .tail)
        #expect(radio.cellular.phase(at: t(11.38), profile: .lte) == .idle)
    }

    /// The boundary shared with ``RadioBurst/phase(at:profile:)``: one microsecond before the
    /// tail's end no promotion; at its end a fresh one.
    @Test func aRequestAtTheTailsLastMicrosecondPaysNoPromotionAndAtItsEndAFreshOne() {
        var inside = loneRequest(), after = loneRequest()
        #expect(inside.open(at: t(11.379999), over: .cellular, model: model) == .zero)
        #expect(after.open(at: t(11.38), over: .cellular, model: model) == .milliseconds(260))
        // The fresh one: a second lone request's whole cost.
        #expect(close(after.close(at: t(12.64), over: .cellular, model: model), 12.56704))
    }

    /// A sent at 0 promotes; B sent at 0.1 waits the 0.16 s left and pays no promotion.
    @Test func aRequestSentDuringAPromotionWaitsForItsRest() {
        var radio = RadioState()
        #expect(radio.open(at: t(0), over: .cellular, model: model) == .milliseconds(260))
        #expect(radio.open(at: t(0.1), over: .cellular, model: model) == .milliseconds(160))
        let a = radio.close(at: t(1.26), over: .cellular, model: model)
        let b = radio.close(at: t(1.36), over: .cellular, model: model)
        // A: promotion + [0.26, 1.26] connected; B: [1.26, 1.36] connected + the tail.
        #expect(close(a, 0.3146 + 1.2))
        #expect(close(b, 0.1 * 1.2 + lteTail))
        #expect(close(radio.activeSeconds, 1.36 + 10.12))
    }

    /// A [0 → 1.26]; B sent at 6.26, 5 s into A's tail, done at 7.26: B pays 1 s connected
    /// and, for the tail it leaves, the 5 s of A's tail spent (A paid a whole one):
    /// 1.2 + 0.12 + 0.02244 + 4.88 × 1.091 = 6.66652 J; total 19.23356 J.
    @Test func twoRequestsFiveSecondsApartShareOneTail() {
        var radio = RadioState()
        _ = radio.open(at: t(0), over: .cellular, model: model)
        _ = radio.close(at: t(1.26), over: .cellular, model: model)
        #expect(radio.open(at: t(6.26), over: .cellular, model: model) == .zero)
        let b = radio.close(at: t(7.26), over: .cellular, model: model)
        #expect(close(b, 6.66652))
        #expect(close(radio.joules, 19.23356))
        // 0.26 + 1 + 5 + 1 + 10.12 s: each second once.
        #expect(close(radio.activeSeconds, 17.38))
    }

    /// A sent at 0 (promotes), B at 1, B done at 2, A done at 5: B pays the promotion and
    /// (2 − 0.26) s connected, A (5 − 2) s and the tail: 0.3146 + 4.74 × 1.2 + 11.05244 in all.
    @Test func overlappingRequestsCompletingOutOfOrderPayEachSecondOnce() {
        var radio = RadioState()
        _ = radio.open(at: t(0), over: .cellular, model: model)
        #expect(radio.open(at: t(1), over: .cellular, model: model) == .zero)
        let b = radio.close(at: t(2), over: .cellular, model: model)
        let a = radio.close(at: t(5), over: .cellular, model: model)
        #expect(close(b, 0.3146 + 1.74 * 1.2))
        #expect(close(a, 3 * 1.2 + lteTail))
        #expect(close(radio.joules, 0.3146 + 4.74 * 1.2 + lteTail))
        #expect(close(radio.activeSeconds, 5 + 10.12))
    }

    /// Started in a tail and finished before the transfer it overlaps: it pays only its
    /// connected time; the one that leaves the radio idle settles the cut tail, never below zero.
    @Test func aRequestStartedInATailAndFinishedBeforeAnotherNeverCostsLessThanZero() {
        var radio = RadioState()
        _ = radio.open(at: t(0), over: .cellular, model: model)
        _ = radio.close(at: t(1.26), over: .cellular, model: model)
        _ = radio.open(at: t(1.31), over: .cellular, model: model)   // 0.05 s into the tail
        _ = radio.open(at: t(1.32), over: .cellular, model: model)
        let first = radio.close(at: t(1.33), over: .cellular, model: model)
        let last = radio.close(at: t(1.34), over: .cellular, model: model)
        #expect(close(first, 0.02 * 1.2))
        #expect(close(last, 0.01 * 1.2 + 0.05 * 1.2))
        #expect(first >= 0 && last >= 0)
        #expect(close(radio.joules, 12.56704 + 0.03 * 1.2 + 0.06))
    }

    /// Wi-Fi: no promotion; a lone 1 s request: 0.403 + 0.25 × 0.403 = 0.50375 J. LTE and
    /// Wi-Fi keep their own states: a Wi-Fi request in LTE's tail neither cuts nor pays it.
    @Test func wifiHasNoPromotionAndItsOwnState() {
        var radio = RadioState()
        _ = radio.open(at: t(0), over: .cellular, model: model)
        _ = radio.close(at: t(1.26), over: .cellular, model: model)
        #expect(radio.open(at: t(2), over: .wifi, model: model) == .zero)
        #expect(radio.wifi.phase(at: t(2), profile: .wifi) == .connected)
        #expect(close(radio.close(at: t(3), over: .wifi, model: model), 0.50375))
        #expect(radio.wifi.phase(at: t(3.2), profile: .wifi) == .tail)
        #expect(radio.wifi.phase(at: t(3.25), profile: .wifi) == .idle)
        #expect(radio.cellular.phase(at: t(3), profile: .lte) == .tail)
        #expect(close(radio.joules, 12.56704 + 0.50375))
    }
}

@Suite struct EnergyLedgerTests {
    let model = RadioEnergyModel()
    func t(_ seconds: Double) -> SimTime { SimTime(microseconds: Int64((seconds * 1_000_000).rounded())) }
    func close(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) < 1e-6 } ?? false }

    @Test func aRefreshOfTwoRequestsCostsOnePromotionOneTailAndItsCPU() {
        var radio = RadioState()
        var ledger = EnergyLedger()
        ledger.begin(.refresh)
        _ = radio.open(at: t(0), over: .cellular, model: model)
        ledger.chargeApp(joules: radio.close(at: t(1.26), over: .cellular, model: model))
        _ = radio.open(at: t(6.26), over: .cellular, model: model)
        ledger.chargeApp(joules: radio.close(at: t(7.26), over: .cellular, model: model))
        // CPU for a 7.26 s task: 150 mA × 3.85 V × 7.26 s = 4.19265 J (assumption, docs/model.md).
        ledger.chargeApp(joules: DeviceEnergyModel().cpuJoules(seconds: 7.26))
        let perRefresh = ledger.end()
        // The radio as in RadioEnergyTests.twoRequestsFiveSecondsApartShareOneTail.
        #expect(close(perRefresh, 19.23356 + 4.19265))
        #expect(close(DeviceEnergyModel.milliampHours(joules: perRefresh!), 23.42621 / 13.86))
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
