import Reports
import Scenario
import SimKernel
import Simulation

/// A world of the runner's logic set, as the commands hold it. Its calls are closures
/// made where the set's type is known (``init(_:)``, reached from
/// ``Engine/init(logics:)``), so each reaches `World<Logics>`'s code specialised for the
/// set, by cross-module optimisation, in the runner's own build: `fleetsim`'s and an
/// app's alike (docs/harness.md, "Your runner's speed"). A protocol existential would
/// call the generic witness of a generic conformance instead: an app's runner then ran
/// the world unspecialised, 60 % more instructions.
struct SimulatedWorld {
    /// The world, shared by the closures that call it.
    private final class Cell<Logics: LogicSet> {
        var world: World<Logics>
        init(_ world: World<Logics>) { self.world = world }
    }

    let end: SimTime
    let deviceCount: Int
    private let setObserver: (((DeliveredEvent) -> Void)?) -> Void
    private let setRecorder: (RequestRecorder?) -> Void
    private let events: () -> UInt64
    private let traced: () -> [(time: SimTime, line: String)]
    private let runUntil: (SimTime) -> Void
    private let advanceUntil: (SimTime) -> Void
    private let runAll: () -> Void
    private let judge: () throws(ScenarioError) -> RunOutcome

    init<Logics: LogicSet>(_ world: World<Logics>) {
        let cell = Cell(world)
        end = world.end
        deviceCount = world.deviceCount
        setObserver = { cell.world.eventObserver = $0 }
        setRecorder = { cell.world.requestRecorder = $0 }
        events = { cell.world.eventsProcessed }
        traced = { cell.world.trace }
        runUntil = { cell.world.run(until: $0) }
        advanceUntil = { cell.world.advance(until: $0) }
        runAll = { cell.world.runToEnd() }
        judge = { () throws(ScenarioError) -> RunOutcome in try cell.world.report() }
    }

    /// Hands each event as it is delivered to `observer` (`run --record-events`).
    func observeEvents(_ observer: ((DeliveredEvent) -> Void)?) { setObserver(observer) }
    /// Hands each request as it is served to `recorder` (`run --record-requests`, shards).
    func recordRequests(_ recorder: RequestRecorder?) { setRecorder(recorder) }
    var eventsProcessed: UInt64 { events() }
    var trace: [(time: SimTime, line: String)] { traced() }
    func run(until limit: SimTime) { runUntil(limit) }
    func advance(until limit: SimTime) { advanceUntil(limit) }
    func runToEnd() { runAll() }
    func report() throws(ScenarioError) -> RunOutcome { try judge() }
}

/// The logic set a runner simulates (``FleetSimCommandLine/main(logics:runner:)``):
/// its worlds and the names its scenarios may use.
struct Engine: @unchecked Sendable {
    /// A metatype is a constant; `@unchecked` only because `LogicSet` does not require
    /// `SendableMetatype`.
    let logics: any LogicSet.Type
    private let make: (Scenario, Int?, ShardPlan) -> SimulatedWorld
    /// What the scenario decoder accepts for this set: its variants and the judges' rules
    /// `judges.off` may name.
    let vocabulary: ScenarioVocabulary

    init<Logics: LogicSet>(logics: Logics.Type) {
        self.logics = logics
        make = { SimulatedWorld(World<Logics>(scenario: $0, traceDevice: $1, shard: $2)) }
        vocabulary = World<Logics>.scenarioVocabulary
    }

    static let reference = Engine(logics: ReferenceLogics.self)

    /// A world of this set for `scenario`.
    func world(_ scenario: Scenario, traceDevice: Int? = nil, shard: ShardPlan = .whole) -> SimulatedWorld {
        make(scenario, traceDevice, shard)
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
}
