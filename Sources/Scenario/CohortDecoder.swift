import SimKernel

/// One cohort of the fleet: `cohort` (name), `count`, `platform` are required;
/// every other key has the default documented on ``Cohort`` and its section types.
enum CohortDecoder {
    /// The keys of every cohort; the features' sections (``ScenarioVocabulary/cohortSections``)
    /// come before `energy` in an unknown key's message.
    static let keys = ["cohort", "count", "platform", "features", "timeZones", "battery", "usage",
                       "network", "settings", "signedIn", "lastTestDaysAgo", "ios", "android", "energy"]

    /// Largest `count` of one cohort (a billion devices; the run would not fit in memory long before).
    static let maximumCount: Int64 = 1_000_000_000

    static let nameExpected = "the cohort's name: a non-empty string"
    static let countExpected = "the cohort's device count: an integer from 0 to \(maximumCount)"
    static let platformExpected = "the cohort's platform: \"ios\" or \"android\""

    /// The features the world runs and their sections come from `vocabulary`.
    static func decode(_ node: ScenarioNode, vocabulary: ScenarioVocabulary) throws(ScenarioError) -> Cohort {
        let known = vocabulary.features
        var name: String?
        var count: Int?
        var platform: Platform?
        var features = known.filter(\.byDefault)
        var timeZones = ScenarioDefaults.timeZones
        var battery = BatteryConfig.defaults
        var usage = UsageConfig.defaults
        var network: NetworkConfig?
        var settings = DeviceSettings.defaults
        var signedIn = ScenarioDefaults.signedIn
        var lastTestDaysAgo = ScenarioDefaults.lastTestDaysAgo
        var ios = IOSConfig.defaults
        var android = AndroidConfig.defaults
        var slots = SectionSlots(vocabulary.cohortSections)
        var energy = EnergyConfig.defaults

        for member in try node.members("a cohort object, e.g. {\"cohort\": \"ios-daily\", \"count\": 1000, \"platform\": \"ios\"}") {
            let child = member.node
            switch member.key {
            case "cohort": name = try child.nonEmptyString(nameExpected)
            case "count": count = Int(try child.integer(in: 0...maximumCount, countExpected))
            case "platform": platform = try decodePlatform(child)
            case "features": features = try decodeFeatures(child, known: known)
            case "timeZones": timeZones = try decodeTimeZones(child)
            case "battery": battery = try CohortSectionDecoder.battery(child)
            case "usage": usage = try CohortSectionDecoder.usage(child)
            case "network": network = try NetworkDecoder.decode(child)
            case "settings": settings = try CohortSectionDecoder.settings(child)
            case "signedIn": signedIn = try child.fraction()
            case "lastTestDaysAgo": lastTestDaysAgo = try child.distribution(.number(0...Double.greatestFiniteMagnitude))
            case "ios": ios = try CohortSectionDecoder.ios(child)
            case "android": android = try CohortSectionDecoder.android(child)
            case "energy": energy = try CohortSectionDecoder.energy(child)
            default:
                guard try slots.decode(member) else { throw member.unknownKey(among: Array(keys.dropLast()) + slots.keys + ["energy"]) }
            }
        }
        guard let name else { throw node.missing("cohort", expected: nameExpected) }
        guard let count else { throw node.missing("count", expected: countExpected) }
        guard let platform else { throw node.missing("platform", expected: platformExpected) }
        var cohort = Cohort(name: name, count: count, platform: platform, features: features, timeZones: timeZones,
                            battery: battery, usage: usage, network: network ?? NetworkDecoder.defaults,
                            settings: settings, signedIn: signedIn, lastTestDaysAgo: lastTestDaysAgo, ios: ios,
                            android: android, energy: energy)
        cohort.sections = slots.sections
        return cohort
    }

    /// `platform`: `"ios"` or `"android"`, and built in this version (``Catalog/availablePlatforms``).
    static func decodePlatform(_ node: ScenarioNode) throws(ScenarioError) -> Platform {
        let raw = try node.name(among: ["ios", "android"], platformExpected)
        guard let platform = Platform(rawValue: raw) else { throw node.error(expected: platformExpected) }
        guard Catalog.availablePlatforms.contains(platform) else {
            let built = ScenarioNode.oneOf(Catalog.availablePlatforms.map(\.rawValue))
            throw node.notAvailableYet(raw, expected: "a platform available in this build: \(built)")
        }
        return platform
    }

    /// `features`: names of the world's features (`known`), each at most once.
    /// Default: those it runs by default (``Feature/byDefault``).
    static func decodeFeatures(_ node: ScenarioNode, known: [Feature]) throws(ScenarioError) -> [Feature] {
        let all = known.map(\.rawValue)
        let expectedOne = "a feature: \(ScenarioNode.oneOf(all))"
        var features: [Feature] = []
        for element in try node.elements("an array of feature names, e.g. [\"\(all.first ?? "name")\"]") {
            let raw = try element.name(among: all, expectedOne)
            guard let feature = known.first(where: { $0.rawValue == raw }) else { throw element.error(expected: expectedOne) }
            guard !features.contains(feature) else {
                throw element.error(expected: "each feature at most once", found: "\(JSONValue.quoteForMessage(raw)) a second time")
            }
            features.append(feature)
        }
        return features
    }

    /// `timeZones`: IANA names with weights (see ``TimeZoneName``). Default `{"UTC": 1}`.
    static func decodeTimeZones(_ node: ScenarioNode) throws(ScenarioError) -> Categorical<String> {
        try node.categorical(of: "time zone names", example: "{\"America/New_York\": 0.6, \"Europe/Berlin\": 0.4}") {
            (member) throws(ScenarioError) in
            guard TimeZoneName.isValid(member.key) else {
                throw TimeZoneName.unknown(member.key, at: member.node, found: "the name ")
            }
            return member.key
        }
    }
}
