/// Numbers as a person reads them: durations in the unit that fits (`253 ms`,
/// `12 min`, `76.0 h`), energy with its unit, counts with thousands separators.
///
/// For what people read (report.md, report.html, the console, replay). `report.json`
/// keeps raw seconds with fixed digits: its keys and units are a promise to machines.
/// Every figure goes through ``FixedDecimal``, so the text is the same on every machine.
public enum HumanUnits {
    /// A span of time in the largest unit that keeps it readable.
    ///
    /// Under 1 ms: `µs`; under 1 s: `ms`; under 1 min: seconds with one decimal under
    /// 10 s (`4.2 s`), whole above (`42 s`); under 1 h: minutes likewise (`4.5 min`,
    /// `12 min`); under 100 h: hours with one decimal (`76.0 h`); beyond: days (`8.3 d`).
    /// Negative spans keep their sign (`-2.0 h`).
    public static func duration(seconds: Double) -> String {
        guard seconds.isFinite else { return "n/a" }
        let sign = seconds < 0 ? "-" : ""
        let s = seconds.magnitude
        switch s {
        case 0: return "0 s"
        case ..<0.001: return sign + fixed(s * 1_000_000, 0) + " µs"
        case ..<1: return sign + fixed(s * 1_000, 0) + " ms"
        case ..<60: return sign + fixed(s, s < 10 ? 1 : 0) + " s"
        case ..<3_600: return sign + fixed(s / 60, s < 600 ? 1 : 0) + " min"
        case ..<360_000: return sign + fixed(s / 3_600, 1) + " h"
        default: return sign + fixed(s / 86_400, 1) + " d"
        }
    }

    /// A duration given in microseconds (the simulator's unit), as ``duration(seconds:)``.
    public static func duration(microseconds: Int64) -> String {
        duration(seconds: Double(microseconds) / 1_000_000)
    }

    /// Charge drawn from a battery: `0.92 mAh` (two significant decimals under 10, one above).
    public static func energy(mAh: Double) -> String {
        guard mAh.isFinite else { return "n/a" }
        return fixed(mAh, mAh.magnitude < 10 ? 2 : 1) + " mAh"
    }

    /// A share written as a percentage: `0.0312` → `3.12 %`.
    public static func percent(fraction: Double, digits: Int = 2) -> String {
        guard fraction.isFinite else { return "n/a" }
        return fixed(fraction * 100, digits) + " %"
    }

    /// A rate per second: `1,046 req/s` at or above 100, `0.77 req/s` below (and from
    /// 9·10¹⁵ on, beyond `Int64`'s exact range).
    public static func rate(perSecond: Double, unit: String = "req/s") -> String {
        guard perSecond.isFinite else { return "n/a" }
        let text = perSecond >= 100 && perSecond < 9e15 ? count(Int64(perSecond.rounded())) : fixed(perSecond, 2)
        return text + " " + unit
    }

    /// A whole count with thousands separators: `688,275`.
    public static func count<I: BinaryInteger>(_ n: I) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }

    private static func fixed(_ x: Double, _ digits: Int) -> String {
        FixedDecimal.format(x, digits: digits) ?? "n/a"
    }
}
