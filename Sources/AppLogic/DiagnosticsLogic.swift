import AppLogicContract

/// The reference diagnostics upload: it asks for its nightly run on external power (as
/// its spec says) on an unmetered network, uploads the logs at each launch after asking
/// for the next night's run, and finishes with the answer, or unsuccessfully at the
/// expiration.
public struct DiagnosticsLogic: DiagnosticsLogicProtocol {
    public var spec: DiagnosticsSpec

    public init(spec: DiagnosticsSpec = DiagnosticsSpec()) { self.spec = spec }

    /// What each run asks of the device: a network, unmetered where the OS tells it
    /// apart, and external power when the spec requires it.
    public var constraints: WorkConstraints {
        spec.requiresExternalPower ? [.networkConnected, .unmetered, .charging] : [.networkConnected, .unmetered]
    }

    public func handle(_ input: DiagnosticsInput, state: inout DiagnosticsState, now: DeviceTime, into effects: inout [DiagnosticsEffect]) {
        switch input {
        case .installed:
            effects.append(.schedule(after: spec.interval, constraints: constraints))
        case .workLaunched:
            // The next night's request before the work: iOS keeps one pending request
            // per identifier, and the launch consumed this one.
            effects.append(.schedule(after: spec.interval, constraints: constraints))
            state.issued &+= 1
            let id = RequestID(state.issued)
            state.inFlight = id
            effects.append(.upload(id))
        case .workExpired:
            guard state.inFlight != nil else { return }
            state.inFlight = nil
            effects.append(.finish(success: false))
        case .httpResponse(let id, let result):
            guard state.inFlight == id else { return }
            state.inFlight = nil
            if case .ok = result { effects.append(.finish(success: true)) } else { effects.append(.finish(success: false)) }
        }
    }
}
