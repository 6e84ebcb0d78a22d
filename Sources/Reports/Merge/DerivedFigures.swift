/// The figures of `report.json` that are derived from other keys (rates, per-device-day
/// and per-second figures, headroom): one formula each, used by the run that writes the
/// report and by `fleetsim merge`, which derives them again from the merged counts. So
/// a merged figure is the one-world run's byte for byte whenever its counts are.
public enum DerivedFigures {
    /// `a / b` at 4 digits (`push.deliveryRate`, `failureRate`, `openRate`); `null` when
    /// `b` is 0.
    public static func ratio(_ a: Int64, _ b: Int64) -> ReportValue {
        b > 0 ? .fixed(Double(a) / Double(b), 4) : .null
    }

    /// The run's length in days (never 0): the denominator of per-device-day figures.
    public static func days(durationSeconds: Double) -> Double {
        Swift.max(durationSeconds / 86_400, 1e-9)
    }

    /// `count` per device and day at 3 digits (`scheduling.launchesPerDeviceDay.*`).
    public static func perDeviceDay(_ count: Int64, devices: Int64, durationSeconds: Double) -> ReportValue {
        .fixed(Double(count) / Double(devices) / days(durationSeconds: durationSeconds), 3)
    }

    /// Requests per second over the whole run at 4 digits (`backend.requestsPerSecond.mean`).
    public static func meanRate(_ count: Int64, durationSeconds: Double) -> ReportValue {
        .fixed(Double(count) / Swift.max(durationSeconds, 1e-9), 4)
    }

    /// A bucket's count as a per-second rate at 3 digits (`backend.load.*PerSecond`,
    /// `backend.requestsPerSecond.peak`).
    public static func bucketRate(_ count: Int64, bucketSeconds: Double) -> ReportValue {
        .fixed(Double(count) / bucketSeconds, 3)
    }

    /// `1 − busy / capacity` at 4 digits (a capacity of 0 counts as 1).
    public static func headroom(busy: Int64, capacity: Int64) -> ReportValue {
        .fixed(1 - Double(busy) / Double(Swift.max(capacity, 1)), 4)
    }

    /// Expired tokens per active token and week at 5 digits
    /// (`push.tokens.expirationRatePerWeek`); `null` without active tokens.
    public static func expirationRatePerWeek(expired: Int64, active: Int64, durationSeconds: Double) -> ReportValue {
        let weeks = Swift.max(durationSeconds / (7 * 86_400), 1e-9)
        return active > 0 ? .fixed(Double(expired) / Double(active) / weeks, 5) : .null
    }
}
