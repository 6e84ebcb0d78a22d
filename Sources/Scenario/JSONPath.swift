/// The location of a value in a JSON document, written as in JSONPath:
/// `$`, `$.fleet[0].battery.capacityMah`, `$.fleet[0].timeZones["America/New_York"]`.
///
/// A key that is an identifier (`[A-Za-z_][A-Za-z0-9_]*`) is written `.key`; any
/// other key is written `["key"]`, quoted and escaped, so that every path reads
/// back unambiguously.
public struct JSONPath: Sendable, Equatable, CustomStringConvertible {
    public enum Component: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }

    /// The document itself, `$`.
    public static let root = JSONPath()

    public func appending(key: String) -> JSONPath { JSONPath(components + [.key(key)]) }
    public func appending(index: Int) -> JSONPath { JSONPath(components + [.index(index)]) }

    public var description: String {
        var out = "$"
        for component in components {
            switch component {
            case .index(let i): out += "[\(i)]"
            case .key(let key):
                if JSONPath.isIdentifier(key) {
                    out += "." + key
                } else {
                    out += "[" + JSONValue.quoteForMessage(key, limit: 80) + "]"
                }
            }
        }
        return out
    }

    static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(0x30...0x39).contains(first) else { return false }
        return key.utf8.allSatisfy { b in
            (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || b == 0x5F
        }
    }
}
