import SimKernel

/// A manufacturer's extra background restrictions, as a cohort parameter (manufacturers
/// that kill background work; docs/platform-facts.md).
///
/// **Assumption** (no published numbers; docs/platform-facts.md has none): an aggressive OEM
/// force-stops the app once the screen has been off `killAfterScreenOff` with the app in
/// the background. A force-stopped app gets no jobs, alarms or FCM messages until the
/// user opens it again. `stock` (AOSP behaviour) is the default.
public enum OEMBackgroundPolicy: Sendable, Equatable {
    case stock
    case killsBackgroundApps(afterScreenOff: SimDuration)

    /// When the app is force-stopped, given when the screen went off; nil: never.
    public func killTime(screenOffAt: SimTime) -> SimTime? {
        switch self {
        case .stock: return nil
        case .killsBackgroundApps(let after): return screenOffAt + after
        }
    }
}
