import SimKernel

/// `backend.push`: the push service's sending capacity, per provider.
public struct PushBackendConfig: Sendable, Equatable {
    /// Concurrent sends awaiting a provider's answer. **Assumption**: 1000 (10 HTTP/2
    /// connections of 100 streams).
    public var concurrency: Int
    /// Sends waiting beyond this are refused by the push service itself (treated as a 503).
    /// **Assumption**: 100,000.
    public var queueLimit: Int

    public static let defaults = PushBackendConfig(concurrency: 1_000, queueLimit: 100_000)
}
