import SimKernel

/// Which durations a field accepts. Durations are strings with a unit
/// (`SimDuration.parse`: `"250ms"`, `"30s"`, `"15m"`, `"4h"`, `"7d"`, `"1.5h"`, `"100us"`).
public enum DurationRule {
    /// More than zero: run length, intervals, time limits.
    case positive
    /// Zero or more: every other duration.
    case nonNegative
    /// Any sign: only `clockSkew.offset`.
    case signed

    var expected: String {
        switch self {
        case .positive: return "a positive duration with a unit, e.g. \"30s\", \"15m\", \"4h\" (units us, ms, s, m, h, d)"
        case .nonNegative: return "a duration of zero or more with a unit, e.g. \"0s\", \"15m\", \"4h\" (units us, ms, s, m, h, d)"
        case .signed: return "a duration with a unit, e.g. \"-90m\" or \"2h\" (units us, ms, s, m, h, d)"
        }
    }
}

extension ScenarioNode {
    /// A duration string obeying `rule`.
    public func duration(_ rule: DurationRule) throws(ScenarioError) -> SimDuration {
        try duration(rule, expected: rule.expected)
    }

    public func duration(_ rule: DurationRule, expected: String) throws(ScenarioError) -> SimDuration {
        switch value {
        case .string(let text):
            guard let d = SimDuration.parse(text) else { throw error(expected: expected) }
            switch rule {
            case .positive where d.microseconds == 0:
                throw error(expected: expected, found: "\(value.foundDescription) (zero)")
            case .positive where d.microseconds < 0, .nonNegative where d.microseconds < 0:
                throw error(expected: expected, found: "\(value.foundDescription) (negative)")
            default:
                return d
            }
        case .number:
            throw error(expected: expected, found: "\(value.foundDescription) (a duration needs a unit, e.g. \"30s\")")
        default:
            throw error(expected: expected)
        }
    }
}
