/// A section of a scenario file that a feature declares (docs/architecture.md, "Where
/// each kind of change goes"): a key at the top level, under `logic` or under a cohort,
/// its decoder and its defaults, declared in the feature's folder and handed to ``ScenarioDecoder`` through
/// ``ScenarioVocabulary``, so that Scenario names no feature's keys.
///
/// A decoder reads `node` with the node's typed reads, which throw a ``ScenarioError``
/// naming the file and the JSON path; an unknown key inside the section is its own to
/// refuse (``ScenarioNode/Member/unknownKey(among:context:)``).
public protocol ScenarioSection: Sendable, Equatable {
    /// The value of a scenario that leaves the section out.
    static var defaults: Self { get }
    /// The section read from its JSON value.
    static func decode(_ node: ScenarioNode) throws(ScenarioError) -> Self
    /// Checks the section against the fleet once the whole file is read (a cohort it
    /// names must be one of the fleet's), after the faults' references; nothing by default.
    func check(fleet: [Cohort]) throws(ScenarioError)
}

extension ScenarioSection {
    public func check(fleet: [Cohort]) throws(ScenarioError) {}
}

/// A section a world declares: the key it sits under and its type.
public struct ScenarioSectionKey: Sendable {
    public let key: String
    let type: any ScenarioSection.Type

    public init<S: ScenarioSection>(_ key: String, _ type: S.Type) {
        self.key = key
        self.type = type
    }

    func decode(_ node: ScenarioNode) throws(ScenarioError) -> any ScenarioSection {
        try type.decode(node)
    }
}

/// The decoded sections of one place of a scenario (the top level, `logic`, a cohort), in
/// the order the world declares them, read by type: `sections[SomeConfig.self]`, the type's
/// ``ScenarioSection/defaults`` when the file left it out. A lookup searches and casts:
/// code that reads a section per event keeps a copy made when the world is built.
public struct ScenarioSections: Sendable, Equatable {
    /// At most one value per type; the decoder appends them in declaration order.
    private var values: [any ScenarioSection] = []

    public init() {}

    public subscript<S: ScenarioSection>(_ type: S.Type) -> S {
        get {
            for value in values { if let section = value as? S { return section } }
            return S.defaults
        }
        set {
            if let i = values.firstIndex(where: { $0 is S }) { values[i] = newValue } else { values.append(newValue) }
        }
    }

    /// The sections in `decoded` (one slot per declared section, nil where the file
    /// has none), in that order.
    init(_ decoded: [(any ScenarioSection)?]) {
        values = decoded.compactMap { $0 }
    }

    /// Runs each section's ``ScenarioSection/check(fleet:)``, in order.
    func check(fleet: [Cohort]) throws(ScenarioError) {
        for value in values { try value.check(fleet: fleet) }
    }

    /// Equal when every section either holds reads the same in the other (an absent
    /// section reads as its defaults).
    public static func == (a: ScenarioSections, b: ScenarioSections) -> Bool {
        a.values.allSatisfy { $0.reads(in: b) } && b.values.allSatisfy { $0.reads(in: a) }
    }
}

extension ScenarioSection {
    fileprivate func reads(in sections: ScenarioSections) -> Bool { self == sections[Self.self] }
}

/// The sections a place of the file opens, one slot per declared section, filled as
/// the place's members are read (in file order), kept in declaration order.
struct SectionSlots {
    let declared: [ScenarioSectionKey]
    private var decoded: [(any ScenarioSection)?]

    init(_ declared: [ScenarioSectionKey]) {
        self.declared = declared
        decoded = Array(repeating: nil, count: declared.count)
    }

    /// Decodes `member` when it is a declared key; false when it is none.
    mutating func decode(_ member: ScenarioNode.Member) throws(ScenarioError) -> Bool {
        guard let i = declared.firstIndex(where: { $0.key == member.key }) else { return false }
        decoded[i] = try declared[i].decode(member.node)
        return true
    }

    var sections: ScenarioSections { ScenarioSections(decoded) }
    var keys: [String] { declared.map(\.key) }
}
