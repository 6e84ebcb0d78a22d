extension Scenario {
    /// The same scenario with every cohort's `count` multiplied by `factor` (`--scale`):
    /// `Int((Double(count) * factor).rounded())` (half away from zero), never below 0.
    /// A factor that is not finite or not positive gives empty cohorts; counts are
    /// capped at 2^62 so the conversion can never trap (callers validate `factor`).
    /// ``Scenario/scale`` records the product of the factors applied.
    public func scaled(by factor: Double) -> Scenario {
        var copy = self
        copy.scale *= factor
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

extension Scenario {
    /// The cohorts that have devices in the file but none after ``scaled(by:)`` with
    /// `factor` (same rounding), in file order: `--scale` must not empty a cohort the
    /// user asked for, or the run would silently leave it out.
    public func cohortsEmptied(by factor: Double) -> [Cohort] {
        zip(fleet, scaled(by: factor).fleet).filter { $0.count > 0 && $1.count == 0 }.map(\.0)
    }
}
