/// Fixed-digit decimal text for a `Double`, computed by FleetSim's own code.
///
/// Rules (these make report output byte-identical across machines and releases):
/// - The decimal value rounded is the *exact* value of the `Double` (every finite double
///   is a dyadic rational, so it has a finite decimal expansion); it is never multiplied
///   by 10ⁿ in floating point first. Ties round half away from zero.
/// - Exactly `digits` fraction digits (0 means no decimal point); `digits` is clamped to
///   `0...1074`, enough for the exact expansion of any double.
/// - A result whose digits are all zero has no minus sign: `-0.0` and `-0.0000001` at
///   6 digits both print `0.000000`.
/// - No locale, no `String(format:)`, no grouping separators, no exponent notation.
/// - Non-finite values have no decimal text: `format` returns nil.
public enum FixedDecimal {
    /// The largest number of fraction digits honoured.
    public static let maxDigits = 1074

    /// `x` written with exactly `digits` fraction digits, or nil when `x` is NaN or infinite.
    ///
    /// - Complexity: O((digits + e)²/1000) for a value of binary exponent e: a few
    ///   microseconds for the values reports hold.
    public static func format(_ x: Double, digits: Int) -> String? {
        guard x.isFinite else { return nil }
        let fractionDigits = Swift.min(Swift.max(digits, 0), maxDigits)
        let magnitude = x.magnitude

        // magnitude == significand · 2^exponent exactly.
        var scaled: BigUnsigned
        let exponent: Int
        if magnitude.isNormal {
            scaled = BigUnsigned(magnitude.significandBitPattern | (1 << 52))
            exponent = Int(magnitude.exponent) - 52
        } else {  // zero or subnormal
            scaled = BigUnsigned(magnitude.significandBitPattern)
            exponent = -1074
        }

        // scaled = round(magnitude · 10^digits), half away from zero.
        var remaining = fractionDigits
        while remaining > 0 {
            let step = Swift.min(remaining, 9)
            scaled.multiply(by: tenPowers[step])
            remaining -= step
        }
        if exponent >= 0 {
            scaled.shiftLeft(exponent)
        } else {
            let roundsUp = scaled.bit(-exponent - 1)
            scaled.shiftRight(-exponent)
            if roundsUp { scaled.add(1) }
        }

        var text = scaled.decimalString
        let negative = x.sign == .minus && !scaled.isZero
        if fractionDigits > 0 {
            if text.count <= fractionDigits {
                text = String(repeating: "0", count: fractionDigits + 1 - text.count) + text
            }
            text.insert(".", at: text.index(text.endIndex, offsetBy: -fractionDigits))
        }
        return negative ? "-" + text : text
    }

    private static let tenPowers: [UInt32] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
    ]
}
