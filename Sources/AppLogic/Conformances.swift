/// The reference logic is the contract's default implementation (docs/architecture.md,
/// "An app's own logic"); code that imports AppLogic sees the contract's vocabulary too.
@_exported import AppLogicContract

extension RefreshLogic: RefreshLogicProtocol {
    public var spec: RefreshSpec { config }
}

extension RefreshState: PersistentState {
    public init() { self.init(persisted: Stored()) }
}

extension StepSyncLogic: StepSyncLogicProtocol {
    public var spec: StepSyncSpec { config }
}

extension StepSyncState: PersistentState {
    public init() { self.init(persisted: Stored()) }
}

extension ContinuationLogic: ContinuationLogicProtocol {
    public var spec: ContinuationSpec { config }
}

extension ContinuationState: ContinuationStateProtocol {
    public init() { self.init(persisted: Stored()) }
}

extension BadgeManager: BadgeLogicProtocol {}

extension PushRouter: PushLogicProtocol {
    public var spec: PushSpec { config }
}

extension PushUserState: PushUserStateProtocol {}
