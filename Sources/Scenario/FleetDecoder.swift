/// `fleet`: a non-empty array of cohorts whose `cohort` names are unique.
/// Devices get dense ids in this order (`INTERFACE.md`).
enum FleetDecoder {
    static let expected = "the fleet: a non-empty array of cohorts, e.g. [{\"cohort\": \"ios-daily\", \"count\": 1000, \"platform\": \"ios\"}]"

    static func decode(_ node: ScenarioNode) throws(ScenarioError) -> [Cohort] {
        let elements = try node.elements(expected)
        guard !elements.isEmpty else { throw node.error(expected: expected) }
        var cohorts: [Cohort] = []
        for element in elements {
            let cohort = try CohortDecoder.decode(element)
            if let earlier = cohorts.firstIndex(where: { $0.name == cohort.name }) {
                let nameNode = element.member("cohort") ?? element
                throw nameNode.error(expected: "a cohort name not used by another cohort",
                                     found: "\(JSONValue.quoteForMessage(cohort.name)), already the name of $.fleet[\(earlier)]")
            }
            cohorts.append(cohort)
        }
        return cohorts
    }
}
