// What an app's background logic implements so that FleetSim (or an app's own thin
// adapter) can host it: one protocol per feature (docs/architecture.md, "An app's own
// logic"). Each is a sans-I/O state machine: the host owns one `State` per device (per
// user for the push pipeline), hands the logic one input at a time with the device's
// clock reading `now`, and carries out the effects it appends, in their order. The
// logic reads no clock and does no I/O of its own.
//
// `spec` is the feature's declared numbers: the logic runs by them and the oracle
// judges it by them (docs/architecture.md, "The spec the judges read").

/// A per-device state that reaches the disk in part: the host keeps a second copy of
/// `stored` as it reached the disk (UserDefaults) and, after the app's process is
/// terminated, rebuilds the state from that copy with ``init(persisted:)``.
public protocol PersistentState {
    /// What the app writes to UserDefaults. Compared after each input, so that only a
    /// device whose stored part changed pays for the disk copy.
    associatedtype Stored: Equatable
    /// A fresh install.
    init()
    /// A process that starts from what reached the disk.
    init(persisted: Stored)
    /// What the app wrote (in memory at once; on disk at the next flush or synchronize).
    var stored: Stored { get }
}

/// The iOS background refresh of seed `000` (and its Android periodic work).
public protocol RefreshLogicProtocol {
    associatedtype State: PersistentState
    var spec: RefreshSpec { get }
    func handle(_ input: RefreshInput, state: inout State, now: DeviceTime, into effects: inout [RefreshEffect])
}

/// The step sync of seed `003`. Its stored part is the contract's ``StepSyncStored``
/// (what its `store` effect writes): the host seeds each device with the sync it made
/// before the run.
public protocol StepSyncLogicProtocol {
    associatedtype State: PersistentState where State.Stored == StepSyncStored
    var spec: StepSyncSpec { get }
    func handle(_ input: StepSyncInput, state: inout State, now: DeviceTime, into effects: inout [StepSyncEffect])
}

/// A continuation's per-device state: the host reads whether the user came back to an
/// analysis continued in the background (it then hears when the app leaves again).
public protocol ContinuationStateProtocol: PersistentState where Stored == ContinuationStored {
    var isBackInApp: Bool { get }
}

/// The long request of seed `004`, continued in the background.
public protocol ContinuationLogicProtocol {
    associatedtype State: ContinuationStateProtocol
    var spec: ContinuationSpec { get }
    func handle(_ input: ContinuationInput, state: inout State, now: Instant, into effects: inout [ContinuationEffect])
}

/// The app badge's one owner (seed `002`, issue 3). It keeps no state of its own: the
/// count is the OS's (the delivered notifications), which survives a termination.
public protocol BadgeLogicProtocol {
    func handle(_ input: BadgeInput, into effects: inout [BadgeEffect])
}

/// One push user's state on the server: the host reads the unread count (the badge a
/// push carries) and whether a notification is still held (queued for quiet hours or a
/// retry), to close its books.
public protocol PushUserStateProtocol {
    init(settings: PushUserSettings)
    var unread: Int { get }
    func holds(_ id: NotificationID) -> Bool
}

/// The server's push pipeline of seed `001`, one state per user, on the server's clock.
public protocol PushLogicProtocol {
    associatedtype State: PushUserStateProtocol
    var spec: PushSpec { get }
    func handle(_ input: PushInput, state: inout State, now: Instant, into effects: inout [PushEffect])
}
