import Testing
import Scenario

/// The features' sections of a scenario (``ScenarioSection``), with sections of the
/// tests' own: a world declares its keys at the top level, under `logic` and under a
/// cohort, and the decoder reads them by those declarations alone.
@Suite struct ScenarioSectionTests {
    /// A section with two keys, a bounded level and a note.
    struct Probe: ScenarioSection {
        var level: Int
        var note: String
        static let defaults = Probe(level: 1, note: "")

        static func decode(_ node: ScenarioNode) throws(ScenarioError) -> Probe {
            var probe = Probe.defaults
            for member in try node.members("a probe object, e.g. {\"level\": 2}") {
                switch member.key {
                case "level": probe.level = Int(try member.node.integer(in: 0...9, "a level from 0 to 9"))
                case "note": probe.note = try member.node.string("a note (a string)")
                default: throw member.unknownKey(among: ["level", "note"])
                }
            }
            return probe
        }
    }

    /// A section that is a bare count, checked against the fleet: at most one per cohort.
    struct Tally: ScenarioSection {
        var count: Int
        var node: ScenarioNode?
        static let defaults = Tally(count: 0)

        init(count: Int, node: ScenarioNode? = nil) {
            self.count = count
            self.node = node
        }

        static func decode(_ node: ScenarioNode) throws(ScenarioError) -> Tally {
            Tally(count: Int(try node.integer(in: 0...100, "a count from 0 to 100")), node: node)
        }

        func check(fleet: [Cohort]) throws(ScenarioError) {
            guard let node, count > fleet.count else { return }
            throw node.error(expected: "at most one per cohort (\(fleet.count))")
        }

        static func == (a: Tally, b: Tally) -> Bool { a.count == b.count }
    }

    static let vocabulary = ScenarioVocabulary(
        features: [], variants: ["probe.broken"],
        logicSections: [ScenarioSectionKey("probe", Probe.self), ScenarioSectionKey("tally", Tally.self)],
        cohortSections: [ScenarioSectionKey("probe", Probe.self)],
        topLevelSections: [ScenarioSectionKey("tally", Tally.self)])

    static func text(top: String = "", logic: String = "", cohort: String = "") -> String {
        let t = top.isEmpty ? "" : ", " + top
        let c = cohort.isEmpty ? "" : ", " + cohort
        return "{\"name\": \"t\", \"duration\": \"1d\"\(t), \"logic\": {\(logic)}, \"fleet\": [{\"cohort\": \"a\", \"count\": 1, \"platform\": \"ios\"\(c)}]}"
    }

    static func decode(_ text: String) throws(ScenarioError) -> Scenario {
        try ScenarioDecoder.decode(Array(text.utf8), file: "s.json", vocabulary: vocabulary)
    }

    static func rejection(_ text: String) -> ScenarioError? {
        do {
            _ = try decode(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func anAbsentSectionReadsAsItsDefaults() throws {
        let s = try Self.decode(Self.text())
        #expect(s.logic[Probe.self] == .defaults && s.logic[Tally.self] == .defaults)
        #expect(s.fleet[0][Probe.self] == .defaults && s[Tally.self] == .defaults)
        // Written out as its defaults, the section is the same.
        #expect(try Self.decode(Self.text(logic: #""probe": {}, "tally": 0"#)).logic == s.logic)
        #expect(try Self.decode(Self.text(logic: #""probe": {"level": 2}"#)).logic != s.logic)
    }

    @Test func eachPlaceReadsItsOwnSectionByType() throws {
        let s = try Self.decode(Self.text(top: #""tally": 1"#, logic: #""tally": 7, "probe": {"level": 3, "note": "x"}, "variants": ["probe.broken"]"#,
                                          cohort: #""probe": {"note": "c"}"#))
        #expect(s.logic[Probe.self] == Probe(level: 3, note: "x") && s.logic[Tally.self].count == 7)
        #expect(s.logic.variants == ["probe.broken"])
        #expect(s.fleet[0][Probe.self] == Probe(level: 1, note: "c"))
        #expect(s[Tally.self].count == 1 && s[Probe.self] == .defaults)
    }

    /// The same sections in another file order are the same scenario: what is kept is
    /// in declaration order, never the file's.
    @Test func fileOrderDoesNotMatter() throws {
        let a = try Self.decode(Self.text(logic: #""tally": 2, "probe": {"level": 5}"#))
        let b = try Self.decode(Self.text(logic: #""probe": {"level": 5}, "tally": 2"#))
        #expect(a.logic == b.logic)
        var written = a.logic
        written[Tally.self] = Tally(count: 3)
        #expect(written != a.logic && written[Tally.self].count == 3 && written[Probe.self].level == 5)
    }

    /// An unknown key is refused with the world's keys, in the place's order: the
    /// sections after a place's own keys, before its last (`variants`, `energy`, `judges`).
    @Test func anUnknownKeyListsTheWorldsKeys() throws {
        let logic = try #require(Self.rejection(Self.text(logic: #""prob": {}"#)))
        #expect(logic.path == "$.logic.prob")
        #expect(logic.expected == "one of the keys: `probe`, `tally`, `variants`")
        #expect(logic.found == "the unknown key \"prob\"; did you mean `probe`?")
        let cohort = try #require(Self.rejection(Self.text(cohort: #""tally": 1"#)))
        #expect(cohort.path == "$.fleet[0].tally")
        #expect(cohort.expected.hasSuffix("`ios`, `android`, `probe`, `energy`"), "\(cohort.expected)")
        let top = try #require(Self.rejection(Self.text(top: #""probe": {}"#)))
        #expect(top.path == "$.probe")
        #expect(top.expected.hasSuffix("`faults`, `expect`, `tally`, `judges`"), "\(top.expected)")
        // A world that declares none knows none of them.
        #expect(throws: ScenarioError.self) {
            try ScenarioDecoder.decode(Array(Self.text(logic: #""probe": {}"#).utf8), file: "s.json",
                                       vocabulary: ScenarioVocabulary(features: [], variants: []))
        }
    }

    @Test func aSectionsErrorsNameTheFileAndThePath() throws {
        let level = try #require(Self.rejection(Self.text(logic: #""probe": {"level": 12}"#)))
        #expect(level.description == "s.json: $.logic.probe.level: expected a level from 0 to 9, found a number 12")
        let note = try #require(Self.rejection(Self.text(cohort: #""probe": {"note": 3}"#)))
        #expect(note.file == "s.json" && note.path == "$.fleet[0].probe.note" && note.expected == "a note (a string)")
        let key = try #require(Self.rejection(Self.text(cohort: #""probe": {"levl": 1}"#)))
        #expect(key.path == "$.fleet[0].probe.levl" && key.expected == "one of the keys: `level`, `note`")
    }

    /// A section's check against the fleet runs once the file is read, so a section
    /// written before `fleet` is checked against it.
    @Test func aSectionIsCheckedAgainstTheFleet() throws {
        let early = "{\"name\": \"t\", \"duration\": \"1d\", \"tally\": 2, \"fleet\": [{\"cohort\": \"a\", \"count\": 1, \"platform\": \"ios\"}]}"
        let error = try #require(Self.rejection(early))
        #expect(error.path == "$.tally" && error.expected == "at most one per cohort (1)")
        #expect(try Self.decode(Self.text(top: #""tally": 1"#))[Tally.self].count == 1)
    }
}
