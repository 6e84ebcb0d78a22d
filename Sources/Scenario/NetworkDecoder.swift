import SimKernel

/// A cohort's `network`: `profile` (default `"urban"`) supplies every default from
/// ``NetworkConfig/profiles``; `latency`, `failureRate`, `offlineSpellsPerDay` and
/// `offlineSpellDuration` and `homeWiFi` written next to it override the profile's values, wherever
/// they appear in the object.
enum NetworkDecoder {
    static let keys = ["profile", "latency", "failureRate", "offlineSpellsPerDay", "offlineSpellDuration", "homeWiFi"]

    /// The default profile's configuration.
    static var defaults: NetworkConfig {
        NetworkConfig.profile(named: ScenarioDefaults.networkProfile) ?? NetworkConfig.profiles[0]
    }

    static func decode(_ node: ScenarioNode) throws(ScenarioError) -> NetworkConfig {
        var profile: NetworkConfig?
        var latency: Distribution?
        var failureRate: Double?
        var offlineSpellsPerDay: Double?
        var offlineSpellDuration: Distribution?
        var homeWiFi: Double?
        for member in try node.members("a network object, e.g. {\"profile\": \"urban\"}") {
            let child = member.node
            switch member.key {
            case "profile":
                let names = NetworkConfig.profiles.map(\.profile)
                let name = try child.name(among: names, "a network profile: \(ScenarioNode.oneOf(names))")
                profile = NetworkConfig.profile(named: name)
            case "latency": latency = try child.distribution(.duration)
            case "failureRate": failureRate = try child.fraction()
            case "offlineSpellsPerDay":
                offlineSpellsPerDay = try child.number(in: 0...1_440, "offline spells per day: a number from 0 to 1440")
            case "offlineSpellDuration": offlineSpellDuration = try child.distribution(.duration)
            case "homeWiFi": homeWiFi = try child.fraction()
            default: throw member.unknownKey(among: keys)
            }
        }
        var config = profile ?? defaults
        if let latency { config.latency = latency }
        if let failureRate { config.failureRate = failureRate }
        if let offlineSpellsPerDay { config.offlineSpellsPerDay = offlineSpellsPerDay }
        if let offlineSpellDuration { config.offlineSpellDuration = offlineSpellDuration }
        if let homeWiFi { config.homeWiFi = homeWiFi }
        return config
    }
}
