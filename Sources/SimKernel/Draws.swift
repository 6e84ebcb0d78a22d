import Foundation

/// FleetSim's own draw functions. Each states its algorithm, so a draw sequence is a
/// function of the seed alone and survives Swift releases.
extension RandomStream {
    /// Uniform in [0, 1) with 53 random bits: `(next() >> 11) * 2^-53`.
    @inlinable public mutating func uniform() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Uniform in [a, b).
    @inlinable public mutating func uniform(_ a: Double, _ b: Double) -> Double {
        a + (b - a) * uniform()
    }

    /// Uniform integer in `range`, unbiased (Lemire's multiply-shift with rejection).
    public mutating func int(in range: ClosedRange<Int64>) -> Int64 {
        let span = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
        if span == 0 { return Int64(bitPattern: next()) }  // the full 64-bit range
        var m = next().multipliedFullWidth(by: span)
        if m.low < span {
            let threshold = (0 &- span) % span
            while m.low < threshold { m = next().multipliedFullWidth(by: span) }
        }
        return range.lowerBound &+ Int64(bitPattern: m.high)
    }

    /// True with probability `p` (clamped to [0, 1]).
    @inlinable public mutating func chance(_ p: Double) -> Bool {
        if p <= 0 { return false }
        if p >= 1 { return true }
        return uniform() < p
    }

    /// Exponential with the given mean: `-mean * log(1 - u)`.
    @inlinable public mutating func exponential(mean: Double) -> Double {
        -mean * log(1 - uniform())
    }

    /// Standard normal by Marsaglia's polar method (needs only `log` and `sqrt`);
    /// the second value of each pair is discarded so every call consumes whole pairs.
    public mutating func standardNormal() -> Double {
        while true {
            let u = 2 * uniform() - 1
            let v = 2 * uniform() - 1
            let s = u * u + v * v
            if s > 0 && s < 1 { return u * (-2 * log(s) / s).squareRoot() }
        }
    }

    public mutating func normal(mean: Double, sd: Double) -> Double {
        mean + sd * standardNormal()
    }

    /// z of the 99th percentile of the standard normal.
    public static let z99 = 2.326_347_874_040_840_8

    /// Lognormal given its median and 99th percentile: `median * exp(sigma * z)`,
    /// `sigma = ln(p99 / median) / z99`.
    public mutating func lognormal(median: Double, p99: Double) -> Double {
        guard median > 0 else { return 0 }
        let sigma = p99 > median ? log(p99 / median) / RandomStream.z99 : 0
        return median * exp(sigma * standardNormal())
    }

    /// Offset chosen with probability proportional to the `weights` (non-negative, positive
    /// sum). Generic and inlinable, so a lazy view of weights (`options.lazy.map { $0.weight }`)
    /// draws without building an array.
    @inlinable
    public mutating func weightedChoice<Weights: Collection>(_ weights: Weights) -> Int where Weights.Element == Double {
        var total = 0.0
        for w in weights { total += w }
        var x = uniform() * total
        var i = 0
        var lastPositive = 0
        for w in weights {
            if x < w { return i }
            x -= w
            if w > 0 { lastPositive = i }
            i += 1
        }
        return lastPositive
    }

    /// Poisson count with the given mean (Knuth for small means, normal approximation above 30).
    public mutating func poisson(mean: Double) -> Int {
        guard mean > 0 else { return 0 }
        if mean > 30 { return max(0, Int(normal(mean: mean, sd: mean.squareRoot()).rounded())) }
        let limit = exp(-mean)
        var k = 0
        var p = uniform()
        while p > limit { k += 1; p *= uniform() }
        return k
    }
}
