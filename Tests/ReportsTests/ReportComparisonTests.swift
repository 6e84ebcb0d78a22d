import Testing
@testable import Reports

@Suite struct ReportComparisonTests {
    @Test func gatesOnlyMetricsWhereLowerIsBetter() {
        #expect(ReportComparison.isGated("latency.testAvailableToNotified.p95"))
        #expect(ReportComparison.isGated("latency.pushCreatedToDelivered.high.p99"))  // a key with a dot
        #expect(ReportComparison.isGated("battery.ios-daily.appEnergyPerDeviceDay.mAh.p95"))
        #expect(ReportComparison.isGated("invariants.byKind.taskCompletedTwice"))
        #expect(!ReportComparison.isGated("latency.testAvailableToNotified.count"))
        #expect(!ReportComparison.isGated("scheduling.launches"))
        #expect(!ReportComparison.isGated("seed"))
    }

    @Test func toleranceIsRelativeAndZeroBaselinesCountAnyIncrease() {
        let base: [String: Double?] = ["latency.x.p95": 100, "invariants.violations": 0, "scheduling.launches": 100, "backend.rejected": 10]
        let same = ReportComparison(baseline: base, current: base, tolerance: 0.05)
        #expect(same == ReportComparison(baseline: [:], current: [:], tolerance: 0.05))

        let within: [String: Double?] = ["latency.x.p95": 105, "invariants.violations": 0, "scheduling.launches": 104, "backend.rejected": 10]
        #expect(ReportComparison(baseline: base, current: within, tolerance: 0.05).regressions.isEmpty)

        let worse: [String: Double?] = ["latency.x.p95": 105.1, "invariants.violations": 1, "scheduling.launches": 200, "backend.rejected": 5]
        let r = ReportComparison(baseline: base, current: worse, tolerance: 0.05)
        #expect(r.regressions.map(\.metric) == ["invariants.violations", "latency.x.p95"])
        #expect(r.improvements.map(\.metric) == ["backend.rejected"])
        #expect(r.changes.map(\.metric) == ["scheduling.launches"])
    }

    @Test func aGatedMetricMissingFromTheReportIsARegression() {
        let r = ReportComparison(baseline: ["latency.x.p95": 1, "users.appOpens": 3], current: [:], tolerance: 0.05)
        #expect(r.regressions.map(\.metric) == ["latency.x.p95"])
        #expect(r.changes.isEmpty)
        // So is one that lost its data (null): every notification lost, say.
        let before: [String: Double?] = ["latency.x.p95": 1, "latency.x.p99": Optional<Double>.none]
        let after: [String: Double?] = ["latency.x.p95": Optional<Double>.none, "latency.x.p99": 2]
        let lost = ReportComparison(baseline: before, current: after, tolerance: 0.05)
        #expect(lost.regressions.map(\.metric) == ["latency.x.p95"])
        #expect(lost.changes.map(\.metric) == ["latency.x.p99"])
    }
}
