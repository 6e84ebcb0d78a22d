import Reports
import Scenario

/// What an opt-in feature (``Feature/byDefault`` false) adds to the endpoint table and
/// the rules, declared beside it in ``FeatureList/optIn``: a report of a run where no
/// cohort runs it leaves these rows and rules out (``ReportScope``).
struct OptInParts {
    let feature: Feature
    let endpoints: [EndpointRow]
    let rules: [ViolationKind]
}

/// The endpoint rows and rules a run's report.json lists (docs/architecture.md, "A
/// feature's report"): every row of the endpoint table and every rule, less those of an
/// opt-in feature that no cohort of the scenario runs. Such a feature's rows would be
/// zero and its rules unjudged in every other report; left out, adding the feature
/// moves no other scenario's bytes. Shards of one run have the same cohorts, so the
/// same keys, and merge adds them as it adds any.
struct ReportScope {
    /// The endpoint table's rows listed, each with its path, in the table's order.
    let endpoints: [(row: Int, name: String)]
    /// The rules `invariants.byKind` lists, each with its place in ``ViolationKind/allCases``.
    let rules: [(index: Int, kind: ViolationKind)]

    init(cohorts: [CohortModels]) {
        let idle = FeatureList.optIn.filter { part in !cohorts.contains { $0.runs(part.feature) } }
        let idlePaths = Set(idle.flatMap { $0.endpoints.map(\.path) })
        let idleRules = Set(idle.flatMap { $0.rules })
        endpoints = LoadSeries.endpointNames.enumerated().filter { !idlePaths.contains($0.element) }.map { (row: $0.offset, name: $0.element) }
        rules = ViolationKind.allCases.enumerated().filter { !idleRules.contains($0.element) }.map { (index: $0.offset, kind: $0.element) }
    }

    /// Counts by endpoint row (the endpoint table's order), as an object of the rows listed.
    func byEndpoint(_ counts: [UInt32]) -> ReportValue {
        .object(Dictionary(uniqueKeysWithValues: endpoints.map { ($0.name, ReportValue.count(counts[$0.row])) }))
    }
}
