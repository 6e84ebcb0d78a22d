import Testing
@testable import Scenario

/// Invalid files are rejected with the file, the exact JSON path, what was expected
/// and what was found.
@Suite struct ScenarioRejectionTests {
    /// Decodes `text` (named `bad.json`) expecting a rejection at `path` whose `found`
    /// contains each of `found`; returns the error for further checks.
    @discardableResult
    func expectRejection(_ text: String, path: String, found: [String] = [], expected: [String] = [],
                         sourceLocation: SourceLocation = #_sourceLocation) -> ScenarioError? {
        guard let error = Fixtures.rejection(text, file: "bad.json") else {
            Issue.record("decoded, expected an error at \(path)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(error.file == "bad.json", sourceLocation: sourceLocation)
        #expect(error.path == path, "\(error)", sourceLocation: sourceLocation)
        for part in found {
            #expect(error.found.contains(part), "\(error)", sourceLocation: sourceLocation)
        }
        for part in expected {
            #expect(error.expected.contains(part), "\(error)", sourceLocation: sourceLocation)
        }
        #expect(error.description.hasPrefix("bad.json: \(path): expected "), sourceLocation: sourceLocation)
        return error
    }

    @Test func misspelledKeySuggestsTheKnownOne() {
        let e = expectRejection(#"{"name": "t", "durration": "7d", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}]}"#,
                                path: "$.durration", found: ["\"durration\"", "did you mean `duration`?"], expected: ["`duration`"])
        #expect(e?.description == "bad.json: $.durration: expected one of the keys: `name`, `description`, `seed`, `start`, `duration`, `tieBreak`, `fleet`, `logic`, `backend`, `faults`, `expect`, `broadcasts`, `judges`, found the unknown key \"durration\"; did you mean `duration`?")
        expectRejection(Fixtures.scenario(cohort: #""battery": {"capacityMAh": 3000}"#),
                        path: "$.fleet[0].battery.capacityMAh", found: ["did you mean `capacityMah`?"])
        expectRejection(Fixtures.scenario(cohort: #""usage": {"appOpensPerDya": 3}"#),
                        path: "$.fleet[0].usage.appOpensPerDya", found: ["did you mean `appOpensPerDay`?"])
        expectRejection(Fixtures.scenario(top: #""wibble": 1"#), path: "$.wibble", found: ["\"wibble\""])
    }

    /// A start at which a cohort's zone still has a local date in 1969 is refused up
    /// front (the local calendar begins at 1970-01-01); local midnight of 1970-01-01 is fine.
    @Test func aStartBeforeLocal1970IsRefused() throws {
        let minusTen = #""timeZones": {"UTC": 1, "Etc/GMT+10": 1}"#
        expectRejection(Fixtures.scenario(top: #""start": "1969-12-31T20:00:00Z""#, cohort: #""timeZones": {"Etc/GMT+10": 1}"#), path: "$.start",
                        found: ["\"1969-12-31T20:00:00Z\"", "still 1969 in Etc/GMT+10 (cohort 'a')"], expected: ["1970-01-01 or later"])
        expectRejection(Fixtures.scenario(top: #""start": "1970-01-01T09:59:59Z""#, cohort: minusTen), path: "$.start", found: ["Etc/GMT+10"])
        #expect(Fixtures.rejection(Fixtures.scenario(top: #""start": "1970-01-01T10:00:00Z""#, cohort: minusTen)) == nil)
        // A zone of weight 0 is never drawn, and UTC alone starts at 1970-01-01T00:00Z.
        #expect(Fixtures.rejection(Fixtures.scenario(top: #""start": "1970-01-01T09:00:00Z""#, cohort: #""timeZones": {"UTC": 1, "Etc/GMT+10": 0}"#)) == nil)
        #expect(Fixtures.rejection(Fixtures.scenario(top: #""start": "1970-01-01T00:00:00Z""#)) == nil)
    }

    /// The same refusal for a device clock set back by `clockSkew` (a start at
    /// 1970-01-01T12:00Z with a -3 d skew gave 40 false violations): at the skew's
    /// start, with the skews then in force added up, in the cohorts it reaches.
    @Test func aClockSkewBeforeLocal1970IsRefused() throws {
        let start = #""start": "1970-01-01T12:00:00Z""#
        let e = expectRejection(Fixtures.scenario(top: start + #", "faults": [{"kind": "clockSkew", "at": "0s", "offset": "-3d"}]"#),
                                path: "$.faults[0].offset", found: ["-3d", "cohort 'a' in UTC read 1969-12-29T12:00:00 local"],
                                expected: ["1970-01-01 or later", "1970-01-01T12:00:00Z"])
        #expect(e?.description.contains("bad.json: $.faults[0].offset") == true)
        // Two skews that overlap add up: -8 h and -7 h at 2 h is 1969-12-31T23:00 local.
        let two = #", "faults": [{"kind": "clockSkew", "at": "1h", "offset": "-8h"}, {"kind": "clockSkew", "at": "2h", "duration": "1h", "offset": "-7h"}]"#
        expectRejection(Fixtures.scenario(top: start + two), path: "$.faults[1].offset", found: ["-15h", "1969-12-31T23:00:00"])
        // Each alone stays in 1970.
        #expect(Fixtures.rejection(Fixtures.scenario(top: start + #", "faults": [{"kind": "clockSkew", "at": "1h", "offset": "-8h"}]"#)) == nil)
        #expect(Fixtures.rejection(Fixtures.scenario(top: start + #", "faults": [{"kind": "clockSkew", "at": "2h", "duration": "1h", "offset": "-7h"}]"#)) == nil)
        // A skew for another cohort, or of fraction 0, moves no clock of this one.
        #expect(Fixtures.rejection(Fixtures.scenario(top: start + #", "faults": [{"kind": "clockSkew", "at": "0s", "offset": "-3d", "fraction": 0}]"#)) == nil)
        // A zone behind UTC reaches 1969 first.
        expectRejection(Fixtures.scenario(top: #""start": "1970-01-02T10:00:00Z", "faults": [{"kind": "clockSkew", "at": "0s", "offset": "-1d"}]"#,
                                          cohort: #""timeZones": {"UTC": 1, "Etc/GMT+12": 1}"#),
                        path: "$.faults[0].offset", found: ["Etc/GMT+12", "1969-12-31T22:00:00"])
    }

    /// A huge value echoed in a message is cut, with its length.
    @Test func aHugeFoundValueIsCutInTheMessage() {
        let e = ScenarioError(file: "x.json", path: "$.expect[0].metric", expected: "a metric", found: String(repeating: "m", count: 1_000_000))
        #expect(e.description.utf8.count < 400 && e.description.hasSuffix("… (1000000 bytes)"), "\(e.description.suffix(40))")
    }

    @Test func missingRequiredKeys() {
        expectRejection(#"{"name": "t", "duration": "7d"}"#, path: "$.fleet", found: ["nothing (the key is missing)"])
        expectRejection(#"{"duration": "7d", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}]}"#,
                        path: "$.name", found: ["nothing (the key is missing)"])
        expectRejection(#"{"name": "t", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}]}"#,
                        path: "$.duration", found: ["nothing (the key is missing)"])
        expectRejection(#"{"name": "t", "duration": "7d", "fleet": [{"cohort": "a", "platform": "ios"}]}"#,
                        path: "$.fleet[0].count", found: ["nothing (the key is missing)"])
        expectRejection(#"{"name": "t", "duration": "7d", "fleet": []}"#, path: "$.fleet", found: ["an empty array"])
        expectRejection(Fixtures.scenario(top: #""faults": [{"kind": "clockSkew", "at": "1d"}]"#),
                        path: "$.faults[0].offset", found: ["missing"])
        expectRejection(Fixtures.scenario(top: #""faults": [{"kind": "networkOutage", "at": "1d"}]"#),
                        path: "$.faults[0].duration", found: ["missing"])
        expectRejection(Fixtures.scenario(top: #""faults": [{"at": "1d"}]"#), path: "$.faults[0].kind", found: ["missing"])
        expectRejection(Fixtures.scenario(top: #""faults": [{"knd": "networkOutage", "at": "1d"}]"#),
                        path: "$.faults[0].knd", found: ["did you mean `kind`?"])
        expectRejection(Fixtures.scenario(top: #""expect": [{"metric": "x"}]"#), path: "$.expect[0]", expected: ["`min` and `max`"])
    }

    @Test func durationsMustHaveAUnitAndTheRightSign() {
        expectRejection(Fixtures.scenario(top: #""faults": [{"kind": "backendOutage", "at": "-5m", "duration": "1h"}]"#),
                        path: "$.faults[0].at", found: ["\"-5m\" (negative)"])
        expectRejection(#"{"name": "t", "duration": "-1h", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}]}"#,
                        path: "$.duration", found: ["\"-1h\" (negative)"])
        expectRejection(#"{"name": "t", "duration": "0s", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}]}"#,
                        path: "$.duration", found: ["\"0s\" (zero)"])
        expectRejection(#"{"name": "t", "duration": "7x", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}]}"#,
                        path: "$.duration", found: ["\"7x\""])
        expectRejection(#"{"name": "t", "duration": 7, "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}]}"#,
                        path: "$.duration", found: ["a number 7", "needs a unit"])
        expectRejection(Fixtures.scenario(top: #""logic": {"refresh": {"hardStop": "0ms"}}"#),
                        path: "$.logic.refresh.hardStop", found: ["(zero)"])
        expectRejection(Fixtures.scenario(cohort: #""ios": {"watchdogGrace": "-1s"}"#),
                        path: "$.fleet[0].ios.watchdogGrace", found: ["negative"])
        // `ios.suspensionDelay`: 0 s to 30 s (the fixtures decode 30 s), no more, no less.
        expectRejection(Fixtures.scenario(cohort: #""ios": {"suspensionDelay": "-1ms"}"#),
                        path: "$.fleet[0].ios.suspensionDelay", found: ["negative"])
        expectRejection(Fixtures.scenario(cohort: #""ios": {"suspensionDelay": "30001ms"}"#),
                        path: "$.fleet[0].ios.suspensionDelay", expected: ["from 0s to 30s"])
        #expect(Fixtures.rejection(Fixtures.scenario(cohort: #""ios": {"suspensionDelay": "0s"}"#)) == nil)
        // `ios.foregroundSilentPush`: one of two names (the fixtures decode `delivered`).
        expectRejection(Fixtures.scenario(cohort: #""ios": {"foregroundSilentPush": "sometimes"}"#),
                        path: "$.fleet[0].ios.foregroundSilentPush", expected: ["`throttled` or `delivered`"])
        #expect(Fixtures.rejection(Fixtures.scenario(cohort: #""ios": {"foregroundSilentPush": "throttled"}"#)) == nil)
        // Only clockSkew.offset may be negative.
        #expect(Fixtures.rejection(Fixtures.scenario(top: #""faults": [{"kind": "clockSkew", "at": "1d", "offset": "-2h"}]"#)) == nil)
    }

    @Test func malformedDistributions() {
        expectRejection(Fixtures.scenario(cohort: #""lastTestDaysAgo": {"uniform": [120, 0]}"#),
                        path: "$.fleet[0].lastTestDaysAgo.uniform[1]", found: ["a number 0"], expected: ["a number 120"])
        expectRejection(Fixtures.scenario(cohort: #""lastTestDaysAgo": {"uniform": [1, 2, 3]}"#),
                        path: "$.fleet[0].lastTestDaysAgo.uniform", found: ["an array of 3 elements"])
        expectRejection(Fixtures.scenario(cohort: #""usage": {"notificationOpenDelay": {"lognormal": {"median": "1h"}}}"#),
                        path: "$.fleet[0].usage.notificationOpenDelay.lognormal.p99", found: ["missing"])
        expectRejection(Fixtures.scenario(cohort: #""usage": {"notificationOpenDelay": {"lognormal": {"median": "2h", "p99": "1h"}}}"#),
                        path: "$.fleet[0].usage.notificationOpenDelay.lognormal.p99", expected: ["median"])
        expectRejection(Fixtures.scenario(cohort: #""usage": {"notificationOpenDelay": {"lognormal": {"median": "0s", "p99": "1h"}}}"#),
                        path: "$.fleet[0].usage.notificationOpenDelay.lognormal.median", found: ["(zero)"])
        expectRejection(Fixtures.scenario(top: #""backend": {"serviceTime": {"exponential": {"mean": "0s"}}}"#),
                        path: "$.backend.serviceTime.exponential.mean", found: ["(zero)"])
        expectRejection(Fixtures.scenario(top: #""backend": {"serviceTime": {"normal": {"mean": "1s", "sd": "-1s"}}}"#),
                        path: "$.backend.serviceTime.normal.sd", found: ["negative"])
        expectRejection(Fixtures.scenario(top: #""backend": {"serviceTime": {"constant": "1s", "uniform": ["1s", "2s"]}}"#),
                        path: "$.backend.serviceTime.uniform", found: ["a second key"])
        expectRejection(Fixtures.scenario(top: #""backend": {"serviceTime": {"lognormall": {}}}"#),
                        path: "$.backend.serviceTime.lognormall", found: ["did you mean `lognormal`?"])
        expectRejection(Fixtures.scenario(top: #""backend": {"serviceTime": {}}"#), path: "$.backend.serviceTime", found: ["an empty object"])
        expectRejection(Fixtures.scenario(top: #""backend": {"serviceTime": 40}"#), path: "$.backend.serviceTime", found: ["a number 40"])
        expectRejection(Fixtures.scenario(cohort: #""lastTestDaysAgo": "30d""#), path: "$.fleet[0].lastTestDaysAgo", found: ["\"30d\""])
        expectRejection(Fixtures.scenario(cohort: #""battery": {"initialPercent": {"uniform": [30, 101]}}"#),
                        path: "$.fleet[0].battery.initialPercent.uniform[1]", expected: ["from 0 to 100"])
        expectRejection(Fixtures.scenario(cohort: #""lastTestDaysAgo": {"normal": {"mean": 10, "sd": -1}}"#),
                        path: "$.fleet[0].lastTestDaysAgo.normal.sd", found: ["a number -1"])
    }

    @Test func variantsFeaturesFaultsAndPlatformsMustExistAndBeBuilt() {
        expectRejection(Fixtures.scenario(top: #""logic": {"variants": ["refresh.noSynchronise"]}"#),
                        path: "$.logic.variants[0]", found: ["did you mean `refresh.noSynchronize`?"])
        expectRejection(Fixtures.scenario(top: #""logic": {"variants": ["refresh.wat"]}"#),
                        path: "$.logic.variants[0]", found: ["\"refresh.wat\""])
        expectRejection(Fixtures.scenario(top: #""logic": {"variants": ["refresh.noSynchronize", "refresh.noSynchronize"]}"#),
                        path: "$.logic.variants[1]", found: ["a second time"])
        expectRejection(Fixtures.scenario(cohort: #""features": ["refresh", "push", "push"]"#),
                        path: "$.fleet[0].features[2]", found: ["a second time"])
        expectRejection(Fixtures.scenario(cohort: #""features": ["teleport"]"#), path: "$.fleet[0].features[0]", found: ["\"teleport\""])
        expectRejection(Fixtures.scenario(top: #""faults": [{"kind": "pushProviderErrors", "at": "1d", "duration": "1h", "provider": "apns", "status": 404, "rate": 0.5}]"#),
                        path: "$.faults[0].status", found: ["404"])
        expectRejection(Fixtures.scenario(top: #""faults": [{"kind": "meteorStrike", "at": "1d"}]"#),
                        path: "$.faults[0].kind", found: ["\"meteorStrike\""])
        expectRejection(Fixtures.scenario(cohort: #""ios": {"refreshLaunchDelay": "1h"}"#),
                        path: "$.fleet[0].ios.refreshLaunchDelay", expected: ["launchPolicy"])
        expectRejection(Fixtures.scenario(cohort: #""ios": {"launchPolicy": {"opportunityGap": "0s"}}"#),
                        path: "$.fleet[0].ios.launchPolicy.opportunityGap", found: ["(zero)"])
        expectRejection(Fixtures.scenario(cohort: #""ios": {"launchPolicy": {"baseAcceptance": 1.5}}"#),
                        path: "$.fleet[0].ios.launchPolicy.baseAcceptance", found: ["1.5"])
        expectRejection(Fixtures.scenario(cohort: #""ios": {"launchPolicy": {"budgetMax": -1}}"#),
                        path: "$.fleet[0].ios.launchPolicy.budgetMax", expected: ["from 0 to 1440"])
        expectRejection(Fixtures.scenario(cohort: #""android": {"motionEventsPerDay": "6"}"#),
                        path: "$.fleet[0].android.motionEventsPerDay", expected: ["motion events per day"])
        expectRejection(Fixtures.scenario(cohort: #""android": {"quotaRecheck": "0s"}"#),
                        path: "$.fleet[0].android.quotaRecheck", found: ["(zero)"])
        expectRejection(Fixtures.scenario(cohort: #""android": {"oemPolicy": "aggressive"}"#),
                        path: "$.fleet[0].android.oemPolicy", found: ["\"aggressive\""], expected: ["\"stock\" or an object"])
        expectRejection(Fixtures.scenario(cohort: #""android": {"oemPolicy": {"killsBackgroundApps": "0s"}}"#),
                        path: "$.fleet[0].android.oemPolicy.killsBackgroundApps", found: ["(zero)"])
        expectRejection(Fixtures.scenario(cohort: #""android": {"oemPolicy": {"killsApps": "10m"}}"#),
                        path: "$.fleet[0].android.oemPolicy.killsApps", expected: ["killsBackgroundApps"])
        expectRejection(Fixtures.scenario(cohort: #""android": {"oemPolicy": {}}"#),
                        path: "$.fleet[0].android.oemPolicy", found: ["an empty object"])
        expectRejection(Fixtures.scenario(cohort: #""android": {"oemPolicy": 10}"#),
                        path: "$.fleet[0].android.oemPolicy", expected: ["\"stock\" or an object"])
        expectRejection(Fixtures.scenario(cohort: #""android": {"batterySaverAuto": 1.5}"#),
                        path: "$.fleet[0].android.batterySaverAuto", found: ["1.5"], expected: ["a fraction"])
        expectRejection(Fixtures.scenario(cohort: #""android": {"batterySaverAuto": "30%"}"#),
                        path: "$.fleet[0].android.batterySaverAuto", expected: ["a fraction"])
        // `version`: a release with a modelled constant set, 12 to 15, as an integer.
        expectRejection(Fixtures.scenario(cohort: #""android": {"version": 11}"#),
                        path: "$.fleet[0].android.version", found: ["11"], expected: ["an Android version: 12, 13, 14 or 15"])
        expectRejection(Fixtures.scenario(cohort: #""android": {"version": 16}"#),
                        path: "$.fleet[0].android.version", found: ["16"], expected: ["12, 13, 14 or 15"])
        expectRejection(Fixtures.scenario(cohort: #""android": {"version": "15"}"#),
                        path: "$.fleet[0].android.version", expected: ["an Android version"])
        expectRejection(Fixtures.scenario(cohort: #""android": {"version": 14.5}"#),
                        path: "$.fleet[0].android.version", found: ["14.5"])
        expectRejection(Fixtures.scenario(cohort: #""android": {"alarmClock": {"share": 2}}"#),
                        path: "$.fleet[0].android.alarmClock.share", found: ["2"], expected: ["a fraction"])
        expectRejection(Fixtures.scenario(cohort: #""android": {"alarmClock": {"at": "7h"}}"#),
                        path: "$.fleet[0].android.alarmClock.at", expected: ["timeOfDay"])
        expectRejection(Fixtures.scenario(cohort: #""android": {"alarmClock": {"timeOfDay": 7}}"#),
                        path: "$.fleet[0].android.alarmClock.timeOfDay", expected: ["a distribution of durations"])
        expectRejection(Fixtures.scenario(cohort: #""android": {"dozeFactor": 2}"#),
                        path: "$.fleet[0].android.dozeFactor", expected: ["motionEventsPerDay"])
        expectRejection(Fixtures.scenario(cohort: #""usage": {"forceQuitProbability": 2}"#),
                        path: "$.fleet[0].usage.forceQuitProbability", found: ["2"])
        expectRejection(Fixtures.scenario(cohort: #""usage": {"screenSessionLength": 60}"#),
                        path: "$.fleet[0].usage.screenSessionLength")
        expectRejection(Fixtures.scenario(cohort: #""network": {"homeWiFi": true}"#),
                        path: "$.fleet[0].network.homeWiFi")
        expectRejection(#"{"name": "t", "duration": "7d", "fleet": [{"cohort": "a", "count": 1, "platform": "iOS"}]}"#,
                        path: "$.fleet[0].platform", found: ["did you mean `ios`?"])
    }

    /// `backend.stepStore.retentionDays`: whole days from 1 to 36,600, and no other key;
    /// absent, every date is kept.
    @Test func stepStoreRetentionIsValidated() throws {
        let kept = try Fixtures.decode(Fixtures.scenario(top: #""backend": {"stepStore": {"retentionDays": 36600}}"#))
        #expect(kept.backend.stepRetentionDays == 36_600)
        #expect(try Fixtures.decode(Fixtures.scenario()).backend.stepRetentionDays == nil)
        #expect(try Fixtures.decode(Fixtures.scenario(top: #""backend": {"stepStore": {"retentionDays": 1}}"#)).backend.stepRetentionDays == 1)
        for bad in ["0", "36601", "-5", "2.5", #""400d""#] {
            expectRejection(Fixtures.scenario(top: #""backend": {"stepStore": {"retentionDays": \#(bad)}}"#),
                            path: "$.backend.stepStore.retentionDays", expected: ["a retention in whole days: an integer from 1 to 36600"])
        }
        expectRejection(Fixtures.scenario(top: #""backend": {"stepStore": {"retentionDay": 30}}"#),
                        path: "$.backend.stepStore.retentionDay", found: ["did you mean `retentionDays`?"])
        expectRejection(Fixtures.scenario(top: #""backend": {"stepStore": 30}"#),
                        path: "$.backend.stepStore", expected: ["a step store object"])
    }

    @Test func stepSyncKeysAreStrict() {
        expectRejection(Fixtures.scenario(top: #""logic": {"stepSync": {"syncIntervall": "2h"}}"#),
                        path: "$.logic.stepSync.syncIntervall", found: ["did you mean `syncInterval`?"])
        expectRejection(Fixtures.scenario(top: #""logic": {"stepSync": {"backfillLimit": "367d"}}"#),
                        path: "$.logic.stepSync.backfillLimit", expected: ["at most 366 days"])
        expectRejection(Fixtures.scenario(top: #""logic": {"stepSync": {"retryDelays": ["5m", "0s"]}}"#),
                        path: "$.logic.stepSync.retryDelays[1]", expected: ["a positive duration"])
        expectRejection(Fixtures.scenario(top: #""logic": {"stepSync": {"retryDelays": "5m"}}"#),
                        path: "$.logic.stepSync.retryDelays", expected: ["an array of retry delays"])
        expectRejection(Fixtures.scenario(top: #""logic": {"stepSync": {"lowBatteryPercent": 101}}"#),
                        path: "$.logic.stepSync.lowBatteryPercent", expected: ["a whole percent"])
    }

    /// `fleet[].energy`: the CPU current above 0 and at most 5000 mA, launch costs 0 to 30 s,
    /// no other key; the defaults when absent, every key read when present.
    @Test func energyKeysAreStrictAndBounded() throws {
        expectRejection(Fixtures.scenario(cohort: #""energy": {"coldLaunh": "1s"}"#),
                        path: "$.fleet[0].energy.coldLaunh", found: ["did you mean `coldLaunch`?"])
        expectRejection(Fixtures.scenario(cohort: #""energy": {"cpuActiveMilliamps": 0}"#),
                        path: "$.fleet[0].energy.cpuActiveMilliamps", expected: ["above 0 and at most 5000"])
        expectRejection(Fixtures.scenario(cohort: #""energy": {"cpuActiveMilliamps": 5000.5}"#),
                        path: "$.fleet[0].energy.cpuActiveMilliamps", found: ["5000.5"], expected: ["at most 5000"])
        expectRejection(Fixtures.scenario(cohort: #""energy": {"coldLaunch": "30001ms"}"#),
                        path: "$.fleet[0].energy.coldLaunch", found: ["longer than 30s"], expected: ["from 0s to 30s"])
        expectRejection(Fixtures.scenario(cohort: #""energy": {"resume": "-1ms"}"#),
                        path: "$.fleet[0].energy.resume", found: ["negative"])
        expectRejection(Fixtures.scenario(cohort: #""energy": {"resume": 0.1}"#),
                        path: "$.fleet[0].energy.resume", found: ["needs a unit"])
        let read = try Fixtures.decode(Fixtures.scenario(cohort: #""energy": {"cpuActiveMilliamps": 5000, "coldLaunch": "30s", "resume": "0s"}"#))
        #expect(read.fleet[0].energy == EnergyConfig(cpuActiveMilliamps: 5000, coldLaunch: .seconds(30), resume: .zero))
        #expect(try Fixtures.decode(Fixtures.scenario()).fleet[0].energy == .defaults)
    }

    @Test func badCategoricalWeights() {
        expectRejection(Fixtures.scenario(cohort: #""timeZones": {"UTC": 0, "Europe/Berlin": 0}"#),
                        path: "$.fleet[0].timeZones", found: ["weights that sum to 0"])
        expectRejection(Fixtures.scenario(cohort: #""timeZones": {}"#), path: "$.fleet[0].timeZones", found: ["an empty object"])
        expectRejection(Fixtures.scenario(cohort: #""settings": {"notificationPermission": {"authorized": 1, "denied": -0.5}}"#),
                        path: "$.fleet[0].settings.notificationPermission.denied", found: ["a number -0.5"])
        expectRejection(Fixtures.scenario(cohort: #""settings": {"notificationPermission": {"authorised": 1}}"#),
                        path: "$.fleet[0].settings.notificationPermission.authorised", found: ["did you mean `authorized`?"])
        expectRejection(Fixtures.scenario(cohort: #""settings": {"notificationPermission": {"authorized": "1"}}"#),
                        path: "$.fleet[0].settings.notificationPermission.authorized", found: ["\"1\""])
        expectRejection(Fixtures.scenario(cohort: #""timeZones": {"UTC": 1e308, "GMT": 1e308}"#),
                        path: "$.fleet[0].timeZones", found: ["too large"])
    }

    @Test func badTimeZones() {
        expectRejection(Fixtures.scenario(cohort: #""timeZones": {"UTC": 1, "Mars/Olympus": 1}"#),
                        path: #"$.fleet[0].timeZones["Mars/Olympus"]"#, found: ["\"Mars/Olympus\""])
        expectRejection(Fixtures.scenario(top: #""faults": [{"kind": "timeZoneChange", "at": "1d", "to": "Europe/Berln"}]"#),
                        path: "$.faults[0].to", found: ["did you mean `Europe/Berlin`?"])
        expectRejection(Fixtures.scenario(cohort: "\"timeZones\": {\"../../etc/passwd\": 1}"),
                        path: #"$.fleet[0].timeZones["../../etc/passwd"]"#)
    }

    @Test func faultsMustNameACohortOfTheFleetAndUseTheirKindsKeys() {
        expectRejection(Fixtures.scenario(top: #""faults": [{"kind": "backendOutage", "at": "1d", "duration": "1h"}, {"kind": "networkOutage", "at": "1d", "duration": "1h", "cohort": "b"}]"#),
                        path: "$.faults[1].cohort", found: ["\"b\""], expected: ["\"a\""])
        // The reference is checked against the whole fleet even when faults come first.
        #expect(Fixtures.rejection(#"{"faults": [{"kind": "authExpiry", "at": "1d", "cohort": "z"}], "name": "t", "duration": "1d", "fleet": [{"cohort": "z", "count": 1, "platform": "ios"}]}"#) == nil)
        expectRejection(Fixtures.scenario(top: #""faults": [{"kind": "backendOutage", "at": "1d", "duration": "1h", "factor": 2}]"#),
                        path: "$.faults[0].factor", found: ["the unknown key \"factor\""], expected: ["`backendOutage` fault"])
        expectRejection(Fixtures.scenario(top: #""faults": [{"kind": "backendSlowdown", "at": "1d", "duration": "1h", "factor": 0}]"#),
                        path: "$.faults[0].factor", found: ["a number 0"])
        expectRejection(Fixtures.scenario(top: #""faults": [{"kind": "appTermination", "at": "1d", "rate": -1}]"#),
                        path: "$.faults[0].rate", found: ["a number -1"])
        expectRejection(Fixtures.scenario(top: #""faults": [{"kind": "lowPowerMode", "at": "1d", "duration": "1h", "fraction": 1.5}]"#),
                        path: "$.faults[0].fraction", found: ["a number 1.5"])
        // The backend is one server: it cannot be narrowed to devices, and an instant
        // fault has no duration to honour.
        expectRejection(Fixtures.scenario(top: #""faults": [{"kind": "backendSlowdown", "at": "1d", "duration": "1h", "factor": 3, "fraction": 0.5}]"#),
                        path: "$.faults[0].fraction", found: ["the unknown key \"fraction\""], expected: ["whole backend"])
        expectRejection(Fixtures.scenario(top: #""faults": [{"kind": "authExpiry", "at": "1d", "duration": "1h"}]"#),
                        path: "$.faults[0].duration", found: ["the unknown key \"duration\""], expected: ["instant"])
    }

    @Test func otherValueRules() {
        expectRejection(Fixtures.scenario(top: #""seed": 9007199254740993"#), path: "$.seed", found: ["9007199254740993"])
        expectRejection(Fixtures.scenario(top: #""seed": 1.5"#), path: "$.seed")
        expectRejection(Fixtures.scenario(top: #""seed": -1"#), path: "$.seed")
        expectRejection(Fixtures.scenario(top: #""start": "2026-02-30T00:00:00Z""#), path: "$.start")
        expectRejection(Fixtures.scenario(top: #""tieBreak": "lifo""#), path: "$.tieBreak", expected: ["\"fifo\" or \"shuffle\""])
        expectRejection(Fixtures.scenario(cohort: #""count": 1"#), path: "$.fleet[0].count", found: ["a second time"])
        expectRejection(Fixtures.scenario(top: #""backend": {"workers": 0}"#), path: "$.backend.workers", found: ["a number 0"])
        expectRejection(Fixtures.scenario(cohort: #""signedIn": true"#), path: "$.fleet[0].signedIn", found: ["true"])
        expectRejection(Fixtures.scenario(top: #""expect": [{"metric": "m", "min": 5, "max": "1s"}]"#), path: "$.expect[0].max")
        expectRejection(Fixtures.scenario(top: #""expect": [{"metric": "", "max": 1}]"#), path: "$.expect[0].metric", found: ["an empty string"])
        expectRejection(#"{"name": "../x", "duration": "7d", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}]}"#, path: "$.name")
        expectRejection(#"{"name": "t", "duration": "7d", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}, {"cohort": "a", "count": 2, "platform": "ios"}]}"#,
                        path: "$.fleet[1].cohort", found: ["already the name of $.fleet[0]"])
        expectRejection(#"{"name": "t", "duration": "7d", "fleet": [{"cohort": "a", "count": -3, "platform": "ios"}]}"#,
                        path: "$.fleet[0].count", found: ["a number -3"])
        expectRejection("[1, 2]", path: "$", found: ["an array of 2 elements"])
    }

    @Test func theFirstErrorInFileOrderIsReported() {
        expectRejection(#"{"name": "t", "duration": "-1h", "wibble": 1, "fleet": []}"#, path: "$.duration")
        expectRejection(#"{"wibble": 1, "name": "t", "duration": "-1h", "fleet": []}"#, path: "$.wibble")
        expectRejection(Fixtures.scenario(cohort: #""battery": {"charging": "never", "capacityMah": -1}"#),
                        path: "$.fleet[0].battery.charging", found: ["\"never\""])
    }

    @Test func truncatedJSONNamesTheLineAndColumn() {
        let text = String(Fixtures.full.prefix(300))
        expectRejection(text, path: #"$.fleet[0].timeZones"#, found: ["the end of the file at line 14, column 31"],
                        expected: ["valid JSON", "close the string"])
        let lines = Fixtures.full.split(separator: "\n", omittingEmptySubsequences: false)
        let cut = lines.prefix(3).joined(separator: "\n") + "\n  \"seed\": 4"
        expectRejection(cut, path: "$", found: ["the end of the file at line 4, column 12"])
        expectRejection("", path: "$", found: ["the end of the file at line 1, column 1"])
    }

    @Test func garbledBytesNameTheByteAndItsPosition() {
        var bytes = Array(#"{"name": "tÿ", "duration": "7d"}"#.utf8)
        if let i = bytes.firstIndex(of: 0xC3) { bytes.replaceSubrange(i...(i + 1), with: [0xFF]) }
        let e = Fixtures.rejection(bytes: bytes, file: "bad.json")
        #expect(e?.path == "$.name")
        #expect(e?.found == "the byte 0xFF (not valid UTF-8) at line 1, column 12")
        let e2 = Fixtures.rejection("{\"name\": \"t\",\n \"duration\": 7x}", file: "bad.json")
        #expect(e2?.path == "$")
        #expect(e2?.expected == "valid JSON: `,` or `}` after the value of \"duration\"")
        #expect(e2?.found == "\"x\" at line 2, column 15")
        let e3 = Fixtures.rejection(bytes: [0x7B, 0x00, 0x7D], file: "bad.json")
        #expect(e3?.found == "the control character 0x00 at line 1, column 2")
    }
}
