/// Says what in a run can make a latency's tail long, from figures the report already
/// has, so a reader of `p99 10.7 h against p50 0.5 s` is not left guessing.
///
/// Rules:
/// - A latency has a long tail when its p99 is at least a minute and at least 10× its
///   p50 (any p99 of a minute or more when the p50 is 0).
/// - Only mechanisms that delay that latency's samples by how the model works are named,
///   and only when the run counted them: quiet hours hold normal and high pushes until
///   they end (`push.heldForQuietHours`); Doze holds normal-priority FCM messages
///   (`scheduling.fcm.deferredByDoze`) and defers Android jobs (`scheduling.dozeDeferrals`)
///   that sync steps and look for tests; WorkManager runs periodic work late
///   (`scheduling.workManagerDelay`); iOS grants only some background-refresh looks
///   (`scheduling.launchPolicy`); a backend outage (`backend.load.faults`) leaves the
///   requests of syncs and test checks unanswered until a retry after it.
/// - A tail no counted mechanism reaches says so. These are the causes the run shows,
///   not an attribution of each sample.
enum LatencyTail {
    /// One sentence per latency of `names` (under `latency.`) with a long tail.
    static func notes(_ r: ReportValue, names: [String]) -> [String] {
        names.compactMap { name in
            let base = "latency.\(name)"
            guard let p50 = r.lookup("\(base).p50")?.doubleValue, let p99 = r.lookup("\(base).p99")?.doubleValue,
                  p99 >= 60, p99 >= 10 * p50 else { return nil }
            let figures = "p90 \(MetricText.lookup(r, "\(base).p90")), p99 \(MetricText.lookup(r, "\(base).p99")) against p50 \(MetricText.lookup(r, "\(base).p50"))"
            let causes = mechanisms(r, name)
            guard !causes.isEmpty else { return "Tail of \(name) (\(figures)): no delay this report counts reaches it." }
            return "Tail of \(name) (\(figures)): what in this run delays these samples: " + causes.joined(separator: "; ") + "."
        }
    }

    /// The counted mechanisms that delay the samples of latency `name`, as clauses.
    static func mechanisms(_ r: ReportValue, _ name: String) -> [String] {
        func n(_ path: String) -> Int64 { r.lookup(path)?.intValue ?? 0 }
        func delay(_ path: String) -> String { "p95 \(MetricText.lookup(r, "\(path).p95")), max \(MetricText.lookup(r, "\(path).max"))" }
        let push = name.hasPrefix("pushCreatedToDelivered.")
        let priority = push ? String(name.dropFirst("pushCreatedToDelivered.".count)) : ""
        let checksBackend = ["stepsRecordedToSynced", "testAvailableToNotified", "testAvailableToSeen"].contains(name)
        var out: [String] = []
        if push, ["high", "normal"].contains(priority), n("push.heldForQuietHours") > 0 {
            out.append("\(HumanUnits.count(n("push.heldForQuietHours"))) pushes were held for their user's quiet hours and sent when those ended, "
                       + "hours later (push.heldForQuietHours)")
        }
        if push, ["normal", "low"].contains(priority), n("scheduling.fcm.deferredByDoze") > 0 {
            out.append("\(HumanUnits.count(n("scheduling.fcm.deferredByDoze"))) FCM messages were held by Doze until a maintenance window "
                       + "(\(delay("scheduling.fcm.dozeDelay")); scheduling.fcm.deferredByDoze)")
        }
        if checksBackend, n("scheduling.dozeDeferrals") > 0 {
            out.append("\(HumanUnits.count(n("scheduling.dozeDeferrals"))) Android jobs were deferred by Doze (\(delay("scheduling.dozeDeferral")); scheduling.dozeDeferral)")
        }
        if name == "stepsRecordedToSynced", n("scheduling.workManagerDelay.count") > 0, (r.lookup("scheduling.workManagerDelay.p95")?.doubleValue ?? 0) > 0 {
            out.append("WorkManager ran periodic work past its interval (\(delay("scheduling.workManagerDelay")); scheduling.workManagerDelay)")
        }
        if name.hasPrefix("testAvailableTo"), n("scheduling.launchPolicy.looks") > n("scheduling.launchPolicy.grants") {
            out.append("iOS granted \(HumanUnits.count(n("scheduling.launchPolicy.grants"))) of \(HumanUnits.count(n("scheduling.launchPolicy.looks"))) "
                       + "background-refresh looks, the daily budget ran out \(HumanUnits.count(n("scheduling.launchPolicy.dailyBudgetUsedUp"))) times "
                       + "(scheduling.launchPolicy)")
        }
        if checksBackend {
            for f in ReportSections.faultBands(r).bands where f.name == "backendOutage" {
                out.append("a backend outage from \(ReportSVG.elapsed(f.start)) to \(ReportSVG.elapsed(f.end)) (\(HumanUnits.duration(seconds: f.end - f.start))) "
                           + "left requests unanswered until a retry after it (\(HumanUnits.count(n("backend.unanswered"))) in the run; backend.load.faults)")
            }
        }
        return out
    }
}
