import SimKernel

/// What the values of a distribution are.
public enum DistributionUnit {
    /// Duration strings (`"20m"`), each zero or more, stored as microseconds.
    case duration
    /// JSON numbers within `range` (the spread `sd` only needs to be ≥ 0).
    case number(ClosedRange<Double>)

    var expected: String {
        switch self {
        case .duration:
            return "a distribution of durations: {\"constant\": \"30s\"}, {\"uniform\": [\"1m\", \"5m\"]}, "
                + "{\"exponential\": {\"mean\": \"10m\"}}, {\"lognormal\": {\"median\": \"20m\", \"p99\": \"12h\"}}, "
                + "{\"normal\": {\"mean\": \"1h\", \"sd\": \"10m\"}}, or a bare duration such as \"30s\""
        case .number(let range):
            return "a distribution of numbers \(DistributionUnit.describe(range)): {\"constant\": X}, {\"uniform\": [A, B]}, "
                + "{\"exponential\": {\"mean\": X}}, {\"lognormal\": {\"median\": X, \"p99\": X}}, "
                + "{\"normal\": {\"mean\": X, \"sd\": X}}, or a bare number"
        }
    }

    static func describe(_ range: ClosedRange<Double>) -> String {
        if range.upperBound == .greatestFiniteMagnitude { return "of \(format(range.lowerBound)) or more" }
        return "from \(format(range.lowerBound)) to \(format(range.upperBound))"
    }

    static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x)
    }
}

/// Distributions, written as one of
/// `{"constant": X}`, `{"uniform": [A, B]}` (A ≤ B), `{"exponential": {"mean": X}}` (X > 0),
/// `{"lognormal": {"median": X, "p99": X}}` (0 < median ≤ p99), `{"normal": {"mean": X, "sd": X}}` (sd ≥ 0).
/// Each X is a duration string or a number according to the field's ``DistributionUnit``.
/// A bare value (a duration string, or a number) where a distribution is expected means
/// `{"constant": value}`.
extension ScenarioNode {
    static let distributionKinds = ["constant", "uniform", "exponential", "lognormal", "normal"]

    public func distribution(_ unit: DistributionUnit) throws(ScenarioError) -> Distribution {
        switch (value, unit) {
        case (.object, _):
            break
        case (.string, .duration), (.number, .number):
            return .constant(try scalar(unit))
        default:
            throw error(expected: unit.expected)
        }
        let members = try members(unit.expected)
        guard let first = members.first else { throw error(expected: unit.expected) }
        guard ScenarioNode.distributionKinds.contains(first.key) else {
            throw first.unknownKey(among: ScenarioNode.distributionKinds, context: " of a distribution")
        }
        let result = try first.node.distributionBody(kind: first.key, unit)
        if members.count > 1 {
            throw members[1].node.error(expected: "exactly one distribution kind per object (this one is already `\(first.key)`)",
                                        found: "a second key \(JSONValue.quoteForMessage(members[1].key))")
        }
        return result
    }

    /// The value of `{"<kind>": <this>}`.
    private func distributionBody(kind: String, _ unit: DistributionUnit) throws(ScenarioError) -> Distribution {
        switch kind {
        case "constant":
            return .constant(try scalar(unit))
        case "uniform":
            let bounds = try elements("an array of two bounds [low, high]")
            guard bounds.count == 2 else { throw error(expected: "an array of two bounds [low, high]") }
            let low = try bounds[0].scalar(unit)
            let high = try bounds[1].scalar(unit)
            guard low <= high else {
                throw bounds[1].error(expected: "an upper bound at least the lower bound \(bounds[0].value.foundDescription)")
            }
            return .uniform(low, high)
        case "exponential":
            let p = try parameters(["mean"], of: "an exponential distribution") { (_, node) throws(ScenarioError) in
                try node.scalar(unit, positive: true)
            }
            return .exponential(mean: p[0])
        case "lognormal":
            let p = try parameters(["median", "p99"], of: "a lognormal distribution") { (_, node) throws(ScenarioError) in
                try node.scalar(unit, positive: true)
            }
            guard p[0] <= p[1] else {
                let median = member("median")?.value.foundDescription ?? "?"
                throw (member("p99") ?? self).error(expected: "a p99 at least the median (\(median))")
            }
            return .lognormal(median: p[0], p99: p[1])
        default:  // "normal"
            let p = try parameters(["mean", "sd"], of: "a normal distribution") { (name, node) throws(ScenarioError) in
                try node.scalar(unit, spread: name == "sd")
            }
            return .normal(mean: p[0], sd: p[1])
        }
    }

    /// Reads an object of exactly the keys `names` (all required), values decoded in
    /// file order by `read`; returns the values in the order of `names`.
    private func parameters(_ names: [String], of what: String,
                            read: (String, ScenarioNode) throws(ScenarioError) -> Double) throws(ScenarioError) -> [Double] {
        let keyList = names.map { "`\($0)`" }.joined(separator: " and ")
        let members = try members("an object with \(keyList) for \(what)")
        var values = [Double?](repeating: nil, count: names.count)
        for member in members {
            guard let i = names.firstIndex(of: member.key) else {
                throw member.unknownKey(among: names, context: " of \(what)")
            }
            values[i] = try read(member.key, member.node)
        }
        var result: [Double] = []
        for (i, name) in names.enumerated() {
            guard let v = values[i] else { throw missing(name, expected: "the \(keyList) of \(what)") }
            result.append(v)
        }
        return result
    }

    /// One value of a distribution: a duration (as microseconds) or a number in range.
    /// `positive` requires > 0; `spread` (a standard deviation) only requires ≥ 0.
    private func scalar(_ unit: DistributionUnit, positive: Bool = false, spread: Bool = false) throws(ScenarioError) -> Double {
        switch unit {
        case .duration:
            return Double(try duration(positive ? .positive : .nonNegative).microseconds)
        case .number(let range):
            if spread { return try number(in: 0...Double.greatestFiniteMagnitude, "a standard deviation of 0 or more") }
            if positive {
                let expected = range.upperBound == .greatestFiniteMagnitude ? "a number above 0"
                    : "a number above 0 and at most \(DistributionUnit.format(range.upperBound))"
                let x = try positiveNumber(expected)
                guard range.contains(x) else { throw error(expected: expected) }
                return x
            }
            return try number(in: range, "a number \(DistributionUnit.describe(range))")
        }
    }
}
