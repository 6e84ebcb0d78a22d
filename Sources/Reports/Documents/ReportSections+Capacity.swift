/// The capacity part of the backend section (docs/report.md, "Capacity by resource"):
/// each resource's utilisation and headroom beside its instant peak, the one that binds,
/// the busiest minute by requests and by work with the fault that made it, and what each
/// figure is: exact, a bound, or an open-loop estimate.
extension ReportSections {
    /// How a figure of a report reads (docs/report.md, "Exact, bound or estimate").
    enum Reading: String {
        /// Measured in one world, or an exact sum of the shards' (counts, busy time).
        case exact
        /// A merged instant peak: the largest shard's up to the sum of the shards'.
        case bound = "bound (sharded)"
        /// A shard's own queue against its part of the capacity, not the whole backend's.
        case shardLocal = "shard-local (each shard against its part of the capacity)"
        /// The pooled replay of arrivals that the shards' answers shaped.
        case openLoop = "open-loop estimate"
    }

    static func sharded(_ r: ReportValue) -> Bool { r.lookup("backend.load.peaksAre")?.stringValue == "sharded: bound" }

    /// Instant peaks: exact in one world, a bound merged.
    static func peakReading(_ r: ReportValue) -> Reading { sharded(r) ? .bound : .exact }

    /// Queue figures (waits, queue depth): exact in one world, shard-local merged.
    static func queueReading(_ r: ReportValue) -> Reading { sharded(r) ? .shardLocal : .exact }

    /// The pooled figures: exact unless the arrivals depended on the shards' answers.
    static func pooledReading(_ r: ReportValue) -> Reading {
        (r.lookup("backend.pooled.arrivals")?.stringValue ?? "").hasPrefix("exact") ? .exact : .openLoop
    }

    static let resourceNames = ["api": "API workers", "apns": "APNs streams", "fcm": "FCM streams"]

    /// The resources in order: the API, then the providers by name.
    static func resources(_ r: ReportValue) -> [String] {
        let names = (r.lookup("backend.resources")?.objectValue ?? [:]).keys
        return names.contains("api") ? ["api"] + names.filter { $0 != "api" }.sorted() : names.sorted()
    }

    /// The most at once of a resource over the run (the API's busy workers, a provider's
    /// open streams), as it reads: a bound when merged.
    static func instantPeak(_ r: ReportValue, _ name: String) -> String {
        if name == "api" {
            return bound(r, peakOf(r, "backend.load.apiBusyWorkersPeak"), peakOf(r, "backend.load.apiBusyWorkersPeakUpperBound"))
        }
        return bound(r, peakOf(r, "backend.load.pushConcurrentPeak.\(name)"), peakOf(r, "backend.load.pushConcurrentPeakUpperBound.\(name)"))
    }

    /// merge's console line of a merged report's `backend.pooled`: `Pooled backend (16
    /// workers, the shards' requests replayed): wait p99 0 s, mean 0 s, P(wait) 0 %, 0
    /// 503s, headroom 61 %; APNs push: most streams open at once 145 of 1,000 (each shard
    /// against its part: 79 – 145, sharded: bound), 0 sends refused, headroom 100.0 %; the
    /// pooled figures are exact (no answer of …)`: each figure as what it is, as in the
    /// pooled table.
    public static func pooledLine(_ r: ReportValue) -> String {
        let p = "backend.pooled"
        let providers = (r.lookup("\(p).providers")?.objectValue ?? [:]).keys.sorted().map { name -> String in
            let q = "\(p).providers.\(name)"
            let shards = instantPeak(r, name)
            let local = shards.hasSuffix(" (sharded: bound)") ? String(shards.dropLast(17)) + ", sharded: bound" : shards
            return "; \(providerName(name)) push: most streams open at once \(count(r, "\(q).peakConcurrent")) of \(count(r, "\(q).concurrency")) "
                + "(each shard against its part: \(local)), \(count(r, "\(q).rejectedByQueue")) sends refused, headroom \(MetricText.lookup(r, "\(q).headroom"))"
        }
        let arrivals = r.lookup("\(p).arrivals")?.stringValue ?? ""
        let why = arrivals.range(of: ": ").map { String(arrivals[$0.upperBound...]) } ?? arrivals
        return "Pooled backend (\(count(r, "\(p).capacity.workers")) workers, the shards' requests replayed): "
            + "wait p99 \(MetricText.lookup(r, "\(p).queueing.p99")), mean \(MetricText.lookup(r, "\(p).meanWait")), P(wait) \(MetricText.lookup(r, "\(p).pWait")), "
            + "\(count(r, "\(p).rejected")) 503s, headroom \(MetricText.lookup(r, "\(p).headroom"))" + providers.joined()
            + "; the pooled figures are \(pooledReading(r) == .exact ? "exact" : "an open-loop estimate") (\(why))"
    }

    /// ` (inside backendOutage: the fault made this minute)` when the fault list at `path`
    /// names any; empty otherwise.
    static func faultNote(_ r: ReportValue, _ path: String) -> String {
        faultNote((r.lookup(path)?.arrayValue ?? []).compactMap(\.stringValue), made: "minute")
    }

    static func faultNote(_ kinds: [String], made span: String) -> String {
        guard !kinds.isEmpty else { return "" }
        return " (inside \(kinds.joined(separator: ", ")): the fault made this \(span))"
    }

    /// The busiest second's fault note, as its minute's (`backend.load.peak.faults`): the
    /// fault windows of `backend.load.faults` that the second lies in, and when its minute
    /// answered none of its requests, `; none of its 4 requests answered` (the second's
    /// count); when its minute answered some, the minute's count, as the second's own is
    /// not recorded.
    static func peakSecondNote(_ r: ReportValue) -> String {
        guard let at = r.lookup("backend.load.peakSecond.at")?.doubleValue else { return "" }
        let kinds = CapacityFigures.faultKinds(CapacityFigures.faultWindows(r), start: at, end: at + 1)
        guard let width = r.lookup("backend.load.bucketSeconds")?.doubleValue, width > 0 else { return faultNote(kinds, made: "second") }
        let b = Int(at / width)
        let unanswered = r.lookup("backend.load.apiUnanswered.\(b)")?.intValue ?? 0
        let requests = r.lookup("backend.load.requests.total.\(b)")?.intValue ?? 0
        guard unanswered > 0 else { return faultNote(kinds, made: "second") }
        let second = r.lookup("backend.load.peakSecond.requests")?.intValue ?? r.lookup("backend.requestsPerSecond.peakSecond")?.intValue ?? 0
        return faultNote(kinds, made: "second")
            + (unanswered >= requests ? "; none of its \(HumanUnits.count(second)) requests answered"
                                      : "; its minute: \(HumanUnits.count(unanswered)) of its \(HumanUnits.count(requests)) requests unanswered")
    }

    /// The capacity table: per resource its capacity, utilisation, headroom and the minute
    /// of its least headroom, its instant peak and refusals, the binding one first said.
    static func capacityBlocks(_ r: ReportValue) -> [ReportSection.Block] {
        let names = resources(r).filter { (r.lookup("backend.resources.\($0).capacity")?.intValue ?? 0) > 0 }
        guard !names.isEmpty else { return [] }
        let binding = r.lookup("backend.binding")?.stringValue ?? ""
        let rows: [[String]] = names.map { name in
            let p = "backend.resources.\(name)"
            let minute = "\(MetricText.lookup(r, "\(p).headroom")) at \(ReportSVG.elapsed(r.lookup("\(p).leastHeadroomAt")?.doubleValue ?? 0))"
                + faultNote(r, "\(p).leastHeadroomFaults")
            return [(resourceNames[name] ?? name) + (name == binding ? " (binds)" : ""), count(r, "\(p).capacity"),
                    MetricText.lookup(r, "\(p).utilisation"), minute,
                    "\(instantPeak(r, name)) of \(count(r, "\(p).capacity"))", count(r, "\(p).refused")]
        }
        var blocks: [ReportSection.Block] = []
        if let b = r.lookup("backend.binding")?.stringValue, names.contains(b) {
            let p = "backend.resources.\(b)"
            blocks.append(.paragraph("**Binds first:** the \(resourceNames[b] ?? b): \(MetricText.lookup(r, "\(p).headroom")) headroom in its most used minute "
                                     + "(\(ReportSVG.elapsed(r.lookup("\(p).leastHeadroomAt")?.doubleValue ?? 0)))\(faultNote(r, "\(p).leastHeadroomFaults")), "
                                     + "\(MetricText.lookup(r, "\(p).utilisation")) used over the run: the least headroom of the resources."))
        }
        blocks.append(.table(header: ["resource", "capacity", "utilisation, whole run (exact)", "headroom: 1 − its most used minute's mean (exact)",
                                      "instant peak: most busy at once (\(peakReading(r).rawValue))", "refused"], rows: rows))
        blocks.append(.paragraph("Utilisation and headroom are means over a minute (busy time over the capacity × the minute, 0 headroom in a minute "
                                 + "that refused work); the instant peak is the most busy at any one instant. A short burst can fill the streams "
                                 + "while its minute's mean, and so the headroom, stays high."))
        return blocks
    }

    /// The rows of the busiest minute by requests and by work (busy time), each with its
    /// cause and the fault that made it.
    static func peakRows(_ r: ReportValue) -> [[String]] {
        let byRequests = at(MetricText.lookup(r, "backend.requestsPerSecond.peak"), r, "backend.load.peak.at") + localNote(r, "backend.load.peak")
            + faultNote(r, "backend.load.peak.faults")
            + unansweredNote(r, "backend.load.peak")
        var rows = [["peak (busiest minute's mean)", byRequests, Reading.exact.rawValue],
                    ["busiest minute: cause", mixText(r, "backend.load.peak"), Reading.exact.rawValue]]
        if r.lookup("backend.load.peakByWork") != nil {
            let w = "backend.load.peakByWork"
            rows.append(["busiest minute by work (busy worker time)",
                         "\(MetricText.lookup(r, "\(w).busyWorkerMicroseconds")) of worker time, \(MetricText.lookup(r, "\(w).utilisation")) of the workers, "
                         + "requests: \(count(r, "\(w).requests")), at \(ReportSVG.elapsed(r.lookup("\(w).at")?.doubleValue ?? 0))" + localNote(r, w)
                         + faultNote(r, "\(w).faults") + unansweredNote(r, w), Reading.exact.rawValue])
            rows.append(["busiest minute by work: cause", workMixText(r), Reading.exact.rawValue])
        }
        return rows
    }

    /// ` (08:10 in America/New_York, 2026-03-04)`: a peak minute's start in the local
    /// time of the zone most of its requests came from; empty without one.
    static func localNote(_ r: ReportValue, _ path: String) -> String {
        guard let zone = r.lookup("\(path).zone")?.stringValue, let local = r.lookup("\(path).localTime")?.stringValue,
              let space = local.firstIndex(of: " ") else { return "" }
        return " (\(local[local.index(after: space)...]) in \(zone), \(local[..<space]))"
    }

    /// `; none of its 42 requests answered` when a fault left a minute's requests unanswered.
    static func unansweredNote(_ r: ReportValue, _ path: String) -> String {
        let requests: Int64, unanswered: Int64
        if let n = r.lookup("\(path).unanswered")?.intValue {
            unanswered = n
            requests = r.lookup("\(path).requests")?.intValue ?? 0
        } else {
            guard let at = r.lookup("\(path).at")?.doubleValue, let width = r.lookup("backend.load.bucketSeconds")?.doubleValue, width > 0 else { return "" }
            let b = Int(at / width)
            unanswered = r.lookup("backend.load.apiUnanswered.\(b)")?.intValue ?? 0
            requests = r.lookup("backend.load.requests.total.\(b)")?.intValue ?? 0
        }
        guard unanswered > 0 else { return "" }
        return unanswered >= requests ? "; none of its \(HumanUnits.count(requests)) requests answered"
                                      : "; \(HumanUnits.count(unanswered)) of its \(HumanUnits.count(requests)) requests unanswered"
    }

    /// `<main cause> (busy time: causes …; endpoints …)` of `backend.load.peakByWork`, as shares.
    static func workMixText(_ r: ReportValue) -> String {
        let w = "backend.load.peakByWork"
        guard let cause = r.lookup("\(w).cause")?.stringValue else { return "no work" }
        let total = Double(r.lookup("\(w).busyWorkerMicroseconds")?.intValue ?? 0)
        func top(_ part: String) -> String {
            var counted: [(name: String, n: Int64)] = []
            for (name, value) in r.lookup("\(w).\(part)")?.objectValue ?? [:] { if let n = value.intValue, n > 0 { counted.append((name, n)) } }
            counted.sort { a, b in a.n != b.n ? a.n > b.n : a.name < b.name }
            return counted.prefix(3).map { causeWords($0.name) + " " + HumanUnits.percent(fraction: Double($0.n) / Swift.max(total, 1), digits: 1) }
                .joined(separator: ", ")
        }
        return "\(causeWords(cause)) (share of the busy time: causes \(top("byCause")); endpoints \(top("byEndpoint")))"
    }

    /// The utilisation chart's mark: the minute of the most work, named by its cause.
    static func workMark(_ r: ReportValue) -> (at: Double, label: String)? {
        r.lookup("backend.load.peakByWork.at")?.doubleValue.map { at in
            (at: at, label: "most work" + (r.lookup("backend.load.peakByWork.cause")?.stringValue.map { ": " + causeWords($0) } ?? ""))
        }
    }

    /// An expectation's metric, and the pooled figure it was judged on in a merged report.
    static func expectationMetric(_ r: ReportValue, _ e: Expectation) -> String {
        guard let on = e.judgedOn else { return e.metric }
        return "\(e.metric) (judged on \(on): one backend of the whole capacity, \(pooledReading(r).rawValue))"
    }
}
