import Foundation
import SimKernel
import Reports

/// Reads a scenario file (docs/scenario.md) into a validated ``Scenario``.
///
/// Rules that hold everywhere:
/// - Every key has a documented default except `name`, `duration` and `fleet`
///   (and, per cohort, `cohort`, `count`, `platform`); see ``ScenarioDefaults`` and
///   the `defaults` of each configuration type.
/// - An unknown key anywhere is an error (with the closest known key suggested), so a
///   typo never silently runs the default.
/// - Keys are read in file order and the first error is reported, so a file always
///   yields the same message. Two checks run once the whole file has been read:
///   missing required keys of the top level, and fault `cohort` references.
/// - A name that exists but is not built in this version (see ``Catalog``) is an error
///   saying "not available yet in this build".
public enum ScenarioDecoder {
    /// The longest run a scenario may ask for.
    public static let maximumDuration = SimDuration.days(366)

    /// Largest scenario file read, so a wrong path such as `/dev/zero` cannot exhaust memory.
    public static let maximumFileBytes = 16 << 20

    /// Reads and decodes the file at `path`; messages name the file as `path` is written.
    /// `vocabulary`: the names the world and the logic in use know (`World.scenarioVocabulary`).
    public static func load(path: String, vocabulary: ScenarioVocabulary) throws(ScenarioError) -> Scenario {
        try decode(try readFile(path), file: path, vocabulary: vocabulary)
    }

    /// Decodes the bytes of a scenario file; `file` is how messages name it.
    public static func decode(_ bytes: [UInt8], file: String, vocabulary: ScenarioVocabulary) throws(ScenarioError) -> Scenario {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw ScenarioError(file: file, path: error.path, expected: "valid JSON: \(error.expected)",
                                found: "\(error.found) at line \(error.line), column \(error.column)")
        }
        return try decode(value, file: file, vocabulary: vocabulary)
    }

    /// Decodes an already parsed scenario document.
    public static func decode(_ value: JSONValue, file: String, vocabulary: ScenarioVocabulary) throws(ScenarioError) -> Scenario {
        let root = ScenarioNode(value: value, path: .root, file: file)
        var name: String?
        var description = ScenarioDefaults.description
        var seed = ScenarioDefaults.seed
        var start = ScenarioDefaults.startUnixSeconds
        var duration: SimDuration?
        var tieBreak = ScenarioDefaults.tieBreak
        var fleet: [Cohort]?
        var logic = LogicConfig.defaults
        var backend = BackendConfig.defaults
        var faults: [FaultDecoder.Decoded] = []
        var expect: [Expectation] = []
        var slots = SectionSlots(vocabulary.topLevelSections)
        var judgesOff: [JudgeOff] = []

        for member in try root.members("a JSON object with the scenario's keys (`name`, `duration`, `fleet`, ...)") {
            let node = member.node
            switch member.key {
            case "name": name = try decodeName(node)
            case "description": description = try node.string("a one-line description (a string)")
            case "seed": seed = UInt64(try node.integer(in: 0...(1 << 53), "a seed: an integer from 0 to 2^53 (9007199254740992)"))
            case "start": start = try decodeStart(node)
            case "duration":
                let d = try node.duration(.positive)
                // Put a limit on everything: per-second load series and device-days scale with it.
                guard d <= ScenarioDecoder.maximumDuration else {
                    throw node.error(expected: "a run of at most \(ScenarioDecoder.maximumDuration) (366 days)", found: d.description)
                }
                duration = d
            case "tieBreak": tieBreak = try decodeTieBreak(node)
            case "fleet": fleet = try FleetDecoder.decode(node, vocabulary: vocabulary)
            case "logic": logic = try LogicDecoder.decode(node, vocabulary: vocabulary)
            case "backend": backend = try BackendDecoder.decode(node, endpoints: vocabulary.endpoints)
            case "faults": faults = try FaultDecoder.decodeList(node)
            case "expect": expect = try ExpectationDecoder.decodeList(node)
            case "judges": judgesOff = try JudgesDecoder.decode(node, rules: vocabulary.judgeRules)
            default:
                guard try slots.decode(member) else { throw member.unknownKey(among: Array(topLevelKeys.dropLast()) + slots.keys + ["judges"]) }
            }
        }
        guard let name else { throw root.missing("name", expected: nameExpected) }
        guard let duration else { throw root.missing("duration", expected: "how long to simulate: " + DurationRule.positive.expected) }
        guard let fleet else { throw root.missing("fleet", expected: FleetDecoder.expected) }
        try checkLocalDates(start: start, fleet: fleet, file: file)
        try checkSkewedLocalDates(start: start, duration: duration, fleet: fleet, faults: faults.map(\.fault), file: file)
        try FaultDecoder.checkCohortReferences(faults, fleet: fleet)
        let sections = slots.sections
        try sections.check(fleet: fleet)

        var scenario = Scenario(name: name, description: description, seed: seed, startUnixSeconds: start,
                        duration: duration, tieBreak: tieBreak, fleet: fleet, logic: logic, backend: backend,
                        faults: faults.map(\.fault), expect: expect, sourcePath: file)
        scenario.sections = sections
        scenario.judgesOff = judgesOff
        scenario.contentHash = HashText.fnv1a(value.text(sortingKeys: false))
        return scenario
    }

    /// The keys of the top level, in docs/scenario.md's order; the features' sections
    /// (``ScenarioVocabulary/topLevelSections``) come before `judges` in an unknown key's message.
    static let topLevelKeys = ["name", "description", "seed", "start", "duration", "tieBreak",
                               "fleet", "logic", "backend", "faults", "expect", "judges"]

    static let nameExpected = "the scenario's name: a non-empty string of at most 100 characters, without `/`, `\\` or control characters, not `.` or `..` (it names the report folder)"

    /// `name`: non-empty, at most 100 characters, usable as one path component
    /// (`reports/<name>/`): no `/`, `\`, control characters, and not `.` or `..`.
    static func decodeName(_ node: ScenarioNode) throws(ScenarioError) -> String {
        let name = try node.nonEmptyString(nameExpected)
        let unsafe = name.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }
        guard !unsafe, name != ".", name != "..", name.count <= 100 else { throw node.error(expected: nameExpected) }
        return name
    }

    static func decodeStart(_ node: ScenarioNode) throws(ScenarioError) -> Int64 {
        let expected = "a UTC start time \"YYYY-MM-DDTHH:MM:SSZ\", e.g. \"\(ScenarioDefaults.start)\""
        guard let seconds = UTCTimestamp.parse(try node.string(expected)) else { throw node.error(expected: expected) }
        return seconds
    }

    /// Refuses a start at which a cohort's time zone (one of positive weight) still has
    /// a local date before 1970-01-01: the app's local dates are days since then, and
    /// the simulated logic and its oracle do not handle earlier ones (they reported
    /// false violations). The start is the run's earliest instant; a clock set back by a
    /// DST change within the first hour after local midnight of 1970-01-01 is not checked.
    static func checkLocalDates(start: Int64, fleet: [Cohort], file: String) throws(ScenarioError) {
        let date = Date(timeIntervalSince1970: Double(start))
        for cohort in fleet {
            for (zone, weight) in cohort.timeZones.options where weight > 0 {
                let offset = Int64(TimeZone(identifier: zone)?.secondsFromGMT(for: date) ?? 0)
                guard start + offset < 0 else { continue }
                throw ScenarioError(file: file, path: "$.start",
                                    expected: "a start at which every cohort's local date is 1970-01-01 or later (FleetSim's local calendar begins there)",
                                    found: "\"\(UTCTimestamp.format(start))\", when it is still 1969 in \(zone) (cohort '\(cohort.name)')")
            }
        }
    }

    static func decodeTieBreak(_ node: ScenarioNode) throws(ScenarioError) -> TieBreakMode {
        let names = ["fifo", "shuffle"]
        let expected = ScenarioNode.oneOf(names)
        guard let mode = TieBreakMode(rawValue: try node.name(among: names, expected)) else { throw node.error(expected: expected) }
        return mode
    }

    /// The bytes of the file at `path`, at most ``maximumFileBytes``.
    static func readFile(_ path: String) throws(ScenarioError) -> [UInt8] {
        func unreadable(_ why: String) -> ScenarioError {
            ScenarioError(file: path, path: "$", expected: "a readable scenario file", found: why)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw unreadable("nothing (no such file)")
        }
        guard !isDirectory.boolValue else { throw unreadable("a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw unreadable("a file that cannot be opened (permissions?)") }
        defer { try? handle.close() }
        let data: Data?
        do {
            data = try handle.read(upToCount: maximumFileBytes + 1)
        } catch {
            throw unreadable("a read error (\(error.localizedDescription))")
        }
        let bytes = [UInt8](data ?? Data())
        guard bytes.count <= maximumFileBytes else { throw unreadable("a file larger than \(maximumFileBytes >> 20) MiB") }
        return bytes
    }
}

extension ScenarioNode {
    /// The error for a name that exists but is not built in this version.
    func notAvailableYet(_ name: String, expected: String) -> ScenarioError {
        error(expected: expected, found: "\(JSONValue.quoteForMessage(name)) (not available yet in this build)")
    }
}
