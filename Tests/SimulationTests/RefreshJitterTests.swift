import Testing
import SimKernel
import AppLogic
import Scenario
import Reports
@testable import Simulation

/// How far a test refresh moves each next request from now + the preferred interval.
protocol RefreshOffset { static var offset: Interval { get } }

/// The reference refresh with each `earliestBeginDate` moved by `Offset.offset`, whose
/// spec declares a jitter of 0 to 30 min: an app's own refresh, as a logic set runs it.
struct JitteredRefresh<Offset: RefreshOffset>: RefreshLogicProtocol {
    let reference: RefreshLogic
    let spec: RefreshSpec

    init(_ logic: LogicConfig) {
        reference = ReferenceLogics(logic).refresh
        var spec = reference.spec
        spec.earliestBeginJitter = .zero ... .minutes(30)
        self.spec = spec
    }

    func handle(_ input: RefreshInput, state: inout RefreshState, now: DeviceTime, into effects: inout [RefreshEffect]) {
        let first = effects.count
        reference.handle(input, state: &state, now: now, into: &effects)
        for k in first..<effects.count {
            if case .scheduleRefresh(let earliest) = effects[k] { effects[k] = .scheduleRefresh(earliestBegin: earliest + Offset.offset) }
        }
    }
}

/// The reference logic set with ``JitteredRefresh``; `Off` switches judges off.
struct JitteredLogics<Offset: RefreshOffset>: LogicSet {
    let refresh: JitteredRefresh<Offset>
    let stepSync: StepSyncLogic
    let continuation: ContinuationLogic
    let badge: BadgeManager
    let push: PushRouter
    static var variantNames: [String] { [] }

    init(_ logic: LogicConfig) {
        let reference = ReferenceLogics(logic)
        refresh = JitteredRefresh(logic)
        stepSync = reference.stepSync
        continuation = reference.continuation
        badge = reference.badge
        push = reference.push
    }
}

enum AtTheUpperEnd: RefreshOffset { static var offset: Interval { .minutes(30) } }
enum OneSecondPastTheUpperEnd: RefreshOffset { static var offset: Interval { .minutes(30) + .seconds(1) } }
enum OneSecondEarly: RefreshOffset { static var offset: Interval { .seconds(-1) } }

/// The same set declaring that its spec has no rule for the date of the next request.
struct UndatedLogics: LogicSet {
    let base: JitteredLogics<OneSecondPastTheUpperEnd>
    var refresh: JitteredRefresh<OneSecondPastTheUpperEnd> { base.refresh }
    var stepSync: StepSyncLogic { base.stepSync }
    var continuation: ContinuationLogic { base.continuation }
    var badge: BadgeManager { base.badge }
    var push: PushRouter { base.push }
    static var variantNames: [String] { [] }
    static var judgesOff: [JudgeOff] { [JudgeOff(rule: "refreshRequestDateWrong", reason: "the app dates its next refresh freely")] }
    init(_ logic: LogicConfig) { base = JitteredLogics(logic) }
}

/// The refresh judge reads the jitter the logic set declares (docs/architecture.md, "The
/// spec the judges read"): a set whose refresh asks for its next run at the top of the
/// declared range runs clean on iOS and Android; one second past it, or one second
/// before the preferred interval, is caught on every request.
@Suite struct RefreshJitterTests {
    static let json = """
        {"name": "jitter", "duration": "2d", "seed": 3,
         "fleet": [{"cohort": "i", "count": 6, "platform": "ios", "features": ["refresh"], "signedIn": 1,
                    "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0}},
                   {"cohort": "a", "count": 6, "platform": "android", "features": ["refresh"], "signedIn": 1}]}
        """

    static func run<Logics: LogicSet>(_: Logics.Type, _ json: String = json) throws -> Simulation.World<Logics> {
        var world = Simulation.World<Logics>(scenario: try Fixtures.decode(json))
        world.runToEnd()
        return world
    }

    static func count<Logics>(_ world: Simulation.World<Logics>, _ kind: ViolationKind) -> UInt64 {
        world.core.oracle.counts[ViolationKind.allCases.firstIndex(of: kind)!]
    }

    @Test func jitterInsideTheDeclaredRangeIsClean() throws {
        let world = try Self.run(JitteredLogics<AtTheUpperEnd>.self)
        #expect(world.core.oracle.checked > 0)
        #expect(world.core.oracle.violations == 0, "\(world.core.oracle.sampleList.prefix(3).map(\.detail))")
    }

    @Test func oneSecondPastTheDeclaredRangeIsCaught() throws {
        let world = try Self.run(JitteredLogics<OneSecondPastTheUpperEnd>.self)
        #expect(Self.count(world, .refreshRequestDateWrong) > 0)
        #expect(world.core.oracle.violations == Self.count(world, .refreshRequestDateWrong))
        let detail = world.core.oracle.sampleList.first?.detail ?? ""
        #expect(detail.contains("not 4.0 h to 4.5 h"), "\(detail)")
    }

    @Test func oneSecondBeforeTheDeclaredRangeIsCaught() throws {
        let world = try Self.run(JitteredLogics<OneSecondEarly>.self)
        #expect(Self.count(world, .refreshRequestDateWrong) > 0)
    }

    /// Android's periodic refresh work is enqueued with the interval the logic declares,
    /// not the scenario's: a set whose spec says 6 h is asked for every 6 h.
    @Test func androidsPeriodicWorkHasTheLogicsInterval() throws {
        struct SixHours: LogicSet {
            let reference: ReferenceLogics
            var refresh: RefreshLogic
            var stepSync: StepSyncLogic { reference.stepSync }
            var continuation: ContinuationLogic { reference.continuation }
            var badge: BadgeManager { reference.badge }
            var push: PushRouter { reference.push }
            static var variantNames: [String] { [] }
            init(_ logic: LogicConfig) {
                reference = ReferenceLogics(logic)
                refresh = reference.refresh
                refresh.config.preferredInterval = .hours(6)
            }
        }
        let world = Simulation.World<SixHours>(scenario: try Fixtures.decode(Self.json))
        #expect(world.refreshWork.interval == .hours(6))
        #expect(Simulation.World<ReferenceLogics>(scenario: try Fixtures.decode(Self.json)).refreshWork.interval == .hours(4))
    }
}

/// A judge switched off by name (docs/architecture.md, "A judge switched off"): by the
/// scenario's `judges.off` or by the logic set, its rule records no violation and the
/// report says which and why; an unknown rule or an empty reason is refused with its path.
@Suite struct JudgesOffTests {
    static func scenario(off: String) -> String {
        RefreshJitterTests.json.replacingOccurrences(of: "\"seed\": 3,", with: "\"seed\": 3, \"judges\": {\"off\": [\(off)]},")
    }

    @Test func aRuleSwitchedOffByTheScenarioIsSilentAndPrinted() throws {
        let json = Self.scenario(off: "{\"rule\": \"refreshRequestDateWrong\", \"reason\": \"jittered by design\"}")
        let world = try RefreshJitterTests.run(JitteredLogics<OneSecondPastTheUpperEnd>.self, json)
        #expect(world.core.oracle.violations == 0)
        let outcome = try world.report()
        #expect(outcome.report.lookup("judges.off.refreshRequestDateWrong") == .string("jittered by design"))
        let markdown = ReportDocuments.markdown(outcome, wallSeconds: nil)
        #expect(markdown.contains("refreshRequestDateWrong") && markdown.contains("jittered by design"))
        #expect(throws: Never.self) { try ReportConsistency.check(outcome.report, name: "off", schema: Simulation.World<ReferenceLogics>.reportSchema) }
    }

    @Test func aRuleSwitchedOffByTheLogicSetIsSilentAndPrinted() throws {
        let world = try RefreshJitterTests.run(UndatedLogics.self)
        #expect(world.core.oracle.violations == 0)
        #expect(try world.report().report.lookup("judges.off.refreshRequestDateWrong") == .string("the app dates its next refresh freely"))
    }

    /// A run with every judge on has no `judges` section (the reference's reports keep their bytes).
    @Test func aRunWithEveryJudgeOnHasNoJudgesSection() throws {
        let world = try RefreshJitterTests.run(JitteredLogics<AtTheUpperEnd>.self)
        #expect(try world.report().report.lookup("judges") == nil)
    }

    @Test(arguments: [
        ("{\"rule\": \"refreshRequestDateRong\", \"reason\": \"x\"}", "$.judges.off[0].rule", "did you mean `refreshRequestDateWrong`?"),
        ("{\"rule\": \"refreshRequestDateWrong\", \"reason\": \"\"}", "$.judges.off[0].reason", "non-empty"),
        ("{\"rule\": \"refreshRequestDateWrong\"}", "$.judges.off[0].reason", "missing"),
        ("{\"rule\": \"taskCompletedTwice\", \"reason\": \"a\"}, {\"rule\": \"taskCompletedTwice\", \"reason\": \"b\"}", "$.judges.off[1]", "a second time"),
    ])
    func aBadJudgeIsRefusedWithItsPath(_ off: String, _ path: String, _ words: String) {
        do {
            _ = try ScenarioDecoder.decode(Array(Self.scenario(off: off).utf8), file: "judges.json", vocabulary: Simulation.World<ReferenceLogics>.scenarioVocabulary)
            Issue.record("accepted \(off)")
        } catch {
            #expect(error.path == path, "\(error.description)")
            #expect(error.description.contains(words), "\(error.description)")
            #expect(error.description.contains("judges.json"))
        }
    }

    /// A shard whose judges differ from the others' is of another run: merge refuses it.
    @Test func mergeRefusesShardsWhoseJudgesDiffer() throws {
        let json = """
            {"name": "judged shards", "duration": "1d", "seed": 3,
             "judges": {"off": [{"rule": "refreshRequestDateWrong", "reason": "jittered by design"}]},
             "fleet": [{"cohort": "i", "count": 4, "platform": "ios", "signedIn": 1}, {"cohort": "a", "count": 4, "platform": "android", "signedIn": 1}]}
            """
        let shards = try (0..<2).map { k in
            var world = Simulation.World<ReferenceLogics>(scenario: try Fixtures.decode(json), shard: ShardPlan(index: k, count: 2))
            world.runToEnd()
            return try world.report().report
        }
        #expect(throws: Never.self) { try ReportMerge.merge([("s0", shards[0]), ("s1", shards[1])], rules: Simulation.World<ReferenceLogics>.mergeRules) }
        guard case .object(var second) = shards[1] else { Issue.record("not an object"); return }
        second["judges"] = nil
        do {
            _ = try ReportMerge.merge([("s0", shards[0]), ("s1", .object(second))], rules: Simulation.World<ReferenceLogics>.mergeRules)
            Issue.record("merged shards whose judges differ")
        } catch {
            #expect(error.message.contains("judges.off.refreshRequestDateWrong"), "\(error.message)")
        }
    }
}
