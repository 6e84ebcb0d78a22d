import SimKernel

/// `faults`: an array of fault objects (docs/scenario.md, "Fault kinds").
///
/// Rules:
/// - `kind` names one of ``Catalog/faultKinds`` and is read first, because it decides
///   which other keys the object may have; a kind not built yet is "not available yet".
/// - `at` (required): a duration ≥ 0 from the start of the run.
/// - `duration`: > 0; required for the kinds that span time (``spanningKinds``); optional for
///   `appTermination` (absent: until the end of the run) and for `clockSkew` and
///   `timeZoneChange` (absent: from `at` on; present: undone at the end); not allowed
///   for the instant `authExpiry`.
/// - `cohort`: names a cohort of the fleet (checked once the whole file is read);
///   `fraction`: a fraction, default 1.
/// - Each kind's own keys are required: `backendSlowdown.factor` (> 0),
///   `networkLatency.extra` (a distribution of durations), `pushProviderErrors.provider`
///   (`"apns"`/`"fcm"`), `.status` (400, 410, 429, 500, 503), `.rate` (a fraction),
///   `pushProviderOutage.provider`, `clockSkew.offset` (a signed duration),
///   `timeZoneChange.to` (a time zone name), `appTermination.rate` (≥ 0 per device-day).
///   Another kind's keys are unknown keys.
enum FaultDecoder {
    /// A decoded fault and where its `cohort` reference is, for the check against the fleet.
    struct Decoded {
        var fault: Fault
        var cohortNode: ScenarioNode?
    }

    static let commonKeys = ["kind", "at", "duration", "cohort", "fraction"]

    /// Kinds whose `duration` is required.
    /// Faults of the backend as a whole: they take no `cohort` or `fraction`.
    static let serverWideKinds: Set<String> = ["backendOutage", "backendSlowdown"]

    static let spanningKinds: Set<String> = ["backendOutage", "backendSlowdown", "networkOutage", "networkLatency",
                                             "pushProviderErrors", "pushProviderOutage", "lowPowerMode"]

    /// Each kind's own keys, in the order they are reported missing.
    static func ownKeys(of kind: String) -> [String] {
        switch kind {
        case "backendSlowdown": return ["factor"]
        case "networkLatency": return ["extra"]
        case "pushProviderErrors": return ["provider", "status", "rate"]
        case "pushProviderOutage": return ["provider"]
        case "clockSkew": return ["offset"]
        case "timeZoneChange": return ["to"]
        case "appTermination": return ["rate"]
        default: return []
        }
    }

    static let providers = ["apns", "fcm"]
    static let statuses: [Int64] = [400, 410, 429, 500, 503]
    static let expected = "an array of faults, e.g. [{\"kind\": \"backendOutage\", \"at\": \"2d\", \"duration\": \"3h\"}]"

    /// Put a limit on everything: a scenario has at most this many faults.
    static let maximumFaults = 1_000
    /// Rates per device-day above this (one a minute) are not a fault but a mistake.
    static let maximumRatePerDay = 1_440.0

    static func decodeList(_ node: ScenarioNode) throws(ScenarioError) -> [Decoded] {
        var result: [Decoded] = []
        let elements = try node.elements(expected)
        guard elements.count <= maximumFaults else {
            throw node.error(expected: "at most \(maximumFaults) faults", found: "\(elements.count) faults")
        }
        for element in elements {
            result.append(try decode(element))
        }
        return result
    }

    /// The values of a kind's own keys, as read.
    private struct OwnValues {
        var factor: Double?
        var extra: Distribution?
        var provider: String?
        var status: Int?
        var rate: Double?
        var offset: SimDuration?
        var to: String?
    }

    static func decode(_ node: ScenarioNode) throws(ScenarioError) -> Decoded {
        let members = try node.members("a fault object, e.g. {\"kind\": \"backendOutage\", \"at\": \"2d\", \"duration\": \"3h\"}")
        let kind = try readKind(node, members: members)
        let own = ownKeys(of: kind)
        var at: SimDuration?
        var duration: SimDuration?
        var cohortNode: ScenarioNode?
        var fraction = ScenarioDefaults.faultFraction
        var values = OwnValues()
        for member in members {
            let child = member.node
            switch member.key {
            case "kind": continue
            case "at": at = try child.duration(.nonNegative, expected: "when the fault starts: " + DurationRule.nonNegative.expected)
            case "duration":
                // An instant fault has nothing to undo: a duration there would be silently ignored.
                if kind == "authExpiry" { throw member.unknownKey(among: commonKeys.filter { $0 != "duration" } + own, context: " of an `authExpiry` fault (it is instant)") }
                duration = try child.duration(.positive, expected: "how long the fault lasts: " + DurationRule.positive.expected)
            case "cohort" where serverWideKinds.contains(kind), "fraction" where serverWideKinds.contains(kind):
                // The backend is one server: narrowing it to devices would be silently ignored.
                throw member.unknownKey(among: commonKeys.filter { $0 != "cohort" && $0 != "fraction" } + own,
                                        context: " of a `\(kind)` fault (it affects the whole backend)")
            case "cohort":
                _ = try child.nonEmptyString("the name of a cohort of the fleet")
                cohortNode = child
            case "fraction": fraction = try child.fraction()
            case let key where own.contains(key): try readOwnKey(key, kind: kind, child, into: &values)
            default: throw member.unknownKey(among: commonKeys + own, context: " of a `\(kind)` fault")
            }
        }
        guard let at else { throw node.missing("at", expected: "when the fault starts: " + DurationRule.nonNegative.expected) }
        if duration == nil, spanningKinds.contains(kind) {
            throw node.missing("duration", expected: "how long the `\(kind)` fault lasts: " + DurationRule.positive.expected)
        }
        for key in own where !has(key, values) {
            throw node.missing(key, expected: ownExpected(key, kind: kind))
        }
        var cohort: String?
        if case .string(let name)? = cohortNode?.value { cohort = name }
        let fault = Fault(kind: try makeKind(kind, values, node), at: at, duration: duration, cohort: cohort, fraction: fraction)
        return Decoded(fault: fault, cohortNode: cohortNode)
    }

    /// `kind`, before anything else. If it is missing, an unknown key is reported first
    /// (it may be the misspelled `kind`).
    private static func readKind(_ node: ScenarioNode, members: [ScenarioNode.Member]) throws(ScenarioError) -> String {
        let names = Catalog.faultKinds.map(\.name)
        let expected = "a fault kind such as \"backendOutage\", \"networkOutage\" or \"clockSkew\" (see docs/scenario.md, \"Fault kinds\")"
        guard let kindNode = node.member("kind") else {
            let allKeys = commonKeys + names.flatMap(ownKeys(of:))
            if let stray = members.first(where: { !allKeys.contains($0.key) }) {
                throw stray.unknownKey(among: commonKeys, context: " of a fault")
            }
            throw node.missing("kind", expected: expected)
        }
        let kind = try kindNode.name(among: names, expected)
        guard Catalog.faultKinds.contains(where: { $0.name == kind && $0.available }) else {
            let built = Catalog.faultKinds.filter(\.available).map { "`\($0.name)`" }.joined(separator: ", ")
            throw kindNode.notAvailableYet(kind, expected: "a fault kind available in this build: \(built)")
        }
        return kind
    }

    private static func ownExpected(_ key: String, kind: String) -> String {
        switch (key, kind) {
        case ("factor", _): return "the slowdown factor: a number above 0 that multiplies service times"
        case ("extra", _): return "the added latency: " + DistributionUnit.duration.expected
        case ("provider", _): return "a push provider: \(ScenarioNode.oneOf(providers))"
        case ("status", _): return "an HTTP status: one of \(statuses.map(String.init).joined(separator: ", "))"
        case ("rate", "pushProviderErrors"): return "the share of sends answered with that status: a fraction (a number from 0 to 1)"
        case ("rate", _): return "terminations per device-day: a number from 0 to 1440"
        case ("offset", _): return "the clock's offset: " + DurationRule.signed.expected
        default: return "the destination: " + TimeZoneName.expected
        }
    }

    private static func readOwnKey(_ key: String, kind: String, _ node: ScenarioNode,
                                   into values: inout OwnValues) throws(ScenarioError) {
        let expected = ownExpected(key, kind: kind)
        switch key {
        case "factor": values.factor = try node.positiveNumber(expected)
        case "extra": values.extra = try node.distribution(.duration)
        case "provider": values.provider = try node.name(among: providers, expected)
        case "status":
            let status = try node.integer(in: 0...999, expected)
            guard statuses.contains(status) else { throw node.error(expected: expected) }
            values.status = Int(status)
        case "rate" where kind == "pushProviderErrors": values.rate = try node.fraction()
        case "rate": values.rate = try node.number(in: 0...maximumRatePerDay, expected)
        case "offset": values.offset = try node.duration(.signed, expected: expected)
        default:  // "to"
            let name = try node.string(expected)
            guard TimeZoneName.isValid(name) else { throw TimeZoneName.unknown(name, at: node) }
            values.to = name
        }
    }

    private static func has(_ key: String, _ v: OwnValues) -> Bool {
        switch key {
        case "factor": return v.factor != nil
        case "extra": return v.extra != nil
        case "provider": return v.provider != nil
        case "status": return v.status != nil
        case "rate": return v.rate != nil
        case "offset": return v.offset != nil
        default: return v.to != nil
        }
    }

    private static func makeKind(_ kind: String, _ v: OwnValues, _ node: ScenarioNode) throws(ScenarioError) -> Fault.Kind {
        switch kind {
        case "backendOutage": return .backendOutage
        case "networkOutage": return .networkOutage
        case "authExpiry": return .authExpiry
        case "lowPowerMode": return .lowPowerMode
        default: break
        }
        switch (kind, v.factor, v.extra, v.provider, v.status, v.rate, v.offset, v.to) {
        case ("backendSlowdown", let factor?, _, _, _, _, _, _): return .backendSlowdown(factor: factor)
        case ("networkLatency", _, let extra?, _, _, _, _, _): return .networkLatency(extra: extra)
        case ("pushProviderErrors", _, _, let provider?, let status?, let rate?, _, _):
            return .pushProviderErrors(provider: provider, status: status, rate: rate)
        case ("pushProviderOutage", _, _, let provider?, _, _, _, _): return .pushProviderOutage(provider: provider)
        case ("clockSkew", _, _, _, _, _, let offset?, _): return .clockSkew(offset: offset)
        case ("timeZoneChange", _, _, _, _, _, _, let to?): return .timeZoneChange(to: to)
        case ("appTermination", _, _, _, _, let rate?, _, _): return .appTermination(ratePerDeviceDay: rate)
        default:
            // Unreachable: the kind was checked against the catalog and its keys as required.
            throw node.error(expected: "a fault kind this build can decode")
        }
    }

    /// Every fault's `cohort` names a cohort of the fleet (first offending fault in file order).
    static func checkCohortReferences(_ faults: [Decoded], fleet: [Cohort]) throws(ScenarioError) {
        let names = fleet.map(\.name)
        for decoded in faults {
            guard let node = decoded.cohortNode, let name = decoded.fault.cohort, !names.contains(name) else { continue }
            throw node.unknownName(name, among: names, "the name of a cohort of the fleet: \(ScenarioNode.oneOf(names))")
        }
    }
}
