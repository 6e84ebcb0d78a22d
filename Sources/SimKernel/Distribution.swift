import Foundation

/// A distribution of a real value as a scenario file writes it:
/// `{"constant": X}`, `{"uniform": [A, B]}`, `{"exponential": {"mean": X}}`,
/// `{"lognormal": {"median": X, "p99": X}}`, `{"normal": {"mean": X, "sd": X}}`.
///
/// For durations the values are microseconds (see ``sampleDuration(_:)``).
public enum Distribution: Sendable, Equatable, CustomStringConvertible {
    case constant(Double)
    case uniform(Double, Double)
    case exponential(mean: Double)
    case lognormal(median: Double, p99: Double)
    case normal(mean: Double, sd: Double)

    public func sample(_ rng: inout RandomStream) -> Double {
        switch self {
        case .constant(let x): return x
        case .uniform(let a, let b): return rng.uniform(a, b)
        case .exponential(let mean): return rng.exponential(mean: mean)
        case .lognormal(let median, let p99): return rng.lognormal(median: median, p99: p99)
        case .normal(let mean, let sd): return rng.normal(mean: mean, sd: sd)
        }
    }

    /// A sample read as microseconds, rounded, never negative.
    public func sampleDuration(_ rng: inout RandomStream) -> SimDuration {
        let x = sample(&rng)
        return SimDuration(microseconds: x > 0 ? Int64(min(x, 9.0e18).rounded()) : 0)
    }

    public var description: String {
        switch self {
        case .constant(let x): return "constant(\(x))"
        case .uniform(let a, let b): return "uniform(\(a), \(b))"
        case .exponential(let mean): return "exponential(mean \(mean))"
        case .lognormal(let median, let p99): return "lognormal(median \(median), p99 \(p99))"
        case .normal(let mean, let sd): return "normal(mean \(mean), sd \(sd))"
        }
    }

}
