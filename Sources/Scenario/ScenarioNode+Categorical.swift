/// Categorical choices: an object of name → weight, e.g. `{"authorized": 0.6, "denied": 0.4}`.
///
/// Rules: each weight is a number ≥ 0; the weights sum to a finite number > 0;
/// each name is accepted by the field's `name` reader (which reports an unknown name
/// at that key's path). Options keep file order.
extension ScenarioNode {
    public func categorical<Value>(
        of what: String, example: String,
        name: (ScenarioNode.Member) throws(ScenarioError) -> Value
    ) throws(ScenarioError) -> Categorical<Value> {
        let expected = "an object of \(what) with weights, e.g. \(example)"
        var options: [(value: Value, weight: Double)] = []
        var total = 0.0
        for member in try members(expected) {
            let value = try name(member)
            let weight = try member.node.number(in: 0...Double.greatestFiniteMagnitude, "a weight: a number of 0 or more")
            options.append((value: value, weight: weight))
            total += weight
        }
        guard total > 0, total.isFinite else {
            let found = options.isEmpty ? "an empty object"
                : total > 0 ? "weights whose sum is too large" : "weights that sum to 0"
            throw error(expected: "weights with a sum above 0 (\(expected))", found: found)
        }
        return Categorical(options)
    }
}
