import SimKernel

/// Ground truth of the cognitive tests (seed `000`): each user's last completed test
/// and whether one is in progress. A new test becomes available exactly one cadence
/// after the last completion; the window it opens lasts until the user completes the
/// next test. The oracle judges notifications against this, never against the app.
public struct TestAvailabilityTruth: Sendable {
    public let cadence: SimDuration
    @usableFromInline private(set) var lastCompleted: [SimTime]
    @usableFromInline private(set) var inProgressUntil: [SimTime]
    @usableFromInline private(set) var completions: [UInt32]

    public init(cadence: SimDuration, lastCompleted: [SimTime]) {
        self.cadence = cadence
        self.lastCompleted = lastCompleted
        self.inProgressUntil = Array(hugePagesRepeating: SimTime(microseconds: Int64.min), count: lastCompleted.count)
        completions = Array(hugePagesRepeating: 0, count: lastCompleted.count)
    }

    public func lastCompletedAt(_ user: Int) -> SimTime { lastCompleted[user] }
    /// Starts loading what an answer about `user` reads (a hint: changes no value).
    @inlinable public func prefetch(user: Int, history: Bool) {
        if history { lastCompleted.prefetch(user); completions.prefetch(user) } else { inProgressUntil.prefetch(user) }
    }
    /// The current window's number: the tests the user completed in the run (0 for the
    /// window open at the start). It tells windows apart as their completion times do,
    /// in 4 bytes where a time takes 8: a test takes a positive time
    /// (`testDuration` > 0), so each completion is at a new, later instant.
    public func window(_ user: Int) -> UInt32 { completions[user] }
    /// When the current window opens.
    public func availableAt(_ user: Int) -> SimTime { lastCompleted[user] + cadence }
    public func isAvailable(_ user: Int, at now: SimTime) -> Bool { now >= availableAt(user) }
    public func inProgress(_ user: Int, at now: SimTime) -> Bool { now < inProgressUntil[user] }

    /// The user starts the available test; it completes after `duration`.
    public mutating func start(_ user: Int, at now: SimTime, duration: SimDuration) {
        inProgressUntil[user] = now + duration
    }

    /// The test completes: the next window opens one cadence later.
    public mutating func complete(_ user: Int, at now: SimTime) {
        lastCompleted[user] = now
        completions[user] += 1
    }
}

/// API tokens: a signed-in user's token expires after a lifetime (or at an
/// `authExpiry` fault); requests with an expired token answer 401.
public struct AuthTokens: Sendable {
    public let lifetime: SimDuration
    @usableFromInline private(set) var expiresAt: [SimTime]

    public init(lifetime: SimDuration, users: Int) {
        self.lifetime = lifetime
        expiresAt = Array(hugePagesRepeating: SimTime(microseconds: Int64.min), count: users)
    }

    public func isValid(_ user: Int, at now: SimTime) -> Bool { now < expiresAt[user] }
    /// Starts loading `user`'s token (a hint: changes no value).
    @inlinable public func prefetch(user: Int) { expiresAt.prefetch(user) }
    /// Sign-in or token refresh on app open.
    public mutating func issue(_ user: Int, at now: SimTime) { expiresAt[user] = now + lifetime }
    public mutating func expire(_ user: Int, at now: SimTime) { expiresAt[user] = now }
}
