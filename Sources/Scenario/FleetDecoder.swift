/// `fleet`: a non-empty array of cohorts whose `cohort` names are unique.
/// Devices get dense ids in this order (`docs/scenario.md`).
public enum FleetDecoder {
    static let expected = "the fleet: a non-empty array of cohorts, e.g. [{\"cohort\": \"ios-daily\", \"count\": 1000, \"platform\": \"ios\"}]"

    /// The most devices one world simulates (≈ 5 GB of device state): larger fleets
    /// are sharded. Checked again after `--scale`.
    public static let maximumDevices = 10_000_000

    /// Each cohort's `features` and sections: those of the world (`vocabulary`).
    static func decode(_ node: ScenarioNode, vocabulary: ScenarioVocabulary) throws(ScenarioError) -> [Cohort] {
        let elements = try node.elements(expected)
        guard !elements.isEmpty else { throw node.error(expected: expected) }
        var cohorts: [Cohort] = []
        // Linear in the cohorts: names by index, and the running total.
        var indexByName: [String: Int] = [:]
        var total = 0
        for element in elements {
            let cohort = try CohortDecoder.decode(element, vocabulary: vocabulary)
            if let earlier = indexByName[cohort.name] {
                let nameNode = element.member("cohort") ?? element
                throw nameNode.error(expected: "a cohort name not used by another cohort",
                                     found: "\(JSONValue.quoteForMessage(cohort.name)), already the name of $.fleet[\(earlier)]")
            }
            indexByName[cohort.name] = cohorts.count
            cohorts.append(cohort)
            total += cohort.count
            if total > maximumDevices {
                throw (element.member("count") ?? element).error(
                    expected: "at most \(maximumDevices) devices in the whole fleet (shard larger fleets)",
                    found: "\(total) devices up to this cohort")
            }
        }
        return cohorts
    }
}
