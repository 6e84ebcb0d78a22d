extension Scenario {
    /// The same scenario with every cohort's `count` multiplied by `factor` (`--scale`):
    /// `Int((Double(count) * factor).rounded())` (half away from zero), never below 0.
    /// A factor that is not finite or not positive gives empty cohorts; counts are
    /// capped at 2^62 so the conversion can never trap (callers validate `factor`).
    public func scaled(by factor: Double) -> Scenario {
        var copy = self
        for i in copy.fleet.indices {
            let x = (Double(copy.fleet[i].count) * factor).rounded()
            if !(x > 0) {  // also NaN
                copy.fleet[i].count = 0
            } else {
                copy.fleet[i].count = x >= 0x1p62 ? 1 << 62 : Int(x)
            }
        }
        return copy
    }
}
