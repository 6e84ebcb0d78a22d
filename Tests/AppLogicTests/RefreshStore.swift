import AppLogic

/// An exhaustive test store for ``RefreshLogic``, in the spirit of TCA's `TestStore`.
///
/// `send(_:at:)` feeds one input at a device time and returns *every* effect it
/// produced, in order. The result is not discardable, so each test compares the whole
/// list (`#expect(store.send(...) == [...])`): an unexpected, missing or reordered
/// effect fails. The store adds no rule of its own; the state is the logic's state.
struct RefreshStore {
    let logic: RefreshLogic
    private(set) var state: RefreshState
    /// The device's clocks: set `clock.wallOffset` to move the wall clock.
    var clock = TestClock()

    init(variants: RefreshVariants = [], state: RefreshState = RefreshState()) {
        self.logic = RefreshLogic(variants: variants)
        self.state = state
    }

    /// Handles `input` at true time `now` (the device reads it through `clock`);
    /// returns all its effects, in order.
    mutating func send(_ input: RefreshInput, at now: Instant) -> [RefreshEffect] {
        var effects: [RefreshEffect] = []
        logic.handle(input, state: &state, now: clock.at(now), into: &effects)
        return effects
    }
}

extension RefreshLaunchContext {
    /// Launch-context boilerplate: a signed-in, online device, notifications authorized,
    /// in UTC. Tests override the field they are about.
    static func device(
        signedIn: Bool = true,
        online: Bool = true,
        notifications: NotificationAuthorization = .authorized,
        timeZone: String = "UTC"
    ) -> RefreshLaunchContext {
        RefreshLaunchContext(signedIn: signedIn, networkReachable: online, notificationAuthorization: notifications, timeZoneIdentifier: timeZone)
    }
}
