/// A JSON document as a report holds it: the model behind `report.json`, written by
/// ``JSONWriter``.
///
/// Rules:
/// - Numbers carry their own number of fraction digits (`.number(x, digits:)`), so the
///   text is fixed by the value, never by a locale or a platform's float printing.
///   Times are seconds with 6 digits (microsecond precision): use ``seconds(_:)-swift.type.method``.
/// - Integers that are counts stay integers (`.int`).
/// - Objects are dictionaries; their order never matters because ``JSONWriter`` sorts
///   keys by Unicode scalar values.
/// - Equality is structural; `.number` compares the `Double`s with `==` (so `NaN` is
///   unequal to itself) and the digits. A packed list (`.integers`, `.numbers`) equals
///   the `.array` of the same elements: packing is how a report holds a series, not
///   part of its value.
public enum ReportValue: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case number(Double, digits: Int)
    case string(String)
    case array([ReportValue])
    case object([String: ReportValue])
    /// A list of `.int`s held packed: a series over time (a 1,000-phone week's report
    /// holds 82 series of 10,080 minutes), without an enum to build, write and free per
    /// element. Read, written and compared as the `.array` of its `.int`s.
    case integers([Int64])
    /// A list of `.number(x, digits:)`s of one `digits`, held packed as ``integers(_:)`` is.
    case numbers([Double], digits: Int)
}

extension ReportValue: Equatable {
    public static func == (a: ReportValue, b: ReportValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.number(let x, let d), .number(let y, let e)): return x == y && d == e
        case (.string(let x), .string(let y)): return x == y
        case (.object(let x), .object(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.integers(let x), .integers(let y)): return x == y
        case (.numbers(let x, let d), .numbers(let y, let e)): return d == e && x.elementsEqual(y)
        case (.array, .integers), (.array, .numbers), (.integers, .array), (.numbers, .array),
             (.integers, .numbers), (.numbers, .integers):
            return a.arrayValue! == b.arrayValue!
        default: return false
        }
    }
}

// MARK: - Builders

extension ReportValue {
    /// A duration given in microseconds, as seconds with 6 fraction digits.
    ///
    /// The text is the exact microsecond count for durations under 142 years
    /// (|µs| < 2⁵²); beyond that the `Double` division may be off by one in the last
    /// digit.
    /// - Complexity: O(1).
    public static func seconds(_ microseconds: Int64) -> ReportValue {
        .number(Double(microseconds) / 1_000_000, digits: 6)
    }

    /// ``seconds(_:)-swift.type.method`` of a value that may be missing (an empty
    /// histogram's percentile): `.null` when nil.
    /// - Complexity: O(1).
    public static func seconds(_ microseconds: Int64?) -> ReportValue {
        microseconds.map { .seconds($0) } ?? .null
    }

    /// `x` with exactly `digits` fraction digits.
    /// - Complexity: O(1).
    public static func fixed(_ x: Double, _ digits: Int) -> ReportValue {
        .number(x, digits: digits)
    }

    /// An integer count (clamped into `Int64`).
    /// - Complexity: O(1).
    public static func count<T: BinaryInteger>(_ n: T) -> ReportValue {
        .int(Int64(clamping: n))
    }
}

// MARK: - Accessors

extension ReportValue {
    /// The integer of an `.int`, else nil.
    public var intValue: Int64? {
        if case .int(let i) = self { return i }
        return nil
    }

    /// The numeric value of an `.int` or a `.number`, else nil.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .number(let x, _): return x
        default: return nil
        }
    }

    /// The text of a `.string`, else nil.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The flag of a `.bool`, else nil.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The elements of an `.array` or a packed list, else nil.
    public var arrayValue: [ReportValue]? {
        switch self {
        case .array(let items): return items
        case .integers(let xs): return xs.map { .int($0) }
        case .numbers(let xs, let digits): return xs.map { .number($0, digits: digits) }
        default: return nil
        }
    }

    /// The numeric value of each element of a list (0 where an element is not a
    /// number), else nil: a series read without building an element per value.
    public var doublesValue: [Double]? {
        switch self {
        case .array(let items): return items.map { $0.doubleValue ?? 0 }
        case .integers(let xs): return xs.map { Double($0) }
        case .numbers(let xs, _): return xs
        default: return nil
        }
    }

    /// The integer of each element of a list (0 where an element is not an `.int`),
    /// else nil: a series of counts read without building an element per value.
    public var integersValue: [Int64]? {
        switch self {
        case .array(let items): return items.map { $0.intValue ?? 0 }
        case .integers(let xs): return xs
        case .numbers(let xs, _): return [Int64](repeating: 0, count: xs.count)
        default: return nil
        }
    }

    /// The number of elements of an `.array` or a packed list, else nil.
    public var arrayCount: Int? {
        switch self {
        case .array(let items): return items.count
        case .integers(let xs): return xs.count
        case .numbers(let xs, _): return xs.count
        default: return nil
        }
    }

    /// The members of an `.object`, else nil.
    public var objectValue: [String: ReportValue]? {
        if case .object(let members) = self { return members }
        return nil
    }
}

// MARK: - Dotted paths

extension ReportValue {
    /// The value at a dotted path such as `latency.testAvailableToNotified.p95`, or nil.
    ///
    /// Keys may themselves contain dots (`latency` holds a key
    /// `createdToDelivered.high`), so at each object the longest key that is a
    /// dot-delimited prefix of the remaining path is tried first, then shorter ones
    /// (backtracking if the rest does not resolve). In an array, a component of ASCII
    /// digits is an index (`invariants.samples.0.kind`). The empty path is `self`.
    /// - Complexity: O(d · k) dictionary look-ups for a path of d dots over k levels,
    ///   worst case O(d²); path lengths in reports are tiny.
    public func lookup(_ dottedPath: String) -> ReportValue? {
        dottedPath.isEmpty ? self : resolve(dottedPath[...])
    }

    private func resolve(_ path: Substring) -> ReportValue? {
        switch self {
        case .object(let members):
            var end = path.endIndex
            while true {
                if let child = members[String(path[..<end])] {
                    if end == path.endIndex { return child }
                    if let found = child.resolve(path[path.index(after: end)...]) { return found }
                }
                guard let dot = path[..<end].lastIndex(of: ".") else { return nil }
                end = dot
            }
        case .array(let items):
            let dot = path.firstIndex(of: ".")
            guard let index = Self.index(path[..<(dot ?? path.endIndex)], count: items.count) else { return nil }
            guard let dot else { return items[index] }
            return items[index].resolve(path[path.index(after: dot)...])
        // A packed element is a number: an index is the whole rest of the path.
        case .integers(let xs):
            return Self.index(path, count: xs.count).map { .int(xs[$0]) }
        case .numbers(let xs, let digits):
            return Self.index(path, count: xs.count).map { .number(xs[$0], digits: digits) }
        default:
            return nil
        }
    }

    /// A path component of ASCII digits that indexes a list of `count` elements.
    private static func index(_ component: Substring, count: Int) -> Int? {
        guard !component.isEmpty, component.utf8.count <= 18,
              component.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let index = Int(component), index < count
        else { return nil }
        return index
    }
}

// MARK: - Literals

extension ReportValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: ReportValue...) { self = .array(elements) }
    /// A repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, ReportValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
