@testable import Scenario
@testable import Simulation

extension ScenarioVocabulary {
    /// The reference world's names: its features, their sections and the reference
    /// logic's variants; any judge rule and endpoint path.
    static let reference: ScenarioVocabulary = {
        var world = ReferenceWorld.scenarioVocabulary
        world.judgeRules = nil
        world.endpoints = nil
        return world
    }()
}

/// Scenario texts shared by the tests, and helpers to decode them.
enum Fixtures {
    /// Every key of the format, with values different from the defaults.
    static let full = """
    {
      "name": "full",
      "description": "every key",
      "seed": 42,
      "start": "2026-03-06T12:30:15Z",
      "duration": "7d",
      "tieBreak": "shuffle",
      "fleet": [
        {
          "cohort": "ios-daily",
          "count": 10000,
          "platform": "ios",
          "features": ["refresh"],
          "timeZones": {"America/New_York": 0.6, "Europe/Berlin": 0.4},
          "battery": {"capacityMah": 4000, "initialPercent": {"normal": {"mean": 70, "sd": 10}}, "charging": "topUps"},
          "usage": {"appOpensPerDay": 4, "notificationOpenProbability": 0.3,
                    "notificationOpenDelay": {"exponential": {"mean": "30m"}},
                    "takeTestProbability": 0.8, "testDuration": "20m", "screenSessionsPerDay": 60,
                    "screenSessionLength": {"constant": "2m"}, "forceQuitProbability": 0.25},
          "network": {"failureRate": 0.1, "profile": "rural", "offlineSpellsPerDay": 2, "homeWiFi": 0.4},
          "settings": {"backgroundAppRefresh": 0.7, "lowPowerMode": 0.2,
                       "notificationPermission": {"authorized": 3, "denied": 1, "provisional": 0}},
          "signedIn": 1,
          "lastTestDaysAgo": {"constant": 89},
          "ios": {"launchPolicy": {"opportunityGap": "10m", "baseAcceptance": 0.5, "chargingFactor": 2,
                                   "wifiFactor": 1, "usageLead": "0s", "budgetBase": 3, "budgetPerDailyOpen": 1,
                                   "budgetMax": 6},
                  "refreshRunLimit": "25s", "earlyExpirationRate": 0.1,
                  "watchdogGrace": "0s", "kvPersistDelay": "1500ms", "suspensionDelay": "30s",
                  "foregroundSilentPush": "delivered"},
          "android": {"motionEventsPerDay": 2, "quotaRecheck": "5m", "oemPolicy": {"killsBackgroundApps": "10m"},
                      "batterySaverAuto": 0.75, "version": 15,
                      "alarmClock": {"share": 0.25, "timeOfDay": {"uniform": ["5h", "9h"]}}}
        },
        {"cohort": "ios-rare", "count": 0, "platform": "ios",
         "network": {"latency": {"lognormal": {"median": "100ms", "p99": "1s"}},
                     "offlineSpellDuration": {"uniform": ["1m", "2m"]}},
         "lastTestDaysAgo": 3, "battery": {"initialPercent": {"lognormal": {"median": 50, "p99": 90}}},
         "usage": {"notificationOpenDelay": {"normal": {"mean": "1h", "sd": "0s"}}}}
      ],
      "logic": {
        "refresh": {"preferredInterval": "6h", "minimumInterval": "8h", "testCadence": "91d",
                    "recentOpenSuppression": "0s", "hardStop": "15s"},
        "variants": ["refresh.noSynchronize", "refresh.localCalendarDays"]
      },
      "backend": {"workers": 8, "serviceTime": {"uniform": ["10ms", "30ms"]}, "queueLimit": 0,
                  "requestTimeout": "30s", "authTokenLifetime": "12h"},
      "faults": [
        {"kind": "backendOutage", "at": "2d", "duration": "3h"},
        {"kind": "backendSlowdown", "at": "1d", "duration": "1h", "factor": 2.5},
        {"kind": "networkOutage", "at": "0s", "duration": "30m", "cohort": "ios-rare", "fraction": 0.5},
        {"kind": "networkLatency", "at": "3d", "duration": "2h", "extra": {"constant": "500ms"}},
        {"kind": "clockSkew", "at": "4d", "offset": "-90m", "cohort": "ios-daily", "fraction": 0.1},
        {"kind": "timeZoneChange", "at": "5d", "to": "Asia/Tokyo", "fraction": 0.01},
        {"kind": "appTermination", "at": "0s", "rate": 0.5},
        {"rate": 3, "kind": "appTermination", "at": "1d", "duration": "6h"},
        {"kind": "authExpiry", "at": "6d"},
        {"kind": "lowPowerMode", "at": "6d", "duration": "12h", "fraction": 0.3}
      ],
      "expect": [
        {"metric": "invariants.violations", "max": 0},
        {"metric": "latency.testAvailableToNotified.p95", "max": "36h"},
        {"metric": "backend.requests", "min": 1, "max": 1e6}
      ]
    }
    """

    /// Only the required keys.
    static let minimal = """
    {"name": "minimal", "duration": "1d", "fleet": [{"cohort": "a", "count": 5, "platform": "ios"}]}
    """

    /// The example of `docs/scenario.md`, restricted to what this build runs.
    static let interfaceExample = """
    {
      "name": "baseline",
      "description": "one line for humans",
      "seed": 42,
      "start": "2026-03-06T00:00:00Z",
      "duration": "7d",
      "tieBreak": "fifo",
      "fleet": [
        {
          "cohort": "ios-daily",
          "count": 10000,
          "platform": "ios",
          "features": ["refresh"],
          "timeZones": {"America/New_York": 0.6, "Europe/Berlin": 0.4},
          "battery": {"capacityMah": 3300, "initialPercent": {"uniform": [30, 100]}, "charging": "overnight"},
          "usage": {"appOpensPerDay": 2.5},
          "network": {"profile": "urban"},
          "settings": {
            "backgroundAppRefresh": 0.9,
            "lowPowerMode": 0.05,
            "notificationPermission": {"authorized": 0.6, "denied": 0.3, "notDetermined": 0.1}
          },
          "signedIn": 0.95,
          "lastTestDaysAgo": {"uniform": [0, 120]}
        }
      ],
      "logic": { "variants": [] },
      "backend": {},
      "faults": [
        {"kind": "backendOutage", "at": "2d", "duration": "3h"}
      ],
      "expect": [
        {"metric": "invariants.violations", "max": 0},
        {"metric": "latency.testAvailableToNotified.p95", "max": "36h"}
      ]
    }
    """

    /// The minimal scenario with extra top-level keys and extra keys in its one cohort
    /// (each a JSON fragment such as `"seed": 3`).
    static func scenario(top: String = "", cohort: String = "") -> String {
        let t = top.isEmpty ? "" : ", " + top
        let c = cohort.isEmpty ? "" : ", " + cohort
        return "{\"name\": \"t\", \"duration\": \"7d\"\(t), \"fleet\": [{\"cohort\": \"a\", \"count\": 10, \"platform\": \"ios\"\(c)}]}"
    }

    static func decode(_ text: String, file: String = "test.json") throws(ScenarioError) -> Scenario {
        try ScenarioDecoder.decode(Array(text.utf8), file: file, vocabulary: .reference)
    }

    /// The error decoding `text` raises, or nil if it decodes.
    static func rejection(_ text: String, file: String = "test.json") -> ScenarioError? {
        rejection(bytes: Array(text.utf8), file: file)
    }

    static func rejection(bytes: [UInt8], file: String = "test.json") -> ScenarioError? {
        do {
            _ = try ScenarioDecoder.decode(bytes, file: file, vocabulary: .reference)
            return nil
        } catch {
            return error
        }
    }
}
