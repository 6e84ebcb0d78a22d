/// A JSON value being decoded, with where it sits: the file and its JSON path.
///
/// Every typed read (`string()`, `fraction()`, `duration(_:)`, ...) either returns
/// the value or throws a ``ScenarioError`` that names the file, this node's path,
/// what was expected and what was found, so decoders never build messages by hand
/// for the common cases.
public struct ScenarioNode: Sendable {
    public let value: JSONValue
    public let path: JSONPath
    public let file: String

    /// An error about this value; `found` defaults to a description of the value.
    public func error(expected: String, found: String? = nil) -> ScenarioError {
        ScenarioError(file: file, path: path.description, expected: expected, found: found ?? value.foundDescription)
    }

    /// The error for a required `key` absent from this object.
    public func missing(_ key: String, expected: String) -> ScenarioError {
        ScenarioError(file: file, path: path.appending(key: key).description, expected: expected,
                      found: "nothing (the key is missing)")
    }

    // MARK: Containers

    /// One member of an object: its key and its value as a node.
    public struct Member: Sendable {
        public let key: String
        public let node: ScenarioNode
        /// The error for a key this object does not accept, suggesting the closest known key.
        public func unknownKey(among known: [String], context: String = "") -> ScenarioError {
            var found = "the unknown key \(JSONValue.quoteForMessage(key))"
            if let guess = KeySuggestion.closest(to: key, among: known) { found += "; did you mean `\(guess)`?" }
            let list = known.map { "`\($0)`" }.joined(separator: ", ")
            return node.error(expected: "one of the keys\(context): \(list)", found: found)
        }
    }

    /// The members of an object, in file order. `what` names the object for the message.
    public func members(_ what: String) throws(ScenarioError) -> [Member] {
        guard case .object(let members) = value else { throw error(expected: what) }
        return members.map { Member(key: $0.key, node: ScenarioNode(value: $0.value, path: path.appending(key: $0.key), file: file)) }
    }

    /// The elements of an array, in order. `what` names the array for the message.
    public func elements(_ what: String) throws(ScenarioError) -> [ScenarioNode] {
        guard case .array(let elements) = value else { throw error(expected: what) }
        return elements.enumerated().map { ScenarioNode(value: $0.element, path: path.appending(index: $0.offset), file: file) }
    }

    /// The value of `key` if this node is an object that has it.
    public func member(_ key: String) -> ScenarioNode? {
        value[key].map { ScenarioNode(value: $0, path: path.appending(key: key), file: file) }
    }
}
