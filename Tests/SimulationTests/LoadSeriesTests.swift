import Testing
import SimKernel
import Scenario
import Reports
@testable import Simulation

/// `backend.load`: every request in the per-minute series, the peak where the series
/// says it is, 503s and no-answers where they happened, and the fault windows.
@Suite struct LoadSeriesTests {
    /// 49 h: past the 48 h at which the series used to fall back to 10 min buckets. One
    /// slow worker and no queue: requests that overlap are answered 503.
    static let scenario = """
    {"name": "load", "duration": "49h", "seed": 5,
     "fleet": [{"cohort": "a", "count": 60, "platform": "ios", "signedIn": 1, "usage": {"appOpensPerDay": 3},
                "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0}}],
     "backend": {"workers": 1, "queueLimit": 0, "serviceTime": {"lognormal": {"median": "20s", "p99": "50s"}}},
     "faults": [{"kind": "backendOutage", "at": "30h", "duration": "2h"},
                {"kind": "authExpiry", "at": "10h"},
                {"kind": "appTermination", "at": "0s", "rate": 0.5}]}
    """

    static func report() throws -> ReportValue {
        var world = World(scenario: try Fixtures.decode(scenario))
        world.runToEnd()
        return try world.report().report
    }

    static func counts(_ r: ReportValue, _ path: String) -> [Int64] {
        (r.lookup(path)?.arrayValue ?? []).map { $0.intValue ?? -1 }
    }

    @Test func everyEndpointIsInTheSeriesAndAddsUpToTheTotals() throws {
        let r = try Self.report()
        #expect(r.lookup("backend.load.bucketSeconds")?.intValue == 60)
        let total = Self.counts(r, "backend.load.requests.total")
        #expect(total.count == 49 * 60)
        #expect(total.reduce(0, +) == r.lookup("backend.requests.total")?.intValue)
        var summed = [Int64](repeating: 0, count: total.count)
        // Every endpoint of the table but the opt-in diagnostics upload's, which no cohort runs.
        let endpoints = (r.lookup("backend.requests.byEndpoint")?.objectValue ?? [:]).keys.sorted()
        #expect(endpoints == LoadSeries.endpointNames.filter { $0 != "/v1/diagnostics" }.sorted())
        for endpoint in endpoints {
            let series = Self.counts(r, "backend.load.requests.\(endpoint)")
            #expect(series.count == total.count)
            #expect(series.reduce(0, +) == r.lookup("backend.requests.byEndpoint.\(endpoint)")?.intValue, "\(endpoint)")
            for b in series.indices { summed[b] += series[b] }
            // Each rate is its count over the minute.
            let rates = r.lookup("backend.load.requestsPerSecond.\(endpoint)")?.arrayValue ?? []
            #expect(rates.count == series.count)
            if let b = series.firstIndex(where: { $0 > 0 }) { #expect(abs((rates[b].reportedDouble ?? 0) - Double(series[b]) / 60) < 0.0005) }
        }
        #expect(summed == total)
        // Step sync is most of the traffic, and it is there.
        #expect(Self.counts(r, "backend.load.requests./api/v1/steps/sync").reduce(0, +) > 0)
    }

    @Test func thePeakIsTheBusiestMinuteOfTheSeries() throws {
        let r = try Self.report()
        let total = Self.counts(r, "backend.load.requests.total")
        let busiest = total.max() ?? 0
        let minute = total.firstIndex(of: busiest) ?? -1
        #expect(busiest > 0)
        #expect(r.lookup("backend.load.peak.requests")?.intValue == busiest)
        #expect(r.lookup("backend.load.peak.at")?.doubleValue == Double(minute * 60))
        let rate = r.lookup("backend.requestsPerSecond.peak")?.reportedDouble
        #expect(rate == r.lookup("backend.load.peak.requestsPerSecond")?.reportedDouble)
        #expect(rate == r.lookup("backend.load.requestsPerSecond.total")?.arrayValue?[minute].reportedDouble)
        #expect(abs((rate ?? 0) - Double(busiest) / 60) < 0.0005)
        let busy = Self.counts(r, "backend.load.apiBusyWorkersPeak")
        #expect(r.lookup("backend.load.peak.busyWorkers")?.intValue == busy[minute])
        #expect(r.lookup("backend.load.peak.busyWorkersUpperBound")?.intValue == busy[minute])
        let utilisation = r.lookup("backend.load.apiUtilisationOverTime")?.arrayValue?.compactMap(\.reportedDouble) ?? []
        // Headroom is 1 − utilisation, and 0 in a minute that answered 503.
        let rejected = Self.counts(r, "backend.load.apiRejected")
        func headroom(_ b: Int) -> Double { rejected[b] > 0 ? 0 : ((1 - utilisation[b]) * 1e4).rounded() / 1e4 }
        #expect(r.lookup("backend.load.peak.headroom")?.reportedDouble == headroom(minute))
        #expect(r.lookup("backend.load.apiHeadroomOverTime")?.arrayValue?.map(\.reportedDouble) == utilisation.indices.map(headroom))
        #expect(rejected.contains { $0 > 0 } && utilisation.indices.contains { rejected[$0] == 0 && headroom($0) < 1 })
        // The busiest second holds at least the busiest minute's mean.
        let second = r.lookup("backend.requestsPerSecond.peakSecond")?.reportedDouble ?? 0
        #expect(second >= Double(busiest) / 60)
        #expect(r.lookup("backend.load.peakSecond.requests")?.reportedDouble == second)
        let at = r.lookup("backend.load.peakSecond.at")?.doubleValue ?? -1
        #expect(at >= 0 && at < 49 * 3_600)
    }

    /// The causes are declared in two places (the core's, each feature's beside its host)
    /// and joined by raw value, which indexes the series: every raw value is named once,
    /// with the name report.json has always given it.
    @Test func everyCauseIsNamedOnceByItsRawValue() {
        #expect(LoadCause.names == ["appOpen", "notificationTap", "userAction", "refreshLaunch", "workManagerWindow",
                                    "dozeWindow", "androidState", "healthKitDelivery", "charger", "pushWake", "retryBackoff",
                                    "retryAfterFailure", "connectivity", "fault", "appTimer"])
        #expect(LoadCause.allCases.map(\.name) == LoadCause.names)
        #expect((LoadCause.coreNames + featureLoadCauses).map { Int($0.0.rawValue) }.sorted() == Array(LoadCause.names.indices))
    }

    /// Every request has a cause; the busiest minute's and second's mixes add up to their
    /// requests and name their largest cause; busy time gives utilisation and headroom.
    @Test func causesAndBusyTimeAddUp() throws {
        let r = try Self.report()
        let total = Self.counts(r, "backend.load.requests.total")
        var byCause = [Int64](repeating: 0, count: total.count)
        for cause in LoadCause.names {
            for (b, n) in Self.counts(r, "backend.load.requestsByCause.\(cause)").enumerated() { byCause[b] += n }
        }
        #expect(byCause == total)
        for peak in ["backend.load.peak", "backend.load.peakSecond"] {
            let requests = r.lookup("\(peak).requests")?.intValue ?? -1
            let causes = r.lookup("\(peak).byCause")?.objectValue ?? [:]
            let endpoints = r.lookup("\(peak).byEndpoint")?.objectValue ?? [:]
            #expect(causes.values.compactMap(\.intValue).reduce(0, +) == requests, "\(peak)")
            #expect(endpoints.values.compactMap(\.intValue).reduce(0, +) == requests, "\(peak)")
            let main = causes.max { a, b in (a.value.intValue ?? 0, b.key) < (b.value.intValue ?? 0, a.key) }?.key
            #expect(r.lookup("\(peak).cause")?.stringValue == main, "\(peak)")
        }
        #expect(r.lookup("backend.load.peakSecond.mixOf")?.stringValue == "second")
        #expect(r.lookup("backend.load.peaksAre")?.stringValue == "exact")
        // Busy time: per bucket and per endpoint the same total; utilisation and headroom from it (1 worker).
        let busy = Self.counts(r, "backend.load.apiBusyWorkerMicroseconds")
        #expect(busy.reduce(0, +) == r.lookup("backend.queue.overall.busyWorkerMicroseconds")?.intValue)
        #expect(busy.allSatisfy { $0 <= 60_000_000 }, "one worker is busy at most the whole minute")
        let utilisation = (r.lookup("backend.load.apiUtilisationOverTime")?.arrayValue ?? []).compactMap(\.reportedDouble)
        #expect(utilisation == busy.map { (Double($0) / 60_000_000 * 1e4).rounded() / 1e4 })
        #expect(r.lookup("backend.load.apiHeadroom")?.reportedDouble == 0, "503s: no headroom")
        let minute = Int((r.lookup("backend.load.peak.at")?.doubleValue ?? 0) / 60)
        #expect(r.lookup("backend.load.peak.utilisation")?.reportedDouble == utilisation[minute])
        #expect(abs((r.lookup("backend.load.apiUtilisation")?.reportedDouble ?? -1) - Double(busy.reduce(0, +)) / (49 * 3_600e6)) < 0.00005)
        // Every served request's wait is in its endpoint's histogram; this one worker with no queue never lets one wait.
        let served = LoadSeries.endpointNames.compactMap { r.lookup("backend.queue.byEndpoint.\($0).served")?.intValue }.reduce(0, +)
        #expect(served == r.lookup("backend.queueing.count")?.intValue && served > 0)
        #expect(r.lookup("backend.queue.overall.pWait")?.reportedDouble == 0)
        #expect(r.lookup("backend.saturated")?.boolValue == true, "503s: the queue was full")
    }

    @Test func rejectionsAndNoAnswersAreWhereTheyHappened() throws {
        let r = try Self.report()
        let rejected = Self.counts(r, "backend.load.apiRejected")
        let unanswered = Self.counts(r, "backend.load.apiUnanswered")
        #expect(rejected.reduce(0, +) == r.lookup("backend.rejected")?.intValue)
        #expect(rejected.reduce(0, +) > 0)
        #expect(unanswered.reduce(0, +) == r.lookup("backend.unanswered")?.intValue)
        #expect(unanswered.reduce(0, +) > 0)
        // No answers only during the outage: minutes 30 h to 32 h.
        for (minute, n) in unanswered.enumerated() where n > 0 { #expect((1_800..<1_920).contains(minute), "minute \(minute)") }
        #expect(rejected[1_800..<1_920].allSatisfy { $0 == 0 }, "an outage does not answer 503")
        let rates = r.lookup("backend.load.apiUnansweredPerSecond")?.arrayValue ?? []
        #expect(rates.count == unanswered.count)
    }

    @Test func faultWindowsAreListedInSeconds() throws {
        let r = try Self.report()
        let faults = (r.lookup("backend.load.faults")?.arrayValue ?? []).map {
            ($0.lookup("kind")?.stringValue ?? "", $0.lookup("start")?.doubleValue ?? -1, $0.lookup("end")?.doubleValue ?? -1)
        }
        #expect(faults.count == 3)
        #expect(faults[0] == ("backendOutage", 108_000, 115_200))
        // Instant: it ends where it starts.
        #expect(faults[1] == ("authExpiry", 36_000, 36_000))
        // No duration: in force to the end of the run.
        #expect(faults[2] == ("appTermination", 0, 176_400))
    }

    /// A 61 s run has two buckets; the last request of the run is in the second. The push
    /// host's series use the same buckets, and are empty without a push cohort.
    @Test func aPartialLastMinuteIsItsOwnBucket() {
        let series = LoadSeries(duration: .seconds(61))
        #expect(series.buckets == 2)
        #expect(series.index(SimTime.zero + .seconds(59)) == 0)
        #expect(series.index(SimTime.zero + .seconds(60)) == 1)
        #expect(series.index(SimTime.zero + .seconds(61)) == 1)
        // A week keeps a minute a bucket; a longer run wider buckets, at most 10,080
        // (docs/report.md, "backend.load.bucketSeconds"): an hour for 366 days.
        #expect(LoadSeries(duration: .days(7)).buckets == 10_080)
        #expect(LoadSeries(duration: .days(7) + .seconds(1)).bucket == .minutes(5))
        #expect(LoadSeries(duration: .days(366)).bucket == .hours(1) && LoadSeries(duration: .days(366)).buckets == 8_784)
        let push = PushLoad(duration: .seconds(61), active: true)
        #expect(push.sends.map(\.count) == [2, 2])
        #expect(push.index(SimTime.zero + .seconds(59)) == 0)
        #expect(push.index(SimTime.zero + .seconds(61)) == 1)
        #expect(PushLoad(duration: .seconds(61), active: false).sends.map(\.count) == [0, 0])
    }

    /// The committed default report (`make baseline`, checked byte for byte by
    /// GoldenReportTests): its series holds every request and its peak is the report's.
    @Test func theDefaultRunsSeriesAddsUp() throws {
        let text = try String(contentsOfFile: Fixtures.path("reports/baselines/default.json"), encoding: .utf8)
        let json = try JSONParser.parse(Array(text.utf8))
        func numbers(_ v: JSONValue?) -> [Double] {
            guard case .array(let items)? = v else { return [] }
            return items.compactMap { if case .number(let x, _) = $0 { return x } else { return nil } }
        }
        func number(_ v: JSONValue?) -> Double? { if case .number(let x, _)? = v { return x } else { return nil } }
        let load = json["backend"]?["load"]
        let total = numbers(load?["requests"]?["total"])
        #expect(total.count == 7 * 1_440)
        #expect(total.reduce(0, +) == number(json["backend"]?["requests"]?["total"]))
        #expect(number(load?["peak"]?["requests"]) == total.max())
        #expect(abs((number(json["backend"]?["requestsPerSecond"]?["peak"]) ?? 0) - (total.max() ?? 0) / 60) < 0.0005)
    }
}

/// Per-second arrivals folded into a histogram give what the whole per-second array gave.
@Suite struct PerSecondArrivalsTests {
    static let mix = PerSecondArrivals.mixIndex(cause: .appOpen, endpoint: 0)

    /// The busiest second keeps its own mix, not its minute's nor a later second's: 3
    /// HealthKit uploads at second 10 beat 2 app opens at second 11 and 2 retries at 12.
    @Test func theBusiestSecondKeepsItsOwnMix() {
        var a = PerSecondArrivals()
        for _ in 0..<2 { a.count(second: 9, mix: PerSecondArrivals.mixIndex(cause: .appOpen, endpoint: 0)) }
        for _ in 0..<3 { a.count(second: 10, mix: PerSecondArrivals.mixIndex(cause: .healthKitDelivery, endpoint: 3)) }
        a.count(second: 11, mix: PerSecondArrivals.mixIndex(cause: .appOpen, endpoint: 0))
        a.count(second: 11, mix: PerSecondArrivals.mixIndex(cause: .appOpen, endpoint: 1))
        for _ in 0..<3 { a.count(second: 12, mix: PerSecondArrivals.mixIndex(cause: .retryAfterFailure, endpoint: 3)) }
        let mixes = a.busiestSecondMixes()
        #expect(mixes.count == 1)
        #expect(mixes[0].second == 10)
        #expect(mixes[0].byCause[Int(LoadCause.healthKitDelivery.rawValue)] == 3 && mixes[0].byCause.reduce(0, +) == 3)
        #expect(mixes[0].byEndpoint == [0, 0, 0, 3, 0, 0])
        // A shard keeps its 8 busiest, busiest first, the earlier of equals first.
        var shard = PerSecondArrivals()
        shard.keepsSeconds = true
        for s in 0..<20 { for _ in 0..<(s % 5 + 1) { shard.count(second: s, mix: Self.mix) } }
        #expect(shard.busiestSecondMixes().map(\.second) == [4, 9, 14, 19, 3, 8, 13, 18])
    }
    static func brute(_ arrivals: [Int], seconds: Int) -> (peak: UInt32, peakAt: Int, p99: Double) {
        var perSecond = [Double](repeating: 0, count: max(seconds, (arrivals.last ?? -1) + 1))
        for s in arrivals { perSecond[s] += 1 }
        let peak = perSecond.max() ?? 0
        return (UInt32(peak), perSecond.firstIndex(of: peak) ?? 0, Summary(perSecond).quantile(0.99) ?? 0)
    }

    @Test func matchesTheFullArray() {
        var rng = RandomStream(seed: 9, entity: 0, purpose: "test")
        for trial in 0..<40 {
            let seconds = 50 + trial * 17
            var arrivals: [Int] = []
            for s in 0..<seconds where rng.chance(trial % 3 == 0 ? 0.02 : 0.3) {
                for _ in 0..<(1 + Int(rng.uniform() * Double(trial % 7 + 1))) { arrivals.append(s) }
            }
            var folded = PerSecondArrivals()
            for s in arrivals { folded.count(second: s, mix: Self.mix) }
            let got = folded.summary(seconds: seconds, quantile: 0.99)
            let want = Self.brute(arrivals, seconds: seconds)
            #expect(got.peak == want.peak && got.peakAt == want.peakAt && got.quantile == want.p99, "trial \(trial)")
        }
    }

    /// 100 seconds, one busy: the 99th of 100 ranks is still a quiet second, the 100th is not.
    @Test func theRankBoundary() {
        var one = PerSecondArrivals()
        for _ in 0..<5 { one.count(second: 42, mix: Self.mix) }
        #expect(one.summary(seconds: 100, quantile: 0.99).quantile == 0)
        #expect(one.summary(seconds: 100, quantile: 1).quantile == 5)
        var two = one
        for _ in 0..<3 { two.count(second: 43, mix: Self.mix) }
        #expect(two.summary(seconds: 100, quantile: 0.99).quantile == 3)
        #expect(two.summary(seconds: 100, quantile: 0.99).peakAt == 42)
        #expect(PerSecondArrivals().summary(seconds: 0, quantile: 0.99).peak == 0)
    }
}

/// Exact order statistics of a small sample: the reference the per-second figures are checked against.
private struct Summary {
    let sorted: [Double]
    init(_ values: [Double]) { sorted = values.sorted() }

    /// Nearest-rank quantile, q in [0, 1].
    func quantile(_ q: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = max(1, Int((q * Double(sorted.count)).rounded(.up)))
        return sorted[min(rank, sorted.count) - 1]
    }
}
