import AppLogic

/// The team's refresh: the reference flow, with the next refresh jittered by up to
/// 30 minutes so that a fleet's requests do not all fall on the same instants. The
/// jitter is declared in its spec (`earliestBeginJitter`), which the judges read.
///
/// The known bug it can plant (``AppTeamLogics/completesTwice``): the expiration (the
/// OS's, or the logic's own 20 s hard stop) completes the task and cancels its request,
/// and the cancelled request's answer completes the task again. Only a task whose
/// expiration and network response meet is hit.
public struct AppTeamRefresh: RefreshLogicProtocol {
    public var spec: RefreshSpec
    let reference: RefreshLogic
    let completesTwice: Bool

    public init(spec: RefreshSpec, completesTwice: Bool) {
        var spec = spec
        spec.earliestBeginJitter = Interval.zero ... Interval.minutes(30)
        self.spec = spec
        reference = RefreshLogic(config: spec)
        self.completesTwice = completesTwice
    }

    public func handle(_ input: RefreshInput, state: inout AppTeamRefreshState, now: DeviceTime, into effects: inout [RefreshEffect]) {
        let first = effects.count
        reference.handle(input, state: &state.reference, now: now, into: &effects)
        var completed = false, cancelled = false
        for i in first..<effects.count {
            switch effects[i] {
            case .scheduleRefresh(let earliest):
                effects[i] = .scheduleRefresh(earliestBegin: earliest + jitter(now))
            case .completeTask:
                completed = true
            case .cancelRequests:
                cancelled = true
            default:
                break
            }
        }
        switch input {
        case .taskLaunched:
            state.expiredWithRequestOut = false
        case .taskExpired, .hardStopFired:
            state.expiredWithRequestOut = completed && cancelled
        case .httpResponse where completesTwice && state.expiredWithRequestOut && !completed:
            // The bug: the response's path completes the task the expiration completed.
            effects.append(.completeTask(success: false))
            state.expiredWithRequestOut = false
        default:
            break
        }
    }

    /// A deterministic offset in `spec.earliestBeginJitter` from the moment the request
    /// is made (splitmix64 of its microseconds): no clock and no generator of its own.
    func jitter(_ now: DeviceTime) -> Interval {
        let range = spec.earliestBeginJitter
        let width = UInt64(range.upperBound.microseconds - range.lowerBound.microseconds)
        guard width > 0 else { return range.lowerBound }
        var z = UInt64(bitPattern: now.wall.unixMicroseconds) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Interval(microseconds: range.lowerBound.microseconds + Int64(z % (width + 1)))
    }
}

/// The reference's state (what reaches the disk is the same) and whether the running
/// task was completed by its expiration with a request out (in memory only).
public struct AppTeamRefreshState: PersistentState, Sendable {
    var reference: RefreshState
    var expiredWithRequestOut = false

    public init() { reference = RefreshState() }
    public init(persisted: RefreshState.Stored) { reference = RefreshState(persisted: persisted) }
    public var stored: RefreshState.Stored { reference.stored }
}
