import Testing
@testable import Reports

@Suite struct HumanUnitsTests {
    @Test func durationsPickTheUnitAtEachBoundary() {
        #expect(HumanUnits.duration(seconds: 0) == "0 s")
        #expect(HumanUnits.duration(seconds: 0.000_850) == "850 µs")
        #expect(HumanUnits.duration(seconds: 0.001) == "1 ms")
        #expect(HumanUnits.duration(seconds: 0.253_940) == "254 ms")
        #expect(HumanUnits.duration(seconds: 0.999_4) == "999 ms")
        #expect(HumanUnits.duration(seconds: 1) == "1.0 s")
        #expect(HumanUnits.duration(seconds: 9.94) == "9.9 s")
        #expect(HumanUnits.duration(seconds: 10) == "10 s")
        #expect(HumanUnits.duration(seconds: 59.4) == "59 s")
        #expect(HumanUnits.duration(seconds: 60) == "1.0 min")
        #expect(HumanUnits.duration(seconds: 599) == "10.0 min")
        #expect(HumanUnits.duration(seconds: 720) == "12 min")
        #expect(HumanUnits.duration(seconds: 3_599) == "60 min")
        #expect(HumanUnits.duration(seconds: 3_600) == "1.0 h")
        #expect(HumanUnits.duration(seconds: 273_267.294_207) == "75.9 h")
        #expect(HumanUnits.duration(seconds: 259_200) == "72.0 h")
        #expect(HumanUnits.duration(seconds: 604_800) == "7.0 d")
        #expect(HumanUnits.duration(seconds: -7_200) == "-2.0 h")
        #expect(HumanUnits.duration(microseconds: 253_940) == "254 ms")
    }

    @Test func energyPercentRateAndCount() {
        #expect(HumanUnits.energy(mAh: 0.915_736) == "0.92 mAh")
        #expect(HumanUnits.energy(mAh: 12.34) == "12.3 mAh")
        #expect(HumanUnits.percent(fraction: 0.031_2) == "3.12 %")
        #expect(HumanUnits.rate(perSecond: 1_046.2) == "1,046 req/s")
        #expect(HumanUnits.rate(perSecond: 0.772) == "0.77 req/s")
        #expect(HumanUnits.count(688_275) == "688,275")
        #expect(HumanUnits.count(999) == "999")
        #expect(HumanUnits.count(-1_000) == "-1,000")
        #expect(HumanUnits.count(0) == "0")
    }
}
