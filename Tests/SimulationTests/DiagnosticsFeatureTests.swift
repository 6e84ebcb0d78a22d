import Testing
import SimKernel
import AppLogic
import Scenario
import Reports
@testable import Simulation

/// The reference diagnostics upload with the power requirement dropped from what it asks
/// the OS for, its spec unchanged: the known bug the judge must catch.
struct PowerBlindDiagnostics: DiagnosticsLogicProtocol {
    let reference = DiagnosticsLogic()
    var spec: DiagnosticsSpec { reference.spec }

    func handle(_ input: DiagnosticsInput, state: inout DiagnosticsState, now: DeviceTime, into effects: inout [DiagnosticsEffect]) {
        let first = effects.count
        reference.handle(input, state: &state, now: now, into: &effects)
        for k in first..<effects.count {
            if case .schedule(let after, var constraints) = effects[k] {
                constraints.remove(.charging)
                effects[k] = .schedule(after: after, constraints: constraints)
            }
        }
    }
}

/// The reference logic set with ``PowerBlindDiagnostics``.
struct PowerBlindLogics: LogicSet {
    let base: ReferenceLogics
    var refresh: RefreshLogic { base.refresh }
    var stepSync: StepSyncLogic { base.stepSync }
    var continuation: ContinuationLogic { base.continuation }
    var badge: BadgeManager { base.badge }
    var push: PushRouter { base.push }
    var diagnostics: PowerBlindDiagnostics { PowerBlindDiagnostics() }
    static var variantNames: [String] { [] }
    init(_ logic: LogicConfig) { base = ReferenceLogics(logic) }
}

/// The nightly diagnostics upload, the feature added through the protocol
/// (docs/architecture.md, "Adding a feature, counted again"): its work runs on both OSes
/// only on external power and (Android) an unmetered network, a day apart; its judge
/// catches a logic that drops the power requirement and is silent on the reference; its
/// keys are in a report only when a cohort runs it.
@Suite struct DiagnosticsFeatureTests {
    static func scenario(_ platform: String, features: String = #""features": ["refresh", "diagnostics"],"#, days: Int = 4,
                         charging: String = "overnight") throws -> Scenario {
        try Fixtures.decode("""
        {"name": "diagnostics", "duration": "\(days)d", "seed": 11,
         "fleet": [{"cohort": "c", "count": 16, "platform": "\(platform)", \(features) "signedIn": 1,
                    "battery": {"charging": "\(charging)"},
                    "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0}}]}
        """)
    }

    /// One run of the work on a device, as the world's ground truth saw it at the launch.
    struct Run { let device: Int, at: SimTime, plugged: Bool, onWiFi: Bool }

    /// Runs `world` event by event, noting each device's runs of the work: the moment the
    /// logic heard a launch (its state counts them), with the charger and the network then.
    static func runs<L: LogicSet>(_ world: inout Simulation.World<L>) -> [Run] where L.Diagnostics.State == DiagnosticsState {
        world.advance(until: .zero)
        var seen = [UInt32](repeating: 0, count: world.deviceCount), runs: [Run] = []
        while let event = world.core.clock.next(before: world.end) {
            world.step(event)
            // A launch adds one; a termination's fresh state goes back to 0.
            for i in seen.indices where world.features.diagnostics.states[i].issued != seen[i] {
                if world.features.diagnostics.states[i].issued == seen[i] &+ 1 {
                    runs.append(Run(device: i, at: world.now, plugged: world.core.isCharging(i), onWiFi: world.core.onWiFi(i, at: world.now)))
                }
                seen[i] = world.features.diagnostics.states[i].issued
            }
        }
        world.run(until: world.end)
        return runs
    }

    /// Every run of the reference's work is on the charger (and on Android on Wi-Fi, the
    /// unmetered network), at least a day after the device's previous one; every device
    /// runs it; the judge is silent.
    @Test(arguments: ["ios", "android"]) func theReferenceRunsOnPowerAndUnmeteredADayApart(_ platform: String) throws {
        var world = Simulation.World<ReferenceLogics>(scenario: try Self.scenario(platform))
        let runs = Self.runs(&world)
        // iOS has no unmetered requirement: every phone runs it; Android only those with
        // Wi-Fi at home, every one of them.
        let ran = Set(runs.map(\.device))
        let unmetered = Set((0..<world.deviceCount).filter { platform == "ios" || world.core.devices[$0].homeWiFi })
        #expect(ran == unmetered && unmetered.count > world.deviceCount / 2, "ran: \(ran.sorted()), unmetered: \(unmetered.sorted())")
        #expect(runs.allSatisfy { $0.plugged })
        if platform == "android" { #expect(runs.allSatisfy { $0.onWiFi }) }
        for d in 0..<world.deviceCount {
            let times = runs.filter { $0.device == d }.map(\.at)
            for (a, b) in zip(times, times.dropFirst()) { #expect(b - a >= .hours(24), "device \(d): runs at \(a) and \(b)") }
        }
        let m = world.features.diagnostics.metrics
        #expect(m.runs == UInt64(runs.count) && m.uploads == m.runs)
        #expect(world.core.oracle.counts[ViolationKind.diagnosticsUploadedOffPower.index] == 0)
    }

    /// The logic that drops the power requirement has its work run on battery on both OSes,
    /// and the judge catches each such upload; the reference on the same phones is clean.
    @Test(arguments: ["ios", "android"]) func theJudgeCatchesAnUploadOnBattery(_ platform: String) throws {
        // Phones topped up now and then: at home on Wi-Fi, often on battery.
        var world = Simulation.World<PowerBlindLogics>(scenario: try Self.scenario(platform, charging: "topUps"))
        let runs = Self.runs(&world)
        let onBattery = runs.filter { !$0.plugged }.count
        #expect(onBattery > 0)
        #expect(world.core.oracle.counts[ViolationKind.diagnosticsUploadedOffPower.index] == UInt64(onBattery))
        // The reference on the same phones: every run on the charger, the judge silent.
        var reference = Simulation.World<ReferenceLogics>(scenario: try Self.scenario(platform, charging: "topUps"))
        let referenceRuns = Self.runs(&reference)
        #expect(!referenceRuns.isEmpty && referenceRuns.allSatisfy { $0.plugged })
        #expect(reference.core.oracle.counts[ViolationKind.diagnosticsUploadedOffPower.index] == 0)
    }

    /// On iOS the work's processing request is pending under its own identifier beside
    /// the refresh's request, and the task it launches is its own.
    @Test func onIOSItsRequestIsPendingBesideTheRefreshs() throws {
        var world = Simulation.World<ReferenceLogics>(scenario: try Self.scenario("ios", days: 2))
        world.run(until: .zero + .hours(1))
        #expect((0..<world.deviceCount).allSatisfy { world.taskRequestPending(UInt32($0), .refresh) && world.taskRequestPending(UInt32($0), .diagnostics) })
        // The reference asked for what the work declares: a processing request on external power and a network.
        let declared = world.featureWorkRequest(.diagnostics)
        #expect(declared.iosKind == .bgProcessingTask && declared.interval == .hours(24))
        #expect(world.core.requests(0).classes[Int(WorkID.diagnostics.rawValue)] == RequestClass(.bgProcessingTask, requirements: declared.constraints))
        #expect(declared.constraints.contains(.charging) && declared.constraints.contains(.networkConnected))
    }

    /// report.json has the feature's section, endpoint rows and rule only where a cohort
    /// runs it, and report.md its section; either report is one this build's schema accepts.
    @Test func itsReportKeysArePresentOnlyWhenACohortRunsIt() throws {
        for (features, present) in [(#""features": ["refresh"],"#, false), (#""features": ["refresh", "diagnostics"],"#, true)] {
            var world = Simulation.World<ReferenceLogics>(scenario: try Self.scenario("android", features: features, days: 2))
            world.runToEnd()
            let r = try world.report().report
            for path in ["diagnostics.uploads", "backend.requests.byEndpoint./v1/diagnostics", "backend.queue.byEndpoint./v1/diagnostics",
                         "backend.load.requests./v1/diagnostics", "backend.load.apiBusyByEndpoint./v1/diagnostics",
                         "backend.load.peak.byEndpoint./v1/diagnostics", "invariants.byKind.diagnosticsUploadedOffPower",
                         "battery.c.energyPerDiagnosticsRun.count"] {
                #expect((r.lookup(path) != nil) == present, "\(path) with \(features)")
            }
            #expect(ReportSections.build(r, features: ReferenceWorld.reportSections).contains { $0.id == "diagnostics" } == present)
            try ReportConsistency.check(r, name: "report.json", schema: ReferenceWorld.reportSchema)
        }
    }
}
