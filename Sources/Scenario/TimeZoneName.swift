import Foundation

/// Time zone names: any name `Foundation.TimeZone(identifier:)` accepts (IANA names such
/// as `"America/New_York"`, plus the abbreviations and `GMT+hh` forms it knows).
///
/// Names are first screened (1-64 characters from `A-Z a-z 0-9 / _ - + :`), so odd
/// bytes never reach the system's time zone database. The name is kept as written.
enum TimeZoneName {
    static func isValid(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 64 else { return false }
        let screened = name.utf8.allSatisfy { b in
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "_"),
                 UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: ":"):
                return true
            default:
                return false
            }
        }
        return screened && TimeZone(identifier: name) != nil
    }

    static let expected = "an IANA time zone name such as \"America/New_York\", \"Europe/Berlin\" or \"UTC\""

    /// The error for an unknown name, suggesting the closest known identifier.
    static func unknown(_ name: String, at node: ScenarioNode, found prefix: String = "") -> ScenarioError {
        var found = prefix + JSONValue.quoteForMessage(name)
        if let guess = KeySuggestion.closest(to: name, among: TimeZone.knownTimeZoneIdentifiers.sorted()) {
            found += "; did you mean `\(guess)`?"
        }
        return node.error(expected: expected, found: found)
    }
}
