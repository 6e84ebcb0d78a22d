/// Relative weights of the 24 hours of a local day: how a user's activity (screen
/// sessions, app opens) spreads over the day. Only ratios matter.
public struct DiurnalCurve: Sendable {
    public private(set) var weights: InlineArray<24, Double>
    /// The largest weight and the mean weight (the thinning envelope and the scale).
    public let maxWeight: Double
    public let meanWeight: Double

    /// Nil unless there are exactly 24 finite, non-negative weights with a positive sum.
    public init?(weights list: [Double]) {
        guard list.count == 24, list.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        var w = InlineArray<24, Double>(repeating: 0)
        var sum = 0.0
        var top = 0.0
        for h in 0..<24 { w[h] = list[h]; sum += list[h]; top = max(top, list[h]) }
        guard sum > 0 else { return nil }
        weights = w
        maxWeight = top
        meanWeight = sum / 24
    }

    /// The share of a day's activity that falls in local hour `hour` (0-23).
    public func share(ofHour hour: Int) -> Double { weights[hour] / (meanWeight * 24) }

    /// Activity in hour `hour` relative to the day's mean (1 is an average hour).
    public func intensity(atHour hour: Int) -> Double { weights[hour] / meanWeight }

    /// **Assumption** (no published source; overridable): a phone user's day. A night
    /// trough from 02:00 to 05:00, a rise from 06:00, a plateau through the working day
    /// and an evening peak from 19:00 to 22:00.
    public static let phoneUse = DiurnalCurve(weights: [
        0.35, 0.15, 0.08, 0.05, 0.05, 0.10, 0.40, 0.90,   // 00-07
        1.20, 1.20, 1.10, 1.10, 1.30, 1.20, 1.10, 1.10,   // 08-15
        1.20, 1.30, 1.40, 1.60, 1.70, 1.60, 1.20, 0.70,   // 16-23
    ])!

    /// Every hour alike.
    public static let flat = DiurnalCurve(weights: Array(repeating: 1, count: 24))!
}
