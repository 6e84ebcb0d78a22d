/// The capacity figures of `report.json` that read the backend's per-minute series as a
/// planner does (docs/report.md, "Capacity by resource"): each resource's utilisation and
/// headroom with the minute of its least headroom, the resource that binds, the minute of
/// the most work (busy time) beside the minute of the most requests, and the fault windows
/// each of those minutes lies in. One function of the report's own series, used by the run
/// that writes the report and by `fleetsim merge` on the merged series, so the two agree
/// whenever the series do.
public enum CapacityFigures {
    /// A pool that serves work: the API's workers or a notification provider's streams.
    struct Resource {
        var name: String
        var capacity: Int64
        var busy: [Int64]
        var refused: [Int64]
    }

    /// The report with `backend.resources`, `backend.binding`, `backend.load.peakByWork`
    /// and `backend.load.peak.faults` set from its series.
    public static func adding(to report: ReportValue) -> ReportValue {
        guard case .object(var document) = report, case .object(var backend)? = document["backend"],
              case .object(var load)? = backend["load"] else { return report }
        let figures = compute(report)
        backend["resources"] = figures.resources
        backend["binding"] = figures.binding
        load["peakByWork"] = figures.peakByWork
        if case .object(var peak)? = load["peak"] {
            peak["faults"] = figures.peakFaults
            peak["zone"] = figures.peakZone.zone
            peak["localTime"] = figures.peakZone.localTime
            load["peak"] = .object(peak)
        }
        backend["load"] = .object(load)
        document["backend"] = .object(backend)
        return .object(document)
    }

    /// One of those keys (a merge's derived key), by its path.
    public static func value(at path: [String], in report: ReportValue) -> ReportValue {
        let figures = compute(report)
        let whole: ReportValue = ["backend": ["resources": figures.resources, "binding": figures.binding,
                                              "load": ["peakByWork": figures.peakByWork,
                                                       "peak": ["faults": figures.peakFaults, "zone": figures.peakZone.zone,
                                                                "localTime": figures.peakZone.localTime]]]]
        return whole.at(path) ?? .null
    }

    struct Figures {
        var resources: ReportValue
        var binding: ReportValue
        var peakByWork: ReportValue
        var peakFaults: ReportValue
        var peakZone: (zone: ReportValue, localTime: ReportValue)
    }

    static func ints(_ v: ReportValue?) -> [Int64] { v?.integersValue ?? [] }

    static func compute(_ r: ReportValue) -> Figures {
        let load = r.at(["backend", "load"])
        let bucketSeconds = Swift.max(1, load?.at(["bucketSeconds"])?.intValue ?? 60)
        let microseconds = Int64(((r.at(["simulated", "duration"])?.doubleValue ?? 0) * 1_000_000).rounded())
        var resources = [Resource(name: "api", capacity: r.at(["backend", "capacity", "workers"])?.intValue ?? 0,
                                  busy: ints(load?.at(["apiBusyWorkerMicroseconds"])), refused: ints(load?.at(["apiRejected"])))]
        for (name, busy) in (load?.at(["pushStreamMicroseconds"])?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            resources.append(Resource(name: name, capacity: r.at(["backend", "pushes", name, "concurrency"])?.intValue ?? 0,
                                      busy: ints(busy), refused: ints(load?.at(["pushRejected", name]))))
        }
        let windows = faultWindows(r)
        func faults(_ bucket: Int) -> ReportValue {
            let start = Double(Int64(bucket) * bucketSeconds)
            return .array(faultKinds(windows, start: start, end: start + Double(bucketSeconds)).map { .string($0) })
        }
        // Each resource: its utilisation over the run, its least headroom and that minute.
        var rows: [(name: String, utilisation: Double, headroom: Double, value: ReportValue)] = []
        for res in resources {
            let series = DerivedFigures.utilisationSeries(busy: res.busy, capacity: res.capacity, bucketSeconds: bucketSeconds,
                                                          durationMicroseconds: microseconds)
            let headroom = DerivedFigures.headroomValues(utilisation: series, refused: res.refused)
            var least = 0
            for b in headroom.indices where headroom[b] < headroom[least] { least = b }
            let total = res.busy.reduce(Int64(0), &+)
            let utilisation = DerivedFigures.utilisationValue(busy: total, capacity: res.capacity, microseconds: microseconds)
            let h = headroom.isEmpty ? 1 : headroom[least]
            rows.append((res.name, utilisation, h, [
                "capacity": .count(res.capacity),
                "utilisation": .fixed(utilisation, 4),
                "headroom": .fixed(h, 4),
                "leastHeadroomAt": .seconds(Int64(least) * bucketSeconds * 1_000_000),
                "leastHeadroomFaults": faults(least),
                "refused": .count(res.refused.reduce(Int64(0), &+)),
            ]))
        }
        // The binding resource: the least headroom; of equals the most used, then the API first.
        var binding = 0
        for k in rows.indices.dropFirst() {
            let a = rows[k], b = rows[binding]
            if a.headroom < b.headroom || (a.headroom == b.headroom && a.utilisation > b.utilisation) { binding = k }
        }
        // The minute of the most work: the API's busy time, by endpoint and by cause.
        let busy = resources[0].busy
        var work = 0
        for b in busy.indices where busy[b] > busy[work] { work = b }
        func mix(_ key: String) -> [String: Int64] {
            (load?.at([key])?.objectValue ?? [:]).mapValues { ints($0)[safe: work] ?? 0 }
        }
        let byCause = mix("apiBusyByCause"), byEndpoint = mix("apiBusyByEndpoint")
        let workZone = local(r, bucket: work, bucketSeconds: bucketSeconds)
        let utilisation = DerivedFigures.utilisationSeries(busy: busy, capacity: resources[0].capacity, bucketSeconds: bucketSeconds,
                                                           durationMicroseconds: microseconds)
        let peakByWork: ReportValue = [
            "at": .seconds(Int64(work) * bucketSeconds * 1_000_000),
            "busyWorkerMicroseconds": .count(busy[safe: work] ?? 0),
            "utilisation": .fixed(utilisation[safe: work] ?? 0, 4),
            "headroom": DerivedFigures.headroom(utilisation: utilisation[safe: work] ?? 0, refused: (resources[0].refused[safe: work] ?? 0) > 0),
            "requests": .count(ints(load?.at(["requests", "total"]))[safe: work] ?? 0),
            "unanswered": .count(ints(load?.at(["apiUnanswered"]))[safe: work] ?? 0),
            "cause": DerivedFigures.mainCause(byCause),
            "byCause": .object(byCause.mapValues { .count($0) }),
            "byEndpoint": .object(byEndpoint.mapValues { .count($0) }),
            "faults": faults(work),
            "zone": workZone.zone,
            "localTime": workZone.localTime,
        ]
        // The minute of the most requests (`backend.load.peak`: the first of equals).
        let requests = ints(load?.at(["requests", "total"]))
        var peak = 0
        for b in requests.indices where requests[b] > requests[peak] { peak = b }
        return Figures(resources: .object(Dictionary(uniqueKeysWithValues: rows.map { ($0.name, $0.value) })),
                       binding: .string(rows[binding].name), peakByWork: peakByWork, peakFaults: faults(peak),
                       peakZone: local(r, bucket: peak, bucketSeconds: bucketSeconds))
    }

    /// The time zone the most requests of a bucket came from (`backend.load.requestsByZone`;
    /// the first by name of equals) and the bucket's start in its local time
    /// (`2026-03-04 02:36`); `null` for a bucket without requests.
    static func local(_ r: ReportValue, bucket: Int, bucketSeconds: Int64) -> (zone: ReportValue, localTime: ReportValue) {
        var best: (name: String, count: Int64)?
        let zones = r.at(["backend", "load", "requestsByZone"])?.objectValue ?? [:]
        for name in zones.keys.sorted() {
            let n = ints(zones[name])[safe: bucket] ?? 0
            if n > (best?.count ?? 0) { best = (name, n) }
        }
        guard let zone = best?.name, let start = r.at(["simulated", "start"])?.stringValue.flatMap(LocalClock.unixSeconds(utc:)) else { return (.null, .null) }
        return (.string(zone), LocalClock.text(unixSeconds: start + Int64(bucket) * bucketSeconds, zone: zone).map { .string($0) } ?? .null)
    }

    /// The kinds of the windows a span [start, end) lies in, in their order: those that
    /// overlap it, and an instant fault (a window of no length) inside it.
    static func faultKinds(_ windows: [(kind: String, start: Double, end: Double)], start: Double, end: Double) -> [String] {
        windows.filter { $0.start < end && ($0.end > start || ($0.end == $0.start && $0.start >= start)) }.map(\.kind)
    }

    /// `backend.load.faults` as windows, except those in force for the whole run (they
    /// shape every minute alike, and the report names them once).
    static func faultWindows(_ r: ReportValue) -> [(kind: String, start: Double, end: Double)] {
        let run = r.at(["simulated", "duration"])?.doubleValue ?? 0
        return (r.at(["backend", "load", "faults"])?.arrayValue ?? []).compactMap { f in
            guard let s = f.at(["start"])?.doubleValue, let e = f.at(["end"])?.doubleValue, !(s <= 0 && e >= run) else { return nil }
            return (f.at(["kind"])?.stringValue ?? "fault", s, e)
        }
    }
}
