import Reports
import Scenario
import SimKernel
import Simulation

/// What a command needs of a world, whatever logic set it runs: the commands hold a
/// world as `any SimulatedWorld`, one dynamic call per step of a run; inside each call
/// the world of a set is its own specialised code (``World`` is prespecialised for
/// ``ReferenceLogics``; an app's runner specialises its own with cross-module
/// optimisation; docs/harness.md, "The runner").
protocol SimulatedWorld {
    var eventObserver: ((DeliveredEvent) -> Void)? { get set }
    var requestRecorder: RequestRecorder? { get set }
    var end: SimTime { get }
    var eventsProcessed: UInt64 { get }
    var deviceCount: Int { get }
    var trace: [(time: SimTime, line: String)] { get }
    mutating func run(until limit: SimTime)
    mutating func advance(until limit: SimTime)
    mutating func runToEnd()
    func report() throws(ScenarioError) -> RunOutcome
}

extension World: SimulatedWorld {}

/// The logic set a runner simulates (``FleetSimCommandLine/main(logics:runner:)``):
/// its worlds and the names its scenarios may use.
struct Engine: @unchecked Sendable {
    /// A metatype is a constant; `@unchecked` only because `LogicSet` does not require
    /// `SendableMetatype`.
    let logics: any LogicSet.Type

    static let reference = Engine(logics: ReferenceLogics.self)

    /// A world of this set for `scenario`. The reference's is held by a concrete type, so
    /// that each call reaches World<ReferenceLogics>'s prespecialised code, not the
    /// generic one a witness of `World: SimulatedWorld` would call.
    func world(_ scenario: Scenario, traceDevice: Int? = nil, shard: ShardPlan = .whole) -> any SimulatedWorld {
        if logics == ReferenceLogics.self { return ReferenceSimulatedWorld(world: ReferenceWorld(scenario: scenario, traceDevice: traceDevice, shard: shard)) }
        func make<L: LogicSet>(_: L.Type) -> any SimulatedWorld { World<L>(scenario: scenario, traceDevice: traceDevice, shard: shard) }
        return make(logics)
    }

    /// `scenario` run to its end, and its outcome.
    func outcome(_ scenario: Scenario) throws(ScenarioError) -> RunOutcome {
        var world = world(scenario)
        world.runToEnd()
        return try world.report()
    }

    /// The features' sections of report.md and report.html (``World/reportSections``).
    var reportSections: [FeatureSection] {
        func of<L: LogicSet>(_: L.Type) -> [FeatureSection] { World<L>.reportSections }
        return of(logics)
    }

    /// The known-bug variants this set plants (`logic.variants`, `--variants`).
    var variantNames: [String] { logics.variantNames }

    /// The violation kind that names each of its variants' bug (``LogicSet/variantKinds``).
    var variantKinds: [String: String] { logics.variantKinds }

    /// What the scenario decoder accepts for this set: its variants and the judges' rules
    /// `judges.off` may name.
    var vocabulary: ScenarioVocabulary {
        func of<L: LogicSet>(_: L.Type) -> ScenarioVocabulary { World<L>.scenarioVocabulary }
        return of(logics)
    }
}

/// World<ReferenceLogics> behind concrete calls (``Engine/world(_:traceDevice:shard:)``).
struct ReferenceSimulatedWorld: SimulatedWorld {
    var world: ReferenceWorld

    var eventObserver: ((DeliveredEvent) -> Void)? {
        get { world.eventObserver }
        set { world.eventObserver = newValue }
    }
    var requestRecorder: RequestRecorder? {
        get { world.requestRecorder }
        set { world.requestRecorder = newValue }
    }
    var end: SimTime { world.end }
    var eventsProcessed: UInt64 { world.eventsProcessed }
    var deviceCount: Int { world.deviceCount }
    var trace: [(time: SimTime, line: String)] { world.trace }
    mutating func run(until limit: SimTime) { world.run(until: limit) }
    mutating func advance(until limit: SimTime) { world.advance(until: limit) }
    mutating func runToEnd() { world.runToEnd() }
    func report() throws(ScenarioError) -> RunOutcome { try world.report() }
}
