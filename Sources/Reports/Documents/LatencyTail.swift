/// Says what in a run can make a latency's tail long, from figures the report already
/// has, so a reader of `p99 10.7 h against p50 0.5 s` is not left guessing.
///
/// Rules:
/// - A latency has a long tail when its p99 is at least a minute and at least 10× its
///   p50 (any p99 of a minute or more when the p50 is 0).
/// - Only mechanisms that delay that latency's samples by how the model works are named,
///   and only when the run counted them: the feature whose latency it is names them
///   (``FeatureSection/tailMechanisms``), from its own figures and the OS's and the
///   backend's below: Doze defers Android jobs (`scheduling.dozeDeferrals`); WorkManager
///   runs periodic work late (`scheduling.workManagerDelay`); a backend outage
///   (`backend.load.faults`) leaves requests unanswered until a retry after it.
/// - A tail no counted mechanism reaches says so. These are the causes the run shows,
///   not an attribution of each sample.
public enum LatencyTail {
    /// One sentence per latency of `names` (under `latency.`) with a long tail.
    static func notes(_ r: ReportValue, names: [String], features: [FeatureSection] = []) -> [String] {
        names.compactMap { name in
            let base = "latency.\(name)"
            guard let p50 = r.lookup("\(base).p50")?.doubleValue, let p99 = r.lookup("\(base).p99")?.doubleValue,
                  p99 >= 60, p99 >= 10 * p50 else { return nil }
            let figures = "p90 \(MetricText.lookup(r, "\(base).p90")), p99 \(MetricText.lookup(r, "\(base).p99")) against p50 \(MetricText.lookup(r, "\(base).p50"))"
            let causes = features.flatMap { $0.tailMechanisms(r, name) }
            guard !causes.isEmpty else { return "Tail of \(name) (\(figures)): no delay this report counts reaches it." }
            return "Tail of \(name) (\(figures)): what in this run delays these samples: " + causes.joined(separator: "; ") + "."
        }
    }

    /// Doze deferred Android jobs (`scheduling.dozeDeferrals`): the jobs that sync and
    /// look for new data; nil when the run counted none.
    public static func dozeDeferredJobs(_ r: ReportValue) -> String? {
        let n = r.lookup("scheduling.dozeDeferrals")?.intValue ?? 0
        guard n > 0 else { return nil }
        return "\(HumanUnits.count(n)) Android jobs were deferred by Doze (\(delay(r, "scheduling.dozeDeferral")); scheduling.dozeDeferral)"
    }

    /// WorkManager ran periodic work past its interval (`scheduling.workManagerDelay`);
    /// nil when it never did.
    public static func workManagerLate(_ r: ReportValue) -> String? {
        guard (r.lookup("scheduling.workManagerDelay.count")?.intValue ?? 0) > 0,
              (r.lookup("scheduling.workManagerDelay.p95")?.doubleValue ?? 0) > 0 else { return nil }
        return "WorkManager ran periodic work past its interval (\(delay(r, "scheduling.workManagerDelay")); scheduling.workManagerDelay)"
    }

    /// Each backend outage (`backend.load.faults`), which leaves requests unanswered until
    /// a retry after it.
    public static func backendOutages(_ r: ReportValue) -> [String] {
        ReportSections.faultBands(r).bands.filter { $0.name == "backendOutage" }.map { f in
            "a backend outage from \(ReportSVG.elapsed(f.start)) to \(ReportSVG.elapsed(f.end)) (\(HumanUnits.duration(seconds: f.end - f.start))) "
                + "left requests unanswered until a retry after it (\(HumanUnits.count(r.lookup("backend.unanswered")?.intValue ?? 0)) in the run; backend.load.faults)"
        }
    }

    /// `p95 …, max …` of the delay summary at `path`: how long a mechanism held its samples.
    public static func delay(_ r: ReportValue, _ path: String) -> String {
        "p95 \(MetricText.lookup(r, "\(path).p95")), max \(MetricText.lookup(r, "\(path).max"))"
    }
}
