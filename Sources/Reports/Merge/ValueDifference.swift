/// Where two report values differ, numbers compared by value: a report re-serialised
/// by another tool writes `21600.0` or `21600` for `21600.000000`, and it is the same
/// configuration (docs/scale.md, "What merge refuses").
public enum ValueDifference {
    /// The first place (in key order) where `a` and `b` differ, the path relative to
    /// them (`[0]`, `start`), or nil when they are equal by value.
    public static func first(_ a: ReportValue?, _ b: ReportValue?, at path: [String] = []) -> (path: [String], a: ReportValue?, b: ReportValue?)? {
        switch (a, b) {
        case (nil, nil): return nil
        case (let x?, let y?):
            if let u = number(x), let v = number(y) { return u == v ? nil : (path, a, b) }
            if let xs = x.arrayValue, let ys = y.arrayValue {
                for i in 0..<min(xs.count, ys.count) {
                    if let d = first(xs[i], ys[i], at: path + ["[\(i)]"]) { return d }
                }
                return xs.count == ys.count ? nil : (path, a, b)
            }
            switch (x, y) {
            case (.object(let xs), .object(let ys)):
                for key in Set(xs.keys).union(ys.keys).sorted() {
                    if let d = first(xs[key], ys[key], at: path + [key]) { return d }
                }
                return nil
            default: return x == y ? nil : (path, a, b)
            }
        default: return (path, a, b)
        }
    }

    /// A number's value: an integer and a fraction of the same value are equal.
    static func number(_ v: ReportValue) -> Double? {
        switch v {
        case .int(let n): return Double(n)
        case .number(let x, _): return x
        default: return nil
        }
    }
}
