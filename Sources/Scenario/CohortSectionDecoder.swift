import SimKernel

/// The sections of a cohort: `battery`, `energy`, `usage`, `settings`, `ios`. Each key is
/// optional and defaults to the section type's `defaults`.
enum CohortSectionDecoder {
    static let batteryKeys = ["capacityMah", "initialPercent", "charging"]

    /// `battery`: `capacityMah` > 0, `initialPercent` a distribution of numbers in [0, 100],
    /// `charging` one of ``ChargingHabit``.
    static func battery(_ node: ScenarioNode) throws(ScenarioError) -> BatteryConfig {
        var battery = BatteryConfig.defaults
        for member in try node.members("a battery object, e.g. {\"capacityMah\": 3300, \"charging\": \"overnight\"}") {
            let child = member.node
            switch member.key {
            case "capacityMah": battery.capacityMah = try child.positiveNumber("a battery capacity in mAh: a number above 0")
            case "initialPercent": battery.initialPercent = try child.distribution(.number(0...100))
            case "charging": battery.charging = try child.choice(ChargingHabit.self)
            default: throw member.unknownKey(among: batteryKeys)
            }
        }
        return battery
    }

    static let energyKeys = ["cpuActiveMilliamps", "coldLaunch", "resume"]
    /// The longest launch cost accepted: a background task's whole budget (30 s).
    static let longestLaunch = SimDuration.seconds(30)

    /// `energy`: `cpuActiveMilliamps` above 0 and at most 5000, `coldLaunch` and `resume`
    /// durations from 0 to 30 s.
    static func energy(_ node: ScenarioNode) throws(ScenarioError) -> EnergyConfig {
        var energy = EnergyConfig.defaults
        for member in try node.members("an energy object, e.g. {\"coldLaunch\": \"400ms\", \"resume\": \"100ms\"}") {
            let child = member.node
            switch member.key {
            case "cpuActiveMilliamps":
                let expected = "a CPU current in mA: a number above 0 and at most 5000"
                energy.cpuActiveMilliamps = try child.positiveNumber(expected)
                if energy.cpuActiveMilliamps > 5_000 { throw child.error(expected: expected) }
            case "coldLaunch": energy.coldLaunch = try launchCost(child)
            case "resume": energy.resume = try launchCost(child)
            default: throw member.unknownKey(among: energyKeys)
            }
        }
        return energy
    }

    /// A launch's CPU time: a duration from 0 to 30 s.
    static func launchCost(_ node: ScenarioNode) throws(ScenarioError) -> SimDuration {
        let expected = "a duration from 0s to 30s with a unit, e.g. \"400ms\" (units us, ms, s, m, h, d)"
        let d = try node.duration(.nonNegative, expected: expected)
        if d > longestLaunch { throw node.error(expected: expected, found: "\(node.value.foundDescription) (longer than 30s)") }
        return d
    }

    static let usageKeys = ["appOpensPerDay", "notificationOpenProbability", "notificationOpenDelay",
                            "takeTestProbability", "testDuration", "screenSessionsPerDay", "screenSessionLength",
                            "forceQuitProbability"]

    /// `usage`: `appOpensPerDay` and `screenSessionsPerDay` in [0, 1440], the three
    /// probabilities fractions, `notificationOpenDelay` and `screenSessionLength`
    /// distributions of durations, `testDuration` > 0.
    static func usage(_ node: ScenarioNode) throws(ScenarioError) -> UsageConfig {
        var usage = UsageConfig.defaults
        for member in try node.members("a usage object, e.g. {\"appOpensPerDay\": 2.5}") {
            let child = member.node
            switch member.key {
            case "appOpensPerDay":
                usage.appOpensPerDay = try child.number(in: 0...1_440, "app opens per day: a number from 0 to 1440")
            case "notificationOpenProbability": usage.notificationOpenProbability = try child.fraction()
            case "notificationOpenDelay": usage.notificationOpenDelay = try child.distribution(.duration)
            case "takeTestProbability": usage.takeTestProbability = try child.fraction()
            case "testDuration": usage.testDuration = try child.duration(.positive)
            case "screenSessionsPerDay":
                usage.screenSessionsPerDay = try child.number(in: 0...1_440, "screen sessions per day: a number from 0 to 1440")
            case "screenSessionLength": usage.screenSessionLength = try child.distribution(.duration)
            case "forceQuitProbability": usage.forceQuitProbability = try child.fraction()
            default: throw member.unknownKey(among: usageKeys)
            }
        }
        return usage
    }

    static let settingsKeys = ["backgroundAppRefresh", "lowPowerMode", "notificationPermission"]

    /// `settings`: two fractions and `notificationPermission`, a categorical choice over
    /// ``NotificationPermission``.
    static func settings(_ node: ScenarioNode) throws(ScenarioError) -> DeviceSettings {
        var settings = DeviceSettings.defaults
        for member in try node.members("a settings object, e.g. {\"backgroundAppRefresh\": 0.9}") {
            let child = member.node
            switch member.key {
            case "backgroundAppRefresh": settings.backgroundAppRefresh = try child.fraction()
            case "lowPowerMode": settings.lowPowerMode = try child.fraction()
            case "notificationPermission": settings.notificationPermission = try notificationPermission(child)
            default: throw member.unknownKey(among: settingsKeys)
            }
        }
        return settings
    }

    static func notificationPermission(_ node: ScenarioNode) throws(ScenarioError) -> Categorical<NotificationPermission> {
        let names = NotificationPermission.allCases.map(\.rawValue)
        return try node.categorical(of: "notification permission states", example: "{\"authorized\": 0.6, \"denied\": 0.4}") {
            (member) throws(ScenarioError) in
            let expected = "a notification permission state: \(ScenarioNode.oneOf(names))"
            guard let state = NotificationPermission(rawValue: member.key) else {
                var found = "the name \(JSONValue.quoteForMessage(member.key))"
                if let guess = KeySuggestion.closest(to: member.key, among: names) { found += "; did you mean `\(guess)`?" }
                throw member.node.error(expected: expected, found: found)
            }
            return state
        }
    }

    static let iosKeys = ["launchPolicy", "refreshRunLimit", "earlyExpirationRate", "watchdogGrace", "kvPersistDelay",
                          "suspensionDelay", "foregroundSilentPush"]
    /// `ios.suspensionDelay`'s bound: a background task's whole time (`refreshRunLimit`'s default).
    static let maximumSuspensionDelay = SimDuration.seconds(30)

    /// `ios`: `launchPolicy` (``launchPolicy(_:)``), `refreshRunLimit` > 0,
    /// `earlyExpirationRate` a fraction, `watchdogGrace` and `kvPersistDelay` ≥ 0,
    /// `suspensionDelay` from 0 to 30 s, `foregroundSilentPush` `throttled` or `delivered`.
    /// (`refreshLaunchDelay`, the lognormal delay of earlier versions, is replaced by
    /// `launchPolicy` and is now an unknown key.)
    static func ios(_ node: ScenarioNode) throws(ScenarioError) -> IOSConfig {
        var ios = IOSConfig.defaults
        for member in try node.members("an ios object, e.g. {\"refreshRunLimit\": \"30s\"}") {
            let child = member.node
            switch member.key {
            case "launchPolicy": ios.launchPolicy = try launchPolicy(child)
            case "refreshRunLimit": ios.refreshRunLimit = try child.duration(.positive)
            case "earlyExpirationRate": ios.earlyExpirationRate = try child.fraction()
            case "watchdogGrace": ios.watchdogGrace = try child.duration(.nonNegative)
            case "kvPersistDelay": ios.kvPersistDelay = try child.duration(.nonNegative)
            case "suspensionDelay":
                let delay = try child.duration(.nonNegative)
                guard delay <= maximumSuspensionDelay else {
                    throw child.error(expected: "a suspension delay from 0s to 30s (a background task's whole time)", found: "\(delay)")
                }
                ios.suspensionDelay = delay
            case "foregroundSilentPush":
                ios.throttlesForegroundBackgroundNotifications = try child.name(among: ["throttled", "delivered"], "`throttled` or `delivered`") == "throttled"
            default: throw member.unknownKey(among: iosKeys)
            }
        }
        return ios
    }
}

extension CohortSectionDecoder {
    static let launchPolicyKeys = ["opportunityGap", "baseAcceptance", "chargingFactor", "wifiFactor", "usageLead",
                                   "budgetBase", "budgetPerDailyOpen", "budgetMax"]

    /// `ios.launchPolicy`: `opportunityGap` > 0, `usageLead` ≥ 0, `baseAcceptance` a
    /// fraction, the factors and budget numbers from 0 to 1440.
    static func launchPolicy(_ node: ScenarioNode) throws(ScenarioError) -> LaunchPolicyConfig {
        var p = LaunchPolicyConfig.defaults
        for member in try node.members("a launch policy object, e.g. {\"opportunityGap\": \"30m\", \"baseAcceptance\": 0.2}") {
            let child = member.node
            switch member.key {
            case "opportunityGap": p.opportunityGap = try child.duration(.positive)
            case "usageLead": p.usageLead = try child.duration(.nonNegative)
            case "baseAcceptance": p.baseAcceptance = try child.fraction()
            case "chargingFactor": p.chargingFactor = try child.number(in: 0...1_440, "a multiplier: a number from 0 to 1440")
            case "wifiFactor": p.wifiFactor = try child.number(in: 0...1_440, "a multiplier: a number from 0 to 1440")
            case "budgetBase": p.budgetBase = try child.number(in: 0...1_440, "launches a day: a number from 0 to 1440")
            case "budgetPerDailyOpen":
                p.budgetPerDailyOpen = try child.number(in: 0...1_440, "launches per daily app open: a number from 0 to 1440")
            case "budgetMax": p.budgetMax = try child.number(in: 0...1_440, "launches a day: a number from 0 to 1440")
            default: throw member.unknownKey(among: launchPolicyKeys)
            }
        }
        return p
    }

    static let androidKeys = ["motionEventsPerDay", "quotaRecheck", "oemPolicy", "batterySaverAuto", "version", "alarmClock", "screenOffBeforeStart"]
    static let versionExpected = "an Android version: 12, 13, 14 or 15"

    /// `android`: `motionEventsPerDay` from 0 to 1440, `quotaRecheck` > 0, `oemPolicy`,
    /// `batterySaverAuto` a fraction, `version` 12 to 15, `alarmClock`, `screenOffBeforeStart`
    /// a distribution of durations.
    static func android(_ node: ScenarioNode) throws(ScenarioError) -> AndroidConfig {
        var a = AndroidConfig.defaults
        for member in try node.members("an android object, e.g. {\"motionEventsPerDay\": 6}") {
            let child = member.node
            switch member.key {
            case "motionEventsPerDay":
                a.motionEventsPerDay = try child.number(in: 0...1_440, "motion events per day: a number from 0 to 1440")
            case "quotaRecheck": a.quotaRecheck = try child.duration(.positive)
            case "oemPolicy": a.oemKillAfterScreenOff = try oemPolicy(child)
            case "batterySaverAuto": a.batterySaverAuto = try child.fraction()
            case "version": a.version = Int(try child.integer(in: AndroidConfig.versions, versionExpected))
            case "alarmClock": a.alarmClock = try alarmClock(child)
            case "screenOffBeforeStart": a.screenOffBeforeStart = try child.distribution(.duration)
            default: throw member.unknownKey(among: androidKeys)
            }
        }
        return a
    }

    static let alarmClockKeys = ["share", "timeOfDay"]

    /// `android.alarmClock`: `{"share": FRACTION, "timeOfDay": DURATION DISTRIBUTION}`,
    /// the time of day after local midnight (draws are kept within the day).
    static func alarmClock(_ node: ScenarioNode) throws(ScenarioError) -> AlarmClockUsage {
        var c = AlarmClockUsage()
        for member in try node.members("an alarm clock object, e.g. {\"share\": 0.5, \"timeOfDay\": {\"uniform\": [\"6h\", \"8h\"]}}") {
            switch member.key {
            case "share": c.share = try member.node.fraction()
            case "timeOfDay": c.timeOfDay = try member.node.distribution(.duration)
            default: throw member.unknownKey(among: alarmClockKeys)
            }
        }
        return c
    }

    static let oemPolicyExpected = "\"stock\" or an object {\"killsBackgroundApps\": DURATION}, e.g. {\"killsBackgroundApps\": \"10m\"}"

    /// `android.oemPolicy`: `"stock"` (nil: never killed) or `{"killsBackgroundApps": "10m"}`,
    /// the screen-off time after which the app is force-stopped (> 0).
    static func oemPolicy(_ node: ScenarioNode) throws(ScenarioError) -> SimDuration? {
        if case .string = node.value {
            _ = try node.name(among: ["stock"], oemPolicyExpected)
            return nil
        }
        let members = try node.members(oemPolicyExpected)
        guard !members.isEmpty else { throw node.error(expected: oemPolicyExpected, found: "an empty object") }
        var after: SimDuration?
        for member in members {
            switch member.key {
            case "killsBackgroundApps": after = try member.node.duration(.positive)
            default: throw member.unknownKey(among: ["killsBackgroundApps"])
            }
        }
        return after
    }
}
