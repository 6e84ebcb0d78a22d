import SimKernel
import Scenario

/// Seed `001`'s priorities, by name (`PushPriority` of the logic, which Scenario does not import).
public enum PushPriorityName: String, Sendable, Equatable, CaseIterable { case low, normal, high, blocking }

/// Seed `001`'s preference categories, by name ("Push Notification Preferences").
public enum PushCategoryName: String, Sendable, Equatable, CaseIterable { case assignments, challenges, messages, announcements }

/// A top-level `broadcasts` entry: one notification to every push user of the fleet, or
/// of one cohort (an organisation), or a `fraction` of them, at one instant.
public struct Broadcast: Sendable, Equatable {
    public var at: SimDuration
    public var priority: PushPriorityName
    public var category: PushCategoryName
    /// Narrow to one cohort (by name): the organisation.
    public var cohort: String?
    public var fraction: Double
}

/// The top-level `broadcasts` (seed `001`; docs/scenario.md): each needs `at` (≥ 0), takes
/// `priority` (default `"normal"`), `category` (default `"announcements"`), `cohort` and
/// `fraction` (default 1); a `cohort` must name one of the fleet's.
public struct Broadcasts: ScenarioSection {
    public var list: [Broadcast]
    /// Where each broadcast's `cohort` is written, for the check against the fleet.
    var cohortNodes: [ScenarioNode?] = []

    public init(_ list: [Broadcast]) { self.list = list }

    public static let defaults = Broadcasts([])

    /// The broadcasts alone: where the file wrote them is not the scenario.
    public static func == (a: Broadcasts, b: Broadcasts) -> Bool { a.list == b.list }

    static let keys = ["at", "priority", "category", "cohort", "fraction"]
    static let broadcastsExpected = "an array of broadcasts, e.g. [{\"at\": \"2h\", \"priority\": \"high\", \"category\": \"announcements\", \"fraction\": 1}]"
    /// Put a limit on everything: at most this many broadcasts.
    static let maximumBroadcasts = 1_000

    public static func decode(_ node: ScenarioNode) throws(ScenarioError) -> Broadcasts {
        let elements = try node.elements(broadcastsExpected)
        guard elements.count <= maximumBroadcasts else {
            throw node.error(expected: "at most \(maximumBroadcasts) broadcasts", found: "\(elements.count)")
        }
        var broadcasts = Broadcasts([])
        for element in elements {
            var at: SimDuration?
            var b = Broadcast(at: .zero, priority: .normal, category: .announcements, cohort: nil, fraction: 1)
            var cohortNode: ScenarioNode?
            for member in try element.members("a broadcast object, e.g. {\"at\": \"2h\", \"priority\": \"high\"}") {
                let child = member.node
                switch member.key {
                case "at": at = try child.duration(.nonNegative)
                case "priority": b.priority = try child.choice(PushPriorityName.self)
                case "category": b.category = try child.choice(PushCategoryName.self)
                case "cohort":
                    b.cohort = try child.nonEmptyString("the name of a cohort of the fleet (the organisation)")
                    cohortNode = child
                case "fraction": b.fraction = try child.fraction()
                default: throw member.unknownKey(among: keys)
                }
            }
            guard let at else { throw element.missing("at", expected: "when the broadcast is sent: a duration from the start, e.g. \"2h\"") }
            b.at = at
            broadcasts.list.append(b)
            broadcasts.cohortNodes.append(cohortNode)
        }
        return broadcasts
    }

    /// Every broadcast's `cohort` names a cohort of the fleet.
    public func check(fleet: [Cohort]) throws(ScenarioError) {
        let names = fleet.map(\.name)
        for (b, node) in zip(list, cohortNodes) {
            guard let node, let name = b.cohort, !names.contains(name) else { continue }
            throw node.unknownName(name, among: names, "the name of a cohort of the fleet: \(ScenarioNode.oneOf(names))")
        }
    }
}

extension PushFeature {
    /// Its top-level section of a scenario (``FeatureList/topLevelSections``).
    static let topLevelSection = ScenarioSectionKey("broadcasts", Broadcasts.self)
}

extension Scenario {
    /// One notification to many users at one instant (seed `001`; ``Broadcast``), read
    /// and written by type; per-event code reads the copy ``PushHost`` keeps.
    public var broadcasts: [Broadcast] {
        get { self[Broadcasts.self].list }
        set { self[Broadcasts.self].list = newValue }
    }
}
