/// What report.md and report.html show, in order, built once from a `report.json`
/// document so both documents carry the same sections, tables and figures.
///
/// Rules:
/// - The verdict comes first, then every expectation (✓ pass, ✗ FAIL, ? inconclusive,
///   with value, limit and n), then the violations with their replay commands, then one
///   section per feature.
/// - Every figure goes through ``MetricText``: human units, never raw seconds.
/// - Keys that a report does not have are skipped (a section without data says so), so
///   reports of older or newer versions still render.
/// - Section ids are stable: ``ReportSections/ids`` lists the core's, and each feature's
///   section (``FeatureSection``) has its own, in the features' order after the latencies.
public struct ReportSection: Sendable, Equatable {
    public enum Block: Sendable, Equatable {
        /// Plain text (escaped by the renderer).
        case paragraph(String)
        /// A table whose first column is a label and the others right-aligned figures.
        case table(header: [String], rows: [[String]])
        /// A chart (report.html only; report.md skips it).
        case chart(ReportChart)
        /// Invariant violations: kind, device, time, detail and the command that replays it.
        case violations([Violation])
    }

    public struct Violation: Sendable, Equatable {
        public var kind: String, device: String, time: String, detail: String, replay: String
    }

    public var id: String
    public var title: String
    public var blocks: [Block]

    public init(id: String, title: String, blocks: [Block]) {
        self.id = id
        self.title = title
        self.blocks = blocks
    }
}

/// A chart's data, drawn by ``ReportSVG``.
public enum ReportChart: Sendable, Equatable {
    /// The cumulative distribution of a latency from its histogram buckets, with the
    /// limit of an `expect` on one of its percentiles as a vertical line.
    case latencyCDF(title: String, histogram: LatencyHistogram, limit: (percentile: String, seconds: Double)?)
    /// Series over simulated time (`bucketSeconds` apart), stacked into one chart with
    /// their sum when `total` is set, the peak marked, and fault windows as bands. `mark`
    /// puts the peak marker at a given bucket start (seconds) with a label: the busiest
    /// minute of `backend.load.peak`, so chart and table agree; without it the series'
    /// maximum is marked where it is first reached (``ReportSVG/firstMaximum(_:)``).
    /// `busiestMinute` (`backend.load.peak.at`) is a thin line on every load chart.
    case timeSeries(title: String, unit: String, bucketSeconds: Double, series: [(name: String, values: [Double])],
                    total: Bool, capacity: Double?, faults: [(name: String, start: Double, end: Double)],
                    mark: (at: Double, label: String)? = nil, busiestMinute: Double? = nil)
    /// p50/p95/p99 of one latency per bucket of time (``LatencyOverTime``), fault windows as bands.
    case latencyOverTime(title: String, data: LatencyOverTime, faults: [(name: String, start: Double, end: Double)])
    /// One bar per label (``SVGChart/bars(title:labels:values:unit:width:height:)``).
    case bars(title: String, labels: [String], values: [Double], unit: String)

    public static func == (a: ReportChart, b: ReportChart) -> Bool {
        switch (a, b) {
        case let (.latencyCDF(t1, h1, l1), .latencyCDF(t2, h2, l2)):
            return t1 == t2 && h1 == h2 && l1?.percentile == l2?.percentile && l1?.seconds == l2?.seconds
        case let (.timeSeries(t1, u1, b1, s1, tot1, c1, f1, m1, p1), .timeSeries(t2, u2, b2, s2, tot2, c2, f2, m2, p2)):
            return t1 == t2 && u1 == u2 && b1 == b2 && tot1 == tot2 && c1 == c2 && m1?.at == m2?.at && m1?.label == m2?.label && p1 == p2
                && s1.map(\.name) == s2.map(\.name) && s1.map(\.values) == s2.map(\.values)
                && f1.map(\.name) == f2.map(\.name) && f1.map(\.start) == f2.map(\.start) && f1.map(\.end) == f2.map(\.end)
        case let (.latencyOverTime(t1, d1, f1), .latencyOverTime(t2, d2, f2)):
            return t1 == t2 && d1 == d2 && f1.map(\.name) == f2.map(\.name) && f1.map(\.start) == f2.map(\.start) && f1.map(\.end) == f2.map(\.end)
        case let (.bars(t1, l1, v1, u1), .bars(t2, l2, v2, u2)):
            return t1 == t2 && l1 == l2 && v1 == v2 && u1 == u2
        default: return false
        }
    }
}

public enum ReportSections {
    /// The id of every section but the features', in order; each report has all of them.
    public static let ids = ["verdict", "expectations", "failures", "run", "latency",
                             "ios-scheduling", "android-scheduling", "battery", "backend-load", "invariants"]

    /// The ids of every section with `features`' (``FeatureSection``), in order.
    public static func ids(with features: [FeatureSection]) -> [String] {
        let afterLatency = ids.firstIndex(of: "latency")! + 1
        return Array(ids[..<afterLatency]) + features.map(\.id) + ids[afterLatency...]
    }

    /// An expectation of a report (`expect`), as written in `report.json`.
    public typealias Expectation = ExpectationJudgement

    public static func expectations(_ r: ReportValue) -> [Expectation] {
        (r.lookup("expect")?.arrayValue ?? []).map(ExpectationJudgement.init(reportEntry:))
    }

    /// PASS when no invariant was violated and no expectation failed (nor, with `strict`,
    /// was inconclusive): what the exit code says.
    public static func passed(_ r: ReportValue, strict: Bool = false) -> Bool {
        (r.lookup("invariants.violations")?.doubleValue ?? 0) == 0 && !expectations(r).contains { $0.isFailure(strict: strict) }
    }

    /// `PASS`, `FAIL`, or `INCONCLUSIVE` (passed, but an expectation was inconclusive and
    /// `strict` is off).
    public static func verdictWord(_ r: ReportValue, strict: Bool = false) -> String {
        guard passed(r, strict: strict) else { return "FAIL" }
        return expectations(r).contains { $0.verdict == .inconclusive } ? "INCONCLUSIVE" : "PASS"
    }

    /// The sections of a report, each feature's of `features` after the latencies (one
    /// with no blocks left out: a feature the run did not run, whose keys the report
    /// lacks). `wallSeconds` (machine-dependent) appears only when given; `strict`
    /// (`--strict`) counts inconclusive expectations as failures in the verdict.
    public static func build(_ r: ReportValue, features: [FeatureSection] = [], wallSeconds: Double? = nil, strict: Bool = false) -> [ReportSection] {
        [verdict(r, wallSeconds: wallSeconds, strict: strict), expectationsSection(r, features: features), failures(r), run(r), latency(r, features: features)]
            + features.map { $0.build(r) }.filter { !$0.blocks.isEmpty }
            + [iosScheduling(r), androidScheduling(r), battery(r, features: features), backendLoad(r), invariants(r)]
    }

    // MARK: - Sections

    static func verdict(_ r: ReportValue, wallSeconds: Double?, strict: Bool) -> ReportSection {
        let all = expectations(r)
        let failed = all.filter { $0.verdict == .fail }.count, inconclusive = all.filter { $0.verdict == .inconclusive }.count
        var text = "\(verdictWord(r, strict: strict)): \(count(r, "invariants.violations")) invariant violation(s), "
            + "\(failed) of \(all.count) expectation(s) failed"
        if inconclusive > 0 {
            text += ", \(inconclusive) inconclusive (too few samples to decide; "
                + (strict ? "counted as failed: --strict)" : "not a failure without --strict)")
        }
        text += "."
        text += " Scenario \(str(r, "scenario")), seed \(str(r, "seed")), \(count(r, "simulated.devices")) devices, "
            + "\(MetricText.lookup(r, "simulated.duration")) simulated from \(str(r, "simulated.start")), "
            + "\(count(r, "simulated.events")) events"
        if let wallSeconds { text += ", \(HumanUnits.duration(seconds: wallSeconds)) of wall time" }
        text += ". FleetSim \(str(r, "fleetsimVersion"))."
        return ReportSection(id: "verdict", title: "Verdict", blocks: [.paragraph(text)])
    }

    /// Which binary a report's replay commands mean: report.json says `fleetsim`, the same
    /// bytes on every machine, and its scenario path is relative to where the run started.
    public static let replayNote = "Run them from the directory the run was started in, with fleetsim on PATH "
        + "(make install), or from the repository with .build/release/fleetsim in place of fleetsim."

    /// The note for the runner that `samples`' replay commands start with: an app's own
    /// runner (docs/harness.md, "The runner") is on PATH or run from its package's build.
    public static func replayNote(samples: [ReportValue]) -> String {
        let runner = samples.first?.lookup("replay")?.stringValue?.split(separator: " ").first.map(String.init) ?? "fleetsim"
        guard runner != "fleetsim" else { return replayNote }
        return "Run them from the directory the run was started in, with \(runner) on PATH, "
            + "or with its build's path (such as .build/release/\(runner)) in place of \(runner)."
    }

    /// The invariant violations with their replay commands (the expectations, failed or
    /// not, are the section above): report.json keeps up to ``ReportMerge/samplesPerKind``
    /// of every kind, shown grouped by kind, the kind violated first first.
    static func failures(_ r: ReportValue) -> ReportSection {
        var blocks: [ReportSection.Block] = []
        let samples = r.lookup("invariants.samples")?.arrayValue ?? []
        if !samples.isEmpty {
            blocks.append(.paragraph("Violations (up to \(ReportMerge.samplesPerKind) of each kind, the earliest, each with the command that replays it). \(replayNote(samples: samples))"))
            var kinds: [String] = []
            for s in samples where !kinds.contains(str(s, "kind")) { kinds.append(str(s, "kind")) }
            for kind in kinds {
                let ofKind = samples.filter { str($0, "kind") == kind }
                blocks.append(.paragraph("\(kind): \(count(r, "invariants.byKind.\(kind)")) violation(s), \(ofKind.count) shown."))
                blocks.append(.violations(ofKind.map { s in
                    ReportSection.Violation(kind: kind, device: str(s, "device"),
                                            time: s.lookup("time")?.doubleValue.map { HumanUnits.duration(seconds: $0) } ?? "?",
                                            detail: str(s, "detail"), replay: str(s, "replay"))
                }))
            }
        }
        if blocks.isEmpty { blocks.append(.paragraph("No invariant violation.")) }
        return ReportSection(id: "failures", title: "Invariant violations", blocks: blocks)
    }

    static func run(_ r: ReportValue) -> ReportSection {
        let rows: [[String]] = [
            ["devices", count(r, "simulated.devices")], ["simulated", MetricText.lookup(r, "simulated.duration")],
            ["start (UTC)", str(r, "simulated.start")], ["events", count(r, "simulated.events")],
            ["app opens", count(r, "users.appOpens")], ["tests started", count(r, "users.testsStarted")],
            ["notifications posted", count(r, "notifications.posted")],
            ["not shown (no permission)", count(r, "notifications.notShownWithoutPermission")],
        ]
        return ReportSection(id: "run", title: "The run", blocks: [.table(header: ["", "value"], rows: rows)])
    }

    /// Every latency of the report: a table of percentiles and one distribution chart each.
    static func latency(_ r: ReportValue, features: [FeatureSection]) -> ReportSection {
        let names = (r.lookup("latency")?.objectValue ?? [:]).keys.sorted()
        var rows: [[String]] = []
        var charts: [ReportSection.Block] = []
        for name in names {
            let base = "latency.\(name)"
            rows.append([name] + ["count", "p50", "p90", "p95", "p99", "max"].map { $0 == "count" ? count(r, "\(base).count") : MetricText.lookup(r, "\(base).\($0)") })
            if let chart = distribution(r, base, title: name) { charts.append(chart) }
        }
        var blocks: [ReportSection.Block] = [
            .paragraph("Latencies count only test windows that opened during the run. Percentiles are read from log-linear histograms (within 0.4 %); "
                       + "n is the number of samples each row rests on (a percentile from few samples is uncertain: an expectation on it "
                       + "reports its confidence interval)."),
            .table(header: ["latency", "n", "p50", "p90", "p95", "p99", "max"], rows: rows),
        ]
        let empty = names.filter { (r.lookup("latency.\($0).count")?.intValue ?? 0) == 0 }
        if !empty.isEmpty { blocks.append(.paragraph("No samples (no chart): \(empty.joined(separator: ", ")).")) }
        blocks += LatencyTail.notes(r, names: names, features: features).map { .paragraph($0) }
        let overTime = LatencyOverTime.read(r)
        if overTime.isEmpty {
            blocks.append(.paragraph("Latency over time: this report has no per-bucket latency (latencyOverTime), so it is not drawn."))
        } else {
            let faults = faultBands(r).bands
            blocks += overTime.map { .chart(.latencyOverTime(title: String($0.of.hasPrefix("latency.") ? $0.of.dropFirst(8) : $0.of[...]), data: $0, faults: faults)) }
        }
        blocks += charts
        return ReportSection(id: "latency", title: "Latency distributions", blocks: blocks)
    }

    static func iosScheduling(_ r: ReportValue) -> ReportSection {
        let rows = [["refresh launches", count(r, "scheduling.launches")],
                    ["launches per device-day (iOS)", MetricText.lookup(r, "scheduling.launchesPerDeviceDay.ios.all")],
                    ["launch policy: looks / grants", "\(count(r, "scheduling.launchPolicy.looks")) / \(count(r, "scheduling.launchPolicy.grants"))"],
                    ["daily budget used up", count(r, "scheduling.launchPolicy.dailyBudgetUsedUp")],
                    ["held back by force-quit", count(r, "scheduling.launchPolicy.heldBackByForceQuit")],
                    ["held back by Low Power Mode", count(r, "scheduling.heldBackByLowPowerMode")],
                    ["expirations (30 s)", count(r, "scheduling.expirations")], ["early expirations", count(r, "scheduling.earlyExpirations")],
                    ["watchdog kills", count(r, "scheduling.watchdogKills")], ["submit unavailable", count(r, "scheduling.submitUnavailable")],
                    ["force-quits", count(r, "scheduling.forceQuits")], ["jetsam kills", count(r, "scheduling.jetsamKills")]]
        return ReportSection(id: "ios-scheduling", title: "iOS scheduling", blocks: [.table(header: ["", "value"], rows: rows)])
    }

    static func androidScheduling(_ r: ReportValue) -> ReportSection {
        var rows = [["deep Doze entries", count(r, "scheduling.doze.deepIdleEntries")],
                    ["Doze maintenance windows", count(r, "scheduling.doze.maintenanceWindows")],
                    ["work deferred by Doze", count(r, "scheduling.dozeDeferrals")],
                    ["Doze deferral p50 / p95", latencyFigures(r, "scheduling.dozeDeferral", "p50", "p95")],
                    ["standby bucket changes", count(r, "scheduling.bucketChanges")],
                    ["job quota deferrals", count(r, "scheduling.quotaDeferrals")], ["jobs stopped", count(r, "scheduling.jobsStopped")],
                    ["WorkManager delay p50 / p95", latencyFigures(r, "scheduling.workManagerDelay", "p50", "p95")],
                    ["FCM held by Doze", count(r, "scheduling.fcm.deferredByDoze")],
                    ["FCM Doze delay p50 / p95", latencyFigures(r, "scheduling.fcm.dozeDelay", "p50", "p95")],
                    ["FCM high priority delivered at once", count(r, "scheduling.fcm.highPriorityNow")],
                    ["while-idle alarms fired / held by Doze", "\(count(r, "scheduling.alarms.fired")) / \(count(r, "scheduling.alarms.delayedByDoze"))"],
                    ["Battery Saver activations", count(r, "scheduling.batterySaverActivations")],
                    ["OEM force-stops", count(r, "scheduling.oemForceStops")]]
        rows += members(r, "scheduling.launchesPerDeviceDay.android").map { ["launches per device-day: \($0.key)", $0.value] }
        let charts = [distribution(r, "scheduling.dozeDeferral", title: "Work deferred by Doze: delay"),
                      distribution(r, "scheduling.workManagerDelay", title: "WorkManager delay past the requested interval")].compactMap { $0 }
        return ReportSection(id: "android-scheduling", title: "Android scheduling (Doze, buckets, quotas, WorkManager)",
                             blocks: [.table(header: ["", "value"], rows: rows)] + charts)
    }

    static func battery(_ r: ReportValue, features: [FeatureSection]) -> ReportSection {
        let cohorts = (r.lookup("battery")?.objectValue ?? [:]).keys.sorted()
        // Each feature's energy per run of its work, in the features' order.
        let columns = features.flatMap(\.batteryColumns)
        let rows = cohorts.map { c -> [String] in
            let b = "battery.\(c)"
            return [c, MetricText.lookup(r, "\(b).appEnergyPerDeviceDay.mAh.p50"), MetricText.lookup(r, "\(b).appEnergyPerDeviceDay.mAh.p95"),
                    MetricText.lookup(r, "\(b).appEnergyPerDeviceDay.percentOfCapacity.p95")]
                + columns.map { MetricText.lookup(r, "\(b).\($0.key).mAh.p95") }
                + [MetricText.lookup(r, "\(b).wakeupsPerDeviceDay.mean"), MetricText.lookup(r, "\(b).radioActiveSecondsPerDeviceDay.mean"),
                   count(r, "\(b).devicesOverBudget")]
        }
        let budgets = features.compactMap(\.batteryNote).map { "; \($0)" }.joined()
        return ReportSection(id: "battery", title: "Battery per cohort", blocks: [
            .paragraph("App-attributed energy (modelled CPU and radio cost) per device and day\(budgets)."),
            .table(header: ["cohort", "per day p50", "per day p95", "% of battery/day p95"] + columns.map(\.header)
                           + ["wakeups/day", "radio active/day", "over budget"], rows: rows),
        ] + (cohorts.isEmpty ? [] : [.chart(.bars(title: "App energy per device-day, p95", labels: cohorts,
                                                  values: cohorts.map { r.lookup("battery.\($0).appEnergyPerDeviceDay.mAh.p95")?.reportedDouble ?? .nan },
                                                  unit: "mAh"))]))
    }

    static func backendLoad(_ r: ReportValue) -> ReportSection {
        var blocks: [ReportSection.Block] = []
        let endpoints = members(r, "backend.requests.byEndpoint").filter { $0.value != "0" }
        blocks.append(saturation(r))
        blocks += capacityBlocks(r)
        blocks += pooled(r)
        // Each figure with what it is (docs/report.md, "Exact, bound or estimate").
        let exact = Reading.exact.rawValue, peak = peakReading(r).rawValue, queue = queueReading(r).rawValue
        blocks.append(.table(header: ["", "value", "reads as"], rows: [
            ["requests", count(r, "backend.requests.total"), exact], ["mean", MetricText.lookup(r, "backend.requestsPerSecond.mean"), exact],
            ["p99 of seconds", MetricText.lookup(r, "backend.requestsPerSecond.p99"), exact],
        ] + peakRows(r) + [
            ["busiest second", at(MetricText.lookup(r, "backend.requestsPerSecond.peakSecond"), r, "backend.load.peakSecond.at") + peakSecondNote(r), exact],
            ["busiest second: cause", mixText(r, "backend.load.peakSecond")
                + (r.lookup("backend.load.peakSecond.mixOf")?.stringValue == "minute" ? " (the mix of its minute: sharded, the second's own is not known)" : ""), exact],
            ["workers", count(r, "backend.capacity.workers"), exact],
            ["utilisation (mean busy workers / workers, whole run)", MetricText.lookup(r, "backend.load.apiUtilisation"), exact],
            ["utilisation / headroom in the peak minute", "\(MetricText.lookup(r, "backend.load.peak.utilisation")) / \(MetricText.lookup(r, "backend.load.peak.headroom"))"
                + faultNote(r, "backend.load.peak.faults"), exact],
            ["headroom (1 − the most utilised minute)", MetricText.lookup(r, "backend.load.apiHeadroom"), exact],
            ["most busy workers at once in the peak minute", bound(r, count(r, "backend.load.peak.busyWorkers"), count(r, "backend.load.peak.busyWorkersUpperBound")), peak],
            ["most busy workers at once", bound(r, peakOf(r, "backend.load.apiBusyWorkersPeak"), peakOf(r, "backend.load.apiBusyWorkersPeakUpperBound"))
                + firstReached(r, "backend.load.apiBusyWorkersPeak"), peak],
            ["queueing p99 / max", latencyFigures(r, "backend.queueing", "p99", "max"), queue],
            ["peak queue depth", count(r, "backend.peakQueueDepth"), queue],
            ["503 (queue full)", count(r, "backend.rejected"), queue], ["no answer", count(r, "backend.unanswered"), exact],
            ["client timeouts", count(r, "backend.clientTimeouts"), queue], ["lost in transit", count(r, "backend.lostInTransit"), exact],
            ["401", count(r, "backend.unauthorized"), exact],
        ]))
        if !endpoints.isEmpty { blocks.append(.table(header: ["endpoint", "requests"], rows: endpoints.map { [$0.key, $0.value] })) }
        if let queue = queueTable(r) { blocks.append(queue) }
        blocks += loadCharts(r)
        if let queueing = distribution(r, "backend.queueing", title: "API queueing (wait for a worker)") { blocks.append(queueing) }
        return ReportSection(id: "backend-load", title: "Backend load", blocks: blocks)
    }

    /// `backend.pooled` of a merged report (docs/scale.md, "One pooled backend"): the
    /// shards' requests replayed through one backend of the whole capacity, beside the
    /// shard-local figures below, with what the figures are (exact or an open-loop estimate).
    static func pooled(_ r: ReportValue) -> [ReportSection.Block] {
        guard r.lookup("backend.pooled") != nil else { return [] }
        let p = "backend.pooled"
        let reading = pooledReading(r).rawValue
        var rows: [[String]] = [
            ["API: workers / queue places", "\(count(r, "\(p).capacity.workers")) / \(count(r, "\(p).capacity.queueLimit"))", Reading.exact.rawValue],
            ["requests / served", "\(count(r, "\(p).requests")) / \(count(r, "\(p).served"))", reading],
            ["wait p50 / p95 / p99", "\(MetricText.lookup(r, "\(p).queueing.p50")) / \(MetricText.lookup(r, "\(p).queueing.p95")) / \(MetricText.lookup(r, "\(p).queueing.p99"))", reading],
            ["mean wait / P(wait)", "\(MetricText.lookup(r, "\(p).meanWait")) / \(MetricText.lookup(r, "\(p).pWait"))", reading],
            ["503 (queue full) / no answer", "\(count(r, "\(p).rejected")) / \(count(r, "\(p).unanswered"))", reading],
            ["peak queue depth / most busy workers at once", "\(count(r, "\(p).peakQueueDepth")) / \(count(r, "\(p).busyWorkersPeak"))", reading],
            ["utilisation / headroom (1 − the most used minute's mean)", "\(MetricText.lookup(r, "\(p).utilisation")) / \(MetricText.lookup(r, "\(p).headroom"))", reading],
        ]
        // Each figure of a provider's pool on its own row with what it reads as: its size exact,
        // the replay's figures as the pooled ones, the shards' own instant peak a bound.
        for name in (r.lookup("\(p).providers")?.objectValue ?? [:]).keys.sorted() {
            let q = "\(p).providers.\(name)", service = "\(providerName(name)) push service"
            rows += [["\(service): streams / queue places", "\(count(r, "\(q).concurrency")) / \(count(r, "\(q).queueLimit"))", Reading.exact.rawValue],
                     ["\(service): sends / refused (queue full)", "\(count(r, "\(q).sends")) / \(count(r, "\(q).rejectedByQueue"))", reading],
                     ["\(service): most streams open at once (instant)", "\(count(r, "\(q).peakConcurrent")) of \(count(r, "\(q).concurrency"))", reading],
                     ["\(service): most streams open at once, the shards' own (each against its part)", instantPeak(r, name), peakReading(r).rawValue],
                     ["\(service): utilisation / headroom (1 − the most used minute's mean)",
                      "\(MetricText.lookup(r, "\(q).utilisation")) / \(MetricText.lookup(r, "\(q).headroom"))", reading]]
        }
        rows.append(["the shards saw: 503s, client timeouts, refused sends, retries",
                     ["rejected", "clientTimeouts", "sendsRefused", "retries"].map { count(r, "\(p).shardsSaw.\($0)") }.joined(separator: ", "), Reading.exact.rawValue])
        return [.paragraph("**One pooled backend:** the shards' recorded requests replayed through the scenario's whole capacity "
                           + "(the figures below this table are the shards' own, each against its part). Its arrivals: "
                           + (r.lookup("\(p).arrivals")?.stringValue ?? "") + "."
                           + ((r.lookup("expect")?.arrayValue ?? []).contains { $0.lookup("judgedOn") != nil }
                              ? " The backend expectations are judged on these pooled figures (Expectations names each)." : "")),
                .table(header: ["pooled", "value", "reads as"], rows: rows)]
    }

    /// Whether the API or a push provider's service saturated (`backend.saturated`,
    /// `backend.pushes.*.saturated`): a sentence either way.
    static func saturation(_ r: ReportValue) -> ReportSection.Block {
        var saturated: [String] = []
        if r.lookup("backend.saturated")?.boolValue == true {
            saturated.append("the API saturated: \(count(r, "backend.rejected")) requests were answered 503 (every worker busy and the queue full)")
        }
        for p in (r.lookup("backend.pushes")?.objectValue ?? [:]).keys.sorted() where r.lookup("backend.pushes.\(p).saturated")?.boolValue == true {
            saturated.append("the \(providerName(p)) push service saturated: \(count(r, "backend.pushes.\(p).rejectedByQueue")) sends were refused (its queue full)")
        }
        let sharded = r.lookup("backend.load.peaksAre")?.stringValue == "sharded: bound"
            ? " Merged from shards: each shard ran against its part of the capacity, so a shard saturates first." : ""
        guard !saturated.isEmpty else { return .paragraph("The backend never saturated: no request was answered 503 and no push was refused.") }
        return .paragraph("**Saturated:** " + saturated.joined(separator: "; ") + "." + sharded)
    }

    /// `<main cause> (n of N) · causes … · endpoints …` of `backend.load.peak` or `peakSecond`.
    static func mixText(_ r: ReportValue, _ path: String) -> String {
        guard let cause = r.lookup("\(path).cause")?.stringValue else { return "no requests" }
        func top(_ part: String) -> String {
            let object = r.lookup("\(path).\(part)")?.objectValue ?? [:]
            var counted: [(name: String, n: Int64)] = []
            for (name, value) in object { if let n = value.intValue, n > 0 { counted.append((name, n)) } }
            counted.sort { a, b in a.n != b.n ? a.n > b.n : a.name < b.name }
            let words: [String] = counted.prefix(3).map { causeWords($0.name) + " " + HumanUnits.count($0.n) }
            return words.joined(separator: ", ")
        }
        return "\(causeWords(cause)) (causes: \(top("byCause")); endpoints: \(top("byEndpoint")))"
    }

    /// A cause as a person reads it: `healthKitDelivery` → `HealthKit delivery`.
    static func causeWords(_ cause: String) -> String {
        switch cause {
        case "healthKitDelivery": return "HealthKit delivery"
        case "appOpen": return "app open"
        case "notificationTap": return "notification tap"
        case "userAction": return "user action"
        case "refreshLaunch": return "refresh launch (BGTask)"
        case "workManagerWindow": return "WorkManager window"
        case "dozeWindow": return "Doze maintenance window"
        case "androidState": return "Android state change"
        case "charger": return "charger plugged/unplugged"
        case "retryBackoff": return "retry after backoff"
        case "retryAfterFailure": return "retry after a failed request"
        case "connectivity": return "connectivity change"
        case "fault": return "fault"
        case "appTimer": return "app timer"
        default: return lowercaseWords(cause)
        }
    }

    /// A cause a feature declares, in lower-case words: `someWake` → `some wake`.
    static func lowercaseWords(_ key: String) -> String {
        var out = ""
        for c in key {
            if c.isUppercase, !out.isEmpty { out.append(" ") }
            out.append(contentsOf: c.lowercased())
        }
        return out
    }

    /// A peak as it is: exact in one world; in a merged report (`backend.load.peaksAre`),
    /// from the largest shard's peak to the sum of the shards' (`high`), labelled.
    public static func bound(_ r: ReportValue, _ low: String, _ high: String?) -> String {
        guard r.lookup("backend.load.peaksAre")?.stringValue == "sharded: bound" else { return low }
        guard let high, high != low else { return "≥ \(low) (sharded: bound)" }
        return "\(low) – \(high) (sharded: bound)"
    }

    /// `backend.queue`: the API as a queueing system, overall and per endpoint that served
    /// requests: what planners compare with queueing theory (Erlang C).
    static func queueTable(_ r: ReportValue) -> ReportSection.Block? {
        guard r.lookup("backend.queue") != nil else { return nil }
        let endpoints = (r.lookup("backend.queue.byEndpoint")?.objectValue ?? [:]).keys.sorted()
            .filter { (r.lookup("backend.queue.byEndpoint.\($0).served")?.intValue ?? 0) > 0 }
        func row(_ name: String, _ q: String, _ percentiles: String) -> [String] {
            [name, count(r, "\(q).served"), MetricText.lookup(r, "\(q).utilisation"), MetricText.lookup(r, "\(q).pWait"),
             MetricText.lookup(r, "\(q).meanWait"), MetricText.lookup(r, "\(percentiles).p50"),
             MetricText.lookup(r, "\(percentiles).p95"), MetricText.lookup(r, "\(percentiles).p99")]
        }
        return .table(header: ["API queue", "served", "utilisation", "P(wait > 0)", "mean wait", "wait p50", "p95", "p99"],
                      rows: [row("all endpoints", "backend.queue.overall", "backend.queueing")]
                        + endpoints.map { row($0, "backend.queue.byEndpoint.\($0)", "backend.queue.byEndpoint.\($0).wait") })
    }

    /// The fault windows of `backend.load.faults` (`[{kind, start, end}]`, seconds) drawn
    /// as bands, and the names of those in force for the whole run (no band over everything).
    static func faultBands(_ r: ReportValue) -> (bands: [(name: String, start: Double, end: Double)], wholeRun: [String]) {
        let runSeconds = r.lookup("simulated.duration")?.doubleValue
        var wholeRun: [String] = []
        let bands: [(name: String, start: Double, end: Double)] = (r.lookup("backend.load.faults")?.arrayValue ?? []).compactMap { f in
            guard let s = f.lookup("start")?.doubleValue, let e = f.lookup("end")?.doubleValue else { return nil }
            let name = f.lookup("kind")?.stringValue ?? "fault"
            if s == 0, let runSeconds, e >= runSeconds { wholeRun.append(name); return nil }
            return (name, s, e)
        }
        return (bands, wholeRun)
    }

    /// One chart per entry of `backend.load`, generically: an array is one series, an
    /// object of arrays one chart of several series (with their total when they are
    /// rates; a series named `total` is drawn as the total). A count series whose rate
    /// twin `<key>PerSecond` is there is not drawn twice. Fault windows come from
    /// `backend.load.faults` (`[{kind, start, end}]`, seconds): bands, except faults in
    /// force for the whole run, which a sentence names instead of a band over everything.
    static func loadCharts(_ r: ReportValue) -> [ReportSection.Block] {
        guard let load = r.lookup("backend.load")?.objectValue else { return [.paragraph("No load series in this report.")] }
        let bucket = load["bucketSeconds"]?.doubleValue ?? 60
        let (faults, wholeRun) = faultBands(r)
        let workers = r.lookup("backend.capacity.workers")?.doubleValue
        var blocks: [ReportSection.Block] = []
        if !wholeRun.isEmpty { blocks.append(.paragraph("In force for the whole run (no band): \(wholeRun.joined(separator: ", ")).")) }
        var empty: [String] = []
        // The API's load first (what capacity planning asks), then the rest by name.
        let first = ["requestsPerSecond", "requestsByCause", "apiBusyWorkersPeak", "apiUtilisationOverTime", "apiRejectedPerSecond", "apiUnansweredPerSecond"]
        let keys = first.filter { load[$0] != nil } + load.keys.sorted().filter { !first.contains($0) }
        // `apiHeadroomOverTime` is 1 − `apiUtilisationOverTime`; busy time is drawn as
        // utilisation; an upper bound is drawn with its peaks; mixes are tables.
        let skipped = ["bucketSeconds", "faults", "apiHeadroomOverTime", "arrivalsBySecond", "peakSecondMixes", "apiBusyWorkerMicroseconds",
                       "pushStreamMicroseconds", "apiBusyWorkersPeakUpperBound", "pushConcurrentPeakUpperBound",
                       "apiBusyByEndpoint", "apiBusyByCause"]
        let sharded = load["peaksAre"]?.stringValue == "sharded: bound"
        func values(_ v: ReportValue?) -> [Double]? { v?.doublesValue }
        for key in keys where !skipped.contains(key) && load[key + "PerSecond"] == nil {
            var series: [(name: String, values: [Double])] = []
            if let values = values(load[key]) {
                series = [(words(key), values)]
            } else if let object = load[key]?.objectValue {
                series = object.keys.sorted().compactMap { name in values(object[name]).map { (key == "requestsByCause" ? causeWords(name) : name, $0) } }
            }
            // Merged from shards, a peak is a range: the largest shard's peak up to the sum of the shards'.
            if sharded, let high = load[key + "UpperBound"] {
                if let upper = values(high), series.count == 1 {
                    series = [("largest shard's peak", series[0].values), ("sum of the shards' peaks (sharded: bound)", upper)]
                } else if let object = high.objectValue {
                    series += object.keys.sorted().compactMap { name in values(object[name]).map { ("\(name): sum of the shards' peaks (sharded: bound)", $0) } }
                }
            }
            guard !series.isEmpty else { continue }
            guard series.contains(where: { $0.values.contains { $0 != 0 } }) else { empty.append(key); continue }
            let isRate = key.hasSuffix("PerSecond")
            let unit = isRate ? (key.hasPrefix("push") ? "push/s" : "req/s") : key.contains("Workers") ? "workers" : key.contains("Queue") ? "queued"
                : key.contains("Concurrent") ? "in flight" : key.contains("Utilisation") ? "share of workers" : key == "requestsByCause" || key == "requestsByZone" ? "requests" : ""
            let hasTotal = series.contains { $0.name == "total" }
            // The busiest minute of the table, marked where it is and named by its cause.
            let mark = key == "requestsPerSecond" ? r.lookup("backend.load.peak.at")?.doubleValue.map { at in
                (at: at, label: "busiest minute" + (r.lookup("backend.load.peak.cause")?.stringValue.map { ": " + causeWords($0) } ?? ""))
            } : key == "apiUtilisationOverTime" ? workMark(r) : nil
            blocks.append(.chart(.timeSeries(title: words(key), unit: unit, bucketSeconds: bucket, series: series,
                                             total: isRate && series.count > 1 && !hasTotal,
                                             capacity: key.contains("Workers") ? workers : nil, faults: faults, mark: mark,
                                             busiestMinute: r.lookup("backend.load.peak.at")?.doubleValue)))
        }
        if !empty.isEmpty { blocks.append(.paragraph("Zero for the whole run (no chart): \(empty.map(words).joined(separator: ", ")).")) }
        return blocks
    }

    static func invariants(_ r: ReportValue) -> ReportSection {
        let kinds = members(r, "invariants.byKind")
        var blocks: [ReportSection.Block] = [
            .paragraph("\(count(r, "invariants.checked")) checks, \(count(r, "invariants.violations")) violation(s)."),
            .table(header: ["invariant", "violations"], rows: kinds.map { [$0.key, $0.value] }),
        ]
        // A judge switched off records nothing: the reader sees which, and why.
        let off = (r.lookup("judges.off")?.objectValue ?? [:]).sorted { $0.key < $1.key }
        if !off.isEmpty {
            blocks.append(.paragraph("Judges switched off (their rules record no violation):"))
            blocks.append(.table(header: ["judge", "reason"], rows: off.map { [$0.key, $0.value.stringValue ?? ""] }))
        }
        return ReportSection(id: "invariants", title: "Invariants", blocks: blocks)
    }

    static func expectationsSection(_ r: ReportValue, features: [FeatureSection]) -> ReportSection {
        let all = expectations(r)
        guard !all.isEmpty else { return ReportSection(id: "expectations", title: "Expectations", blocks: [.paragraph("The scenario sets no expectation.")]) }
        return ReportSection(id: "expectations", title: "Expectations", blocks: [
            .table(header: ["metric", "value", "limit", "n", "95 % CI", "result"], rows: all.map { e in
                [expectationMetric(r, e), e.valueText, e.limitText, e.samples.map { HumanUnits.count($0) } ?? "", (e.interval.map(ExpectationJudgement.rangeText) ?? "") + (e.methodText.map { e.interval == nil ? $0 : " (\($0))" } ?? ""),
                 resultMark(e)]
            }),
            .paragraph("A percentile is judged by its 95 % confidence interval: pass when all of it is within the limit, "
                       + "FAIL when none of it is, inconclusive when it straddles the limit or its method cannot give one. "
                       + "The API's waits depend on each other: their interval is from batch means over simulated time "
                       + "(a start that is not yet steady cut as warm-up); other percentiles' samples are taken as independent "
                       + "(one per device's event\(features.compactMap(\.sampleUnit).map { " or per \($0)" }.joined())): distribution-free, from the order statistics."),
        ])
    }

    /// `✓ pass`, `✗ FAIL`, `? inconclusive (straddles 72.0 h)`: the result column of the
    /// Expectations table (n and the interval have their own columns).
    static func resultMark(_ e: Expectation) -> String {
        switch e.verdict {
        case .pass: return "✓ pass"
        case .fail: return "✗ FAIL"
        case .inconclusive:
            if let limit = e.straddled { return "? inconclusive (straddles \(limit))" }
            if let b = e.batches, b.status != .ok { return "? inconclusive (\(b.status.rawValue))" }
            return e.samples == nil ? "? inconclusive (no samples)" : "? inconclusive"
        }
    }

    // MARK: - Helpers

    /// The distribution chart of the latency summary at `path`, from its `histogram`, with
    /// the limit of an `expect` on one of its percentiles; nil when it has no samples.
    public static func distribution(_ r: ReportValue, _ path: String, title: String) -> ReportSection.Block? {
        guard let encoded = r.lookup("\(path).histogram"), let h = LatencyHistogram(exactEncoding: encoded), !h.isEmpty else { return nil }
        if h.max == 0 { return .paragraph("\(title): all \(HumanUnits.count(h.count)) samples were 0 (no chart).") }
        let percentiles = ["p50", "p90", "p95", "p99", "max"]
        let limit = expectations(r).first { $0.max != nil && $0.metric.hasPrefix(path + ".") && percentiles.contains(String($0.metric.dropFirst(path.count + 1))) }
        return .chart(.latencyCDF(title: title, histogram: h, limit: limit.map { (String($0.metric.dropFirst(path.count + 1)), $0.max ?? 0) }))
    }

    /// Figures of the latency summary at `summary` with the samples they rest on:
    /// `34.2 h (n = 191)`, `1.2 s / 3.4 s (n = 191)`.
    public static func latencyFigures(_ r: ReportValue, _ summary: String, _ keys: String...) -> String {
        let figures = keys.map { MetricText.lookup(r, "\(summary).\($0)") }.joined(separator: " / ")
        guard let n = r.lookup("\(summary).count")?.intValue else { return figures }
        return "\(figures) (n = \(HumanUnits.count(n)))"
    }

    public static func str(_ r: ReportValue, _ path: String) -> String {
        guard let v = r.lookup(path) else { return "?" }
        if let s = v.stringValue { return s }
        if let i = v.intValue { return String(i) }
        return v.doubleValue.map(MetricText.plain) ?? "?"
    }

    public static func count(_ r: ReportValue, _ path: String) -> String {
        guard let v = r.lookup(path)?.reportedDouble else { return "no data" }
        return MetricText.plain(v)
    }

    /// The members of an object of numbers, sorted by key, as text.
    public static func members(_ r: ReportValue, _ path: String) -> [(key: String, value: String)] {
        let object = r.lookup(path)?.objectValue ?? [:]
        return object.keys.sorted().compactMap { k in object[k]?.reportedDouble.map { (k, MetricText.format($0, path: "\(path).\(k)")) } }
    }

    /// `value` and, when the report has the time at `path`, when it was: `2.4 req/s at +2 d 08:10`.
    static func at(_ value: String, _ r: ReportValue, _ path: String) -> String {
        guard let seconds = r.lookup(path)?.doubleValue else { return value }
        return "\(value) at \(ReportSVG.elapsed(seconds))"
    }

    static func peakOf(_ r: ReportValue, _ path: String) -> String {
        guard let values = r.lookup(path)?.doublesValue, let peak = values.max() else { return "no data" }
        return MetricText.plain(peak)
    }

    /// `, first at +00:15 (812 of 10,080 buckets)`: where a series' maximum is first
    /// reached and how often, as its chart marks it (``ReportSVG/firstMaximum(_:)``).
    static func firstReached(_ r: ReportValue, _ path: String) -> String {
        guard let values = r.lookup(path)?.doublesValue, let first = ReportSVG.firstMaximum(values),
              let bucket = r.lookup("backend.load.bucketSeconds")?.doubleValue else { return "" }
        return ", first at \(ReportSVG.elapsed(Double(first.index) * bucket))"
            + (first.buckets > 1 ? " (\(HumanUnits.count(first.buckets)) of \(HumanUnits.count(values.count)) buckets)" : "")
    }

    public static func providerName(_ key: String) -> String {
        switch key {
        case "apns": return "APNs"
        case "fcm": return "FCM"
        default: return key
        }
    }

    /// `apiBusyWorkersPeak` → `API busy workers peak`.
    static func words(_ key: String) -> String {
        var out = ""
        var previousLower = false
        for c in key {
            if c.isUppercase, previousLower { out.append(" ") }
            out.append(c)
            previousLower = c.isLowercase || c.isNumber
        }
        let text = out.split(separator: " ").enumerated().map { i, w in
            w == "api" ? "API" : i == 0 ? w.prefix(1).uppercased() + w.dropFirst() : w.lowercased()
        }.joined(separator: " ")
        return text
    }
}
