import Testing
import Foundation
import Reports
import SimKernel
@testable import Scenario
@testable import Simulation

/// Valid files decode to exactly the documented values and defaults.
@Suite struct ScenarioDecodingTests {
    static func us(_ d: SimDuration) -> Double { Double(d.microseconds) }

    static var fullLaunchPolicy: LaunchPolicyConfig {
        var p = LaunchPolicyConfig()
        p.opportunityGap = .minutes(10)
        p.baseAcceptance = 0.5
        p.chargingFactor = 2
        p.wifiFactor = 1
        p.usageLead = .zero
        p.budgetBase = 3
        p.budgetPerDailyOpen = 1
        p.budgetMax = 6
        return p
    }

    static var fullAndroid: AndroidConfig {
        var a = AndroidConfig()
        a.motionEventsPerDay = 2
        a.quotaRecheck = .minutes(5)
        a.oemKillAfterScreenOff = .minutes(10)
        a.batterySaverAuto = 0.75
        a.version = 15
        a.alarmClock.share = 0.25
        a.alarmClock.timeOfDay = .uniform(us(.hours(5)), us(.hours(9)))
        return a
    }

    @Test func fullScenarioDecodesEveryKey() throws {
        let s = try Fixtures.decode(Fixtures.full, file: "full.json")
        let rural = try #require(NetworkConfig.profile(named: "rural"))
        let urban = try #require(NetworkConfig.profile(named: "urban"))
        let daily = Cohort(
            name: "ios-daily", count: 10_000, platform: .ios, features: [.refresh],
            timeZones: Categorical([(value: "America/New_York", weight: 0.6), (value: "Europe/Berlin", weight: 0.4)]),
            battery: BatteryConfig(capacityMah: 4000, initialPercent: .normal(mean: 70, sd: 10), charging: .topUps),
            usage: UsageConfig(appOpensPerDay: 4, notificationOpenProbability: 0.3,
                               notificationOpenDelay: .exponential(mean: Self.us(.minutes(30))),
                               takeTestProbability: 0.8, testDuration: .minutes(20), screenSessionsPerDay: 60,
                               screenSessionLength: .constant(Self.us(.minutes(2))), forceQuitProbability: 0.25),
            network: NetworkConfig(profile: "rural", latency: rural.latency, failureRate: 0.1,
                                   offlineSpellsPerDay: 2, offlineSpellDuration: rural.offlineSpellDuration, homeWiFi: 0.4),
            settings: DeviceSettings(backgroundAppRefresh: 0.7, lowPowerMode: 0.2,
                                     notificationPermission: Categorical([(value: .authorized, weight: 3), (value: .denied, weight: 1),
                                                                          (value: .provisional, weight: 0)])),
            signedIn: 1, lastTestDaysAgo: .constant(89),
            ios: IOSConfig(launchPolicy: Self.fullLaunchPolicy, refreshRunLimit: .seconds(25),
                           earlyExpirationRate: 0.1, watchdogGrace: .zero, kvPersistDelay: .milliseconds(1500),
                           suspensionDelay: .seconds(30), throttlesForegroundBackgroundNotifications: false),
            android: Self.fullAndroid)
        var rareNetwork = urban
        rareNetwork.latency = .lognormal(median: Self.us(.milliseconds(100)), p99: Self.us(.seconds(1)))
        rareNetwork.offlineSpellDuration = .uniform(Self.us(.minutes(1)), Self.us(.minutes(2)))
        var rareBattery = BatteryConfig.defaults
        rareBattery.initialPercent = .lognormal(median: 50, p99: 90)
        var rareUsage = UsageConfig.defaults
        rareUsage.notificationOpenDelay = .normal(mean: Self.us(.hours(1)), sd: 0)
        let rare = Cohort(
            name: "ios-rare", count: 0, platform: .ios, features: ScenarioVocabulary.reference.defaultFeatures,
            timeZones: Categorical([(value: "UTC", weight: 1)]), battery: rareBattery, usage: rareUsage,
            network: rareNetwork, settings: .defaults, signedIn: 0.95, lastTestDaysAgo: .constant(3), ios: .defaults)
        let expected = Scenario(
            name: "full", description: "every key", seed: 42, startUnixSeconds: 1_772_800_215,
            duration: .days(7), tieBreak: .shuffle, fleet: [daily, rare],
            logic: { () -> LogicConfig in
                var logic = LogicConfig(variants: ["refresh.noSynchronize", "refresh.localCalendarDays"])
                logic.refresh = RefreshConfig(preferredInterval: .hours(6), minimumInterval: .hours(8), testCadence: .days(91),
                                              recentOpenSuppression: .zero, hardStop: .seconds(15))
                return logic
            }(),
            backend: BackendConfig(workers: 8, serviceTime: .uniform(Self.us(.milliseconds(10)), Self.us(.milliseconds(30))),
                                   queueLimit: 0, requestTimeout: .seconds(30), authTokenLifetime: .hours(12)),
            faults: [
                Fault(kind: .backendOutage, at: .days(2), duration: .hours(3), cohort: nil, fraction: 1),
                Fault(kind: .backendSlowdown(factor: 2.5), at: .days(1), duration: .hours(1), cohort: nil, fraction: 1),
                Fault(kind: .networkOutage, at: .zero, duration: .minutes(30), cohort: "ios-rare", fraction: 0.5),
                Fault(kind: .networkLatency(extra: .constant(Self.us(.milliseconds(500)))), at: .days(3), duration: .hours(2),
                      cohort: nil, fraction: 1),
                Fault(kind: .clockSkew(offset: .minutes(-90)), at: .days(4), duration: nil, cohort: "ios-daily", fraction: 0.1),
                Fault(kind: .timeZoneChange(to: "Asia/Tokyo"), at: .days(5), duration: nil, cohort: nil, fraction: 0.01),
                Fault(kind: .appTermination(ratePerDeviceDay: 0.5), at: .zero, duration: nil, cohort: nil, fraction: 1),
                Fault(kind: .appTermination(ratePerDeviceDay: 3), at: .days(1), duration: .hours(6), cohort: nil, fraction: 1),
                Fault(kind: .authExpiry, at: .days(6), duration: nil, cohort: nil, fraction: 1),
                Fault(kind: .lowPowerMode, at: .days(6), duration: .hours(12), cohort: nil, fraction: 0.3),
            ],
            expect: [
                Expectation(metric: "invariants.violations", min: nil, max: 0, maxText: "0"),
                Expectation(metric: "latency.testAvailableToNotified.p95", min: nil, max: 129_600, maxText: "36h"),
                Expectation(metric: "backend.requests", min: 1, max: 1_000_000, minText: "1", maxText: "1e6"),
            ],
            sourcePath: "full.json")
        #expect(s.fleet[0] == expected.fleet[0])
        #expect(s.fleet[1] == expected.fleet[1])
        #expect(s.faults == expected.faults)
        // The content hash is the file's JSON re-written without its layout.
        let relaid = try Fixtures.decode(try JSONParser.parse(Array(Fixtures.full.utf8)).text(sortingKeys: false), file: "elsewhere.json")
        #expect(s.contentHash.count == 16 && relaid.contentHash == s.contentHash)
        let edited = try Fixtures.decode(Fixtures.full.replacingOccurrences(of: "every key", with: "every key!"), file: "full.json")
        #expect(edited.contentHash != s.contentHash)
        var hashed = expected
        hashed.contentHash = s.contentHash
        #expect(s == hashed)
    }

    @Test func minimalScenarioGetsEveryDocumentedDefault() throws {
        let s = try Fixtures.decode(Fixtures.minimal, file: "min.json")
        #expect(s.name == "minimal")
        #expect(s.description == "")
        #expect(s.seed == 1)
        #expect(s.startUnixSeconds == 1_772_409_600)  // 2026-03-02T00:00:00Z
        #expect(s.duration == .days(1))
        #expect(s.tieBreak == .fifo)
        #expect(s.faults.isEmpty && s.expect.isEmpty)
        #expect(s.sourcePath == "min.json")

        let c = try #require(s.fleet.first)
        #expect(s.fleet.count == 1)
        #expect(c.name == "a" && c.count == 5 && c.platform == .ios)
        #expect(c.features == ScenarioVocabulary.reference.defaultFeatures)
        #expect(c.timeZones == Categorical([(value: "UTC", weight: 1)]))
        #expect(c.battery == BatteryConfig(capacityMah: 3300, initialPercent: .uniform(30, 100), charging: .overnight))
        #expect(c.usage == UsageConfig(appOpensPerDay: 2.5, notificationOpenProbability: 0.5,
                                       notificationOpenDelay: .lognormal(median: 1_200_000_000, p99: 43_200_000_000),
                                       takeTestProbability: 0.6, testDuration: .minutes(25), screenSessionsPerDay: 40,
                                       screenSessionLength: .lognormal(median: 60_000_000, p99: 1_800_000_000),
                                       forceQuitProbability: 0.05))
        #expect(c.network == NetworkConfig(profile: "urban", latency: .lognormal(median: 80_000, p99: 600_000),
                                           failureRate: 0.005, offlineSpellsPerDay: 0.5,
                                           offlineSpellDuration: .lognormal(median: 600_000_000, p99: 7_200_000_000),
                                           homeWiFi: 0.85))
        #expect(c.settings == DeviceSettings(
            backgroundAppRefresh: 0.9, lowPowerMode: 0.05,
            notificationPermission: Categorical([(value: .authorized, weight: 0.6), (value: .denied, weight: 0.3),
                                                 (value: .notDetermined, weight: 0.1)])))
        #expect(c.signedIn == 0.95)
        #expect(c.lastTestDaysAgo == .uniform(0, 120))
        var policy = LaunchPolicyConfig()
        policy.opportunityGap = .minutes(30)
        policy.baseAcceptance = 0.2
        policy.chargingFactor = 4
        policy.wifiFactor = 1.5
        policy.usageLead = .minutes(30)
        policy.budgetBase = 1
        policy.budgetPerDailyOpen = 2
        policy.budgetMax = 12
        #expect(c.ios == IOSConfig(launchPolicy: policy,
                                   refreshRunLimit: .seconds(30), earlyExpirationRate: 0.02,
                                   watchdogGrace: .seconds(5), kvPersistDelay: .seconds(10), suspensionDelay: .zero))
        #expect(c.android.motionEventsPerDay == 6 && c.android.quotaRecheck == .minutes(15) && c.android.oemKillAfterScreenOff == nil
                && c.android.batterySaverAuto == 0.3 && c.android.version == 14
                && c.android.alarmClock == AlarmClockUsage())

        #expect(s.logic.variants == [])
        #expect(s.logic.refresh == RefreshConfig(preferredInterval: .hours(4), minimumInterval: .hours(12),
                                                 testCadence: .days(90), recentOpenSuppression: .hours(24),
                                                 hardStop: .seconds(20)))
        #expect(s.logic.stepSync == StepSyncConfig(syncInterval: .hours(2), backfillLimit: .days(30),
                                                   retryDelays: [.minutes(5), .minutes(10), .minutes(15)],
                                                   openSyncAge: .hours(24), staleNotificationAge: .hours(24),
                                                   lowBatteryPercent: 15))
        #expect(s.backend == BackendConfig(workers: 64, serviceTime: .lognormal(median: 40_000, p99: 400_000),
                                           queueLimit: 10_000, requestTimeout: .seconds(60), authTokenLifetime: .days(30)))
    }

    @Test func interfaceExampleDecodes() throws {
        let s = try Fixtures.decode(Fixtures.interfaceExample)
        #expect(s.name == "baseline" && s.seed == 42 && s.fleet[0].count == 10_000)
        #expect(s.expect[1].max == 129_600)  // "36h" in seconds
    }

    @Test func networkProfilesMatchTheCatalogAndTheAssumptionTable() throws {
        #expect(NetworkConfig.profiles.map(\.profile) == Catalog.networkProfiles)
        let flaky = try #require(NetworkConfig.profile(named: "flaky"))
        #expect(flaky.latency == .lognormal(median: 400_000, p99: 5_000_000))
        #expect(flaky.failureRate == 0.08 && flaky.offlineSpellsPerDay == 6)
        #expect(flaky.offlineSpellDuration == .lognormal(median: 1_200_000_000, p99: 14_400_000_000))
        let commuter = try Fixtures.decode(Fixtures.scenario(cohort: "\"network\": {\"offlineSpellsPerDay\": 9, \"profile\": \"commuter\"}"))
        let n = commuter.fleet[0].network
        #expect(n.profile == "commuter" && n.offlineSpellsPerDay == 9 && n.failureRate == 0.01)
        #expect(n.latency == .lognormal(median: 150_000, p99: 1_500_000))
    }

    @Test func bareValuesAreConstantDistributions() throws {
        let s = try Fixtures.decode(Fixtures.scenario(
            top: "\"backend\": {\"serviceTime\": \"25ms\"}",
            cohort: "\"lastTestDaysAgo\": 45, \"battery\": {\"initialPercent\": 80}"))
        #expect(s.backend.serviceTime == .constant(25_000))
        #expect(s.fleet[0].lastTestDaysAgo == .constant(45))
        #expect(s.fleet[0].battery.initialPercent == .constant(80))
    }

    @Test func seedsAndStartTimes() throws {
        #expect(try Fixtures.decode(Fixtures.scenario(top: "\"seed\": 9007199254740992")).seed == 1 << 53)
        #expect(try Fixtures.decode(Fixtures.scenario(top: "\"seed\": 0")).seed == 0)
        #expect(try Fixtures.decode(Fixtures.scenario(top: "\"seed\": 1e3")).seed == 1000)
        #expect(UTCTimestamp.parse("1970-01-01T00:00:00Z") == 0)
        #expect(UTCTimestamp.parse("2024-02-29T23:59:59Z") == 1_709_251_199)
        #expect(UTCTimestamp.parse("1969-12-31T23:59:59Z") == -1)
        for bad in ["2025-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-03-02T24:00:00Z", "2026-03-02T00:00:60Z",
                    "2026-03-02 00:00:00Z", "2026-03-02T00:00:00", "0000-01-01T00:00:00Z", "2026-3-2T00:00:00Z"] {
            #expect(UTCTimestamp.parse(bad) == nil, "\(bad)")
        }
        for t: Int64 in [0, -1, 1_772_409_600, 253_402_300_799, -62_135_596_800] {
            #expect(UTCTimestamp.parse(UTCTimestamp.format(t)) == t)
        }
    }

    @Test func scalingRoundsEachCohortAndNeverTraps() throws {
        let s = try Fixtures.decode(Fixtures.full)
        #expect(s.scaled(by: 0.01).fleet.map(\.count) == [100, 0])
        #expect(s.scaled(by: 0.00005).fleet.map(\.count) == [1, 0])  // 0.5 rounds away from zero
        #expect(s.scaled(by: 0.00004).fleet.map(\.count) == [0, 0])
        #expect(s.scaled(by: -1).fleet.map(\.count) == [0, 0])
        #expect(s.scaled(by: .nan).fleet.map(\.count) == [0, 0])
        #expect(s.scaled(by: .infinity).fleet.map(\.count) == [1 << 62, 0])
        #expect(s.scaled(by: 1) == s)
    }

    @Test func loadReadsAFileAndReportsUnreadableOnes() throws {
        let path = "/tmp/fleetsim-scenario-test-\(Fixtures.minimal.utf8.count).json"
        try Array(Fixtures.minimal.utf8).withUnsafeBufferPointer { buffer in
            let f = try #require(fopen(path, "wb"))
            defer { fclose(f) }
            #expect(fwrite(buffer.baseAddress, 1, buffer.count, f) == buffer.count)
        }
        defer { remove(path) }
        let s = try ScenarioDecoder.load(path: path, vocabulary: .reference)
        #expect(s.name == "minimal" && s.sourcePath == path)

        for missing in ["/nonexistent/scenario.json", "/tmp"] {
            do {
                _ = try ScenarioDecoder.load(path: missing, vocabulary: .reference)
                Issue.record("loaded \(missing)")
            } catch {
                #expect(error.file == missing && error.path == "$" && error.expected == "a readable scenario file")
            }
        }
    }
}
