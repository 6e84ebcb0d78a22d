/// What a provider's answer means for a send (seed `001`, "Retry Logic" and "Common
/// Push Errors"; docs/platform-facts.md G and H).
///
/// - 200: done.
/// - 410 (APNs Unregistered) and 404 (FCM UNREGISTERED): the token is expired; no retry.
/// - 5xx and a 30 s timeout: retried after 1 s, 5 s and 25 s, then given up; a
///   `Retry-After` longer than the wait is honoured (docs/platform-facts.md H).
/// - 429: retried after 1 min, doubled at each retry (2 min, 4 min), or after
///   `Retry-After` when that is longer (docs/platform-facts.md H: QUOTA_EXCEEDED, exponential
///   backoff, "first delay at least 1 min"; seed `001`: "Rate limit | 429 | exponential
///   backoff, queue", so a 429 is retried, unlike the other 4xx). **Assumption**: 429
///   retries count against the same 3 retries as 5xx.
/// - A 400 whose reason names the token (``PushProviderResult/invalidToken(_:)``, APNs
///   BadDeviceToken): the token is expired, as for 410 (seed `001`: "Invalid token |
///   400/404 | Mark device expired"); reported as ``PushFailureReason/unregistered``.
/// - Any other 4xx (400, 403, 405, 413): failed at once, never retried.
public struct PushRetryPolicy: Sendable {
    public var config: PushConfiguration
    public var variants: PushVariants
    public init(config: PushConfiguration, variants: PushVariants) {
        self.config = config
        self.variants = variants
    }

    public enum Decision: Hashable, Sendable {
        case accepted
        /// Try again after the wait.
        case retry(after: Interval, PushFailureReason)
        /// Failed for good; `expireToken` when the provider says the token is gone.
        case fail(PushFailureReason, expireToken: Bool)
    }

    /// The wait before retry `retries + 1` of a 5xx or a timeout; ``PushVariants/retryDelayNotAdvanced``
    /// plants the first delay for every retry.
    func delay(_ retries: Int) -> Interval {
        config.retryDelays[variants.contains(.retryDelayNotAdvanced) ? 0 : retries]
    }

    /// The decision for `result` of a send that has already been retried `retries` times.
    public func decide(_ result: PushProviderResult, retries: Int) -> Decision {
        let canRetry = retries < config.retryDelays.count
        switch result {
        case .accepted:
            return .accepted
        case .invalidToken:
            return .fail(.unregistered, expireToken: true)
        case .timedOut:
            return canRetry ? .retry(after: delay(retries), .timedOut) : .fail(.timedOut, expireToken: false)
        case .status(let code, let retryAfter):
            switch code {
            case 404, 410:
                return .fail(.unregistered, expireToken: !variants.contains(.ignore410))
            case 429:
                guard canRetry else { return .fail(.rateLimited, expireToken: false) }
                let backoff = Interval(microseconds: config.rateLimitBackoff.microseconds << Int64(retries))
                return .retry(after: max(backoff, retryAfter ?? .zero), .rateLimited)
            case 500 ..< 600:
                guard canRetry else { return .fail(.serverError(code), expireToken: false) }
                return .retry(after: max(delay(retries), retryAfter ?? .zero), .serverError(code))
            default:
                if variants.contains(.retryOn4xx) && canRetry {
                    return .retry(after: config.retryDelays[retries], .clientError(code))
                }
                return .fail(.clientError(code), expireToken: false)
            }
        }
    }
}
