import AppLogic
import FleetSimKit

/// The team's logic set: its own refresh (``AppTeamRefresh``) and FleetSim's reference
/// logic for the other features.
public struct AppTeamLogics: LogicSet {
    /// The planted race: the task completed twice when its expiration and its network
    /// response meet (`--variants appteam.completesTwice`).
    public static let completesTwice = "appteam.completesTwice"
    public static var variantNames: [String] { [completesTwice] }

    public var refresh: AppTeamRefresh
    public var stepSync: StepSyncLogic
    public var continuation: ContinuationLogic
    public var badge: BadgeManager
    public var push: PushRouter

    public init(_ logic: LogicConfig) {
        var referenceSection = logic
        referenceSection.variants = []
        let reference = ReferenceLogics(referenceSection)
        refresh = AppTeamRefresh(spec: reference.refresh.spec, completesTwice: logic.variants.contains(Self.completesTwice))
        stepSync = reference.stepSync
        continuation = reference.continuation
        badge = reference.badge
        push = reference.push
    }
}
