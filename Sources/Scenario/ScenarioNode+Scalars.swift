/// Typed reads of scalar values: strings, numbers, fractions, integers, names.
extension ScenarioNode {
    /// Any JSON string.
    public func string(_ what: String) throws(ScenarioError) -> String {
        guard case .string(let s) = value else { throw error(expected: what) }
        return s
    }

    /// A string with at least one character.
    public func nonEmptyString(_ what: String) throws(ScenarioError) -> String {
        let s = try string(what)
        guard !s.isEmpty else { throw error(expected: what, found: "an empty string") }
        return s
    }

    /// A JSON number (always finite: the parser rejects overflow).
    public func number(_ what: String) throws(ScenarioError) -> Double {
        guard case .number(let x, _) = value else { throw error(expected: what) }
        return x
    }

    /// A number `x` with `range.contains(x)`.
    public func number(in range: ClosedRange<Double>, _ what: String) throws(ScenarioError) -> Double {
        let x = try number(what)
        guard range.contains(x) else { throw error(expected: what) }
        return x
    }

    /// A number strictly greater than zero.
    public func positiveNumber(_ what: String) throws(ScenarioError) -> Double {
        let x = try number(what)
        guard x > 0 else { throw error(expected: what) }
        return x
    }

    /// A fraction: a number in [0, 1].
    public func fraction() throws(ScenarioError) -> Double {
        try number(in: 0...1, "a fraction (a number from 0 to 1)")
    }

    /// An integer in `range`. Digits-only literals are read exactly (so `9007199254740993`
    /// is not silently rounded); other spellings (`1e3`, `5.0`) must be integral and
    /// within ±2^53, where a `Double` is exact.
    public func integer(in range: ClosedRange<Int64>, _ what: String) throws(ScenarioError) -> Int64 {
        guard case .number(let x, let literal) = value else { throw error(expected: what) }
        let exact: Int64?
        if literal.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            exact = Int64(literal)
        } else if x == x.rounded(), abs(x) <= 9_007_199_254_740_992 {
            exact = Int64(x)
        } else {
            exact = nil
        }
        guard let exact, range.contains(exact) else { throw error(expected: what) }
        return exact
    }

    /// A string from `names`; a near miss suggests the closest name.
    public func name(among names: [String], _ what: String) throws(ScenarioError) -> String {
        let s = try string(what)
        guard names.contains(s) else { throw unknownName(s, among: names, what) }
        return s
    }

    /// The error for a string that is not one of `names`.
    public func unknownName(_ s: String, among names: [String], _ what: String) -> ScenarioError {
        var found = JSONValue.quoteForMessage(s)
        if let guess = KeySuggestion.closest(to: s, among: names) { found += "; did you mean `\(guess)`?" }
        return error(expected: what, found: found)
    }

    /// A string naming a case of `E`, e.g. `"overnight"` for ``ChargingHabit``.
    public func choice<E: RawRepresentable & CaseIterable>(_ type: E.Type) throws(ScenarioError) -> E where E.RawValue == String {
        let names = E.allCases.map(\.rawValue)
        let s = try name(among: names, ScenarioNode.oneOf(names))
        guard let e = E(rawValue: s) else { throw error(expected: ScenarioNode.oneOf(names)) }
        return e
    }

    /// "one of `a`, `b` or `c`", for messages.
    public static func oneOf(_ names: [String]) -> String {
        let quoted = names.map { "\"\($0)\"" }
        guard quoted.count > 1 else { return quoted.first ?? "nothing" }
        return "one of " + quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "")
    }
}
