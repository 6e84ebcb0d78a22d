import SimKernel

/// JobScheduler's per-bucket quotas (`docs/platform-facts.md` B, Android 12–14 defaults, same as
/// [QC11]), indexed by `StandbyBucket.rawValue`.
public struct JobQuotaConfig: Sendable, Equatable {
    /// Run time allowed per window: 10 min for every bucket.
    public var allowedTimePerWindow: [SimDuration] = Array(repeating: .minutes(10), count: 5)
    /// Window lengths: 10 min, 2 h, 8 h, 24 h, 24 h.
    public var windowSize: [SimDuration] = [.minutes(10), .hours(2), .hours(8), .hours(24), .hours(24)]
    /// Jobs started per window: 75, 120, 200, 48, 10.
    public var maxJobsPerWindow: [Int] = [75, 120, 200, 48, 10]
    /// Sessions per window: 75, 10, 8, 3, 1.
    public var maxSessionsPerWindow: [Int] = [75, 10, 8, 3, 1]
    /// Every bucket: at most 4 h of run time per 24 h.
    public var maxExecutionTimePer24h = SimDuration.hours(4)
    /// Every bucket: at most 20 jobs per 1 min.
    public var rateLimitJobs = 20
    public var rateLimitWindow = SimDuration.minutes(1)
    /// A regular job is guaranteed 10 min: quota never stops it earlier
    /// (`docs/platform-facts.md` B, per-job limits).
    public var maxJobRunTime = SimDuration.minutes(10)
    /// No job runs longer than 30 min, however much quota is left, exempt jobs included
    /// (`docs/platform-facts.md` B, per-job limits).
    public var maxJobRunTimeLimit = SimDuration.minutes(30)
    /// **Assumption** (`sessionCoalescing`): jobs starting within 5 s of the previous
    /// session's end continue it (QuotaController's `TIMING_SESSION_COALESCING_DURATION_MS`,
    /// from memory of the AOSP source, not in docs/platform-facts.md).
    public var sessionCoalescing = SimDuration.seconds(5)
    public init() {}
}

/// One app's job history on one device: its timing sessions and job starts of the last
/// 24 h, oldest first, pruned as time passes: the longest window is 24 h
/// (`docs/platform-facts.md` B), and QuotaController keeps its timing sessions for
/// `MAX_PERIOD_MS`, 24 h, and its clean-up deletes older ones.
/// The arrays keep their capacity. The first session reserves room for a usual day's
/// (``sessionsReserved``), so the array is allocated once instead of doubling through 1,
/// 2, 4, 8, 16 and 32 and leaving each outgrown buffer as a hole in the heap; a device
/// with no session holds no buffer, and one with more sessions grows as before.
/// (Reserving 32 sessions and 64 starts at the start cost 1.1 KB per Android device,
/// most of it never used.)
///
/// A session is kept in 8 bytes when it fits (``Session``: nearly all do, as a job's
/// session usually lasts well under a second), otherwise in 12 (``WideSession``, in an
/// array of its own that most devices never allocate). The two arrays are each in time
/// order, and sessions are disjoint, so every question is answered from both.
///
/// Every session's start is the start of a job (the one that opened it; a coalesced
/// session keeps the start of the one it continues), so a job start is kept only when
/// it is not a session's start (``extraStarts``: a job starting while another runs or
/// within the coalescing gap), and the starts after a moment are the sessions (the open
/// one included) and the extra starts after it. A device whose jobs rarely overlap holds
/// no start array at all: 8 bytes less per job in the day, and one allocation less.
public struct JobQuotaState: Sendable, Equatable {
    /// A closed session in 8 bytes: its start in the low 44 bits (µs from the run's start:
    /// 0 to 2^44 − 1, the first 203 days of a run) and its length in the high 20 (0 to
    /// 2^20 − 1 µs, 1.05 s). `fleetsim bench`'s day at 10,000 devices closes 65,315
    /// sessions, 99.7 % of them that short (23 % of them 0 µs: a job that returns at once).
    /// A day's 20 sessions then fit a 208-byte buffer, not 288.
    @usableFromInline struct Session: Sendable, Equatable {
        @usableFromInline var bits: UInt64
        @usableFromInline static let startBits = 44
        @usableFromInline static let lengthBits = 20
        @usableFromInline static let startMask: UInt64 = 1 << UInt64(startBits) - 1

        @inlinable init(start: SimTime, end: SimTime) {
            precondition(Self.fits(start: start, end: end), "JobQuotaState: a session that does not fit 8 bytes")
            bits = UInt64(start.microseconds) | UInt64((end - start).microseconds) << Self.startBits
        }
        @inlinable static func fits(start: SimTime, end: SimTime) -> Bool {
            start.microseconds >= 0 && start.microseconds >> startBits == 0
                && end >= start && (end - start).microseconds >> lengthBits == 0
        }
        @inlinable var start: SimTime { SimTime(microseconds: Int64(bits & Self.startMask)) }
        @inlinable var end: SimTime { SimTime(microseconds: Int64(bits & Self.startMask) + Int64(bits >> UInt64(Self.startBits))) }
    }

    /// A closed session that is not a ``Session``: its start and end in 48 bits of µs each
    /// (±4.4 years; a run is at most 366 days, and no session starts more than a few days
    /// before it), 12 bytes, where two `SimTime`s take 16.
    @usableFromInline struct WideSession: Sendable, Equatable {
        @usableFromInline var startLow: UInt32
        @usableFromInline var endLow: UInt32
        @usableFromInline var startHigh: Int16
        @usableFromInline var endHigh: Int16

        @inlinable init(start: SimTime, end: SimTime) {
            precondition(Self.fits(start) && Self.fits(end), "JobQuotaState: a session beyond ±2^47 µs")
            startLow = UInt32(truncatingIfNeeded: start.microseconds)
            startHigh = Int16(truncatingIfNeeded: start.microseconds >> 32)
            endLow = UInt32(truncatingIfNeeded: end.microseconds)
            endHigh = Int16(truncatingIfNeeded: end.microseconds >> 32)
        }
        @inlinable static func fits(_ t: SimTime) -> Bool { t.microseconds >> 47 == 0 || t.microseconds >> 47 == -1 }
        @inlinable var start: SimTime { SimTime(microseconds: Int64(startHigh) << 32 | Int64(startLow)) }
        @inlinable var end: SimTime { SimTime(microseconds: Int64(endHigh) << 32 | Int64(endLow)) }
    }
    @usableFromInline var sessions: [Session] = []
    @usableFromInline var wideSessions: [WideSession] = []
    /// The job starts that did not open a session.
    @usableFromInline var extraStarts: [SimTime] = []
    /// The open session's start, if one is open (nil is `Int64.min` µs: ``PackedTime``).
    @inlinable var openSessionStart: SimTime? {
        get { packedOpenSessionStart.value }
        set { packedOpenSessionStart.value = newValue }
    }
    @usableFromInline var packedOpenSessionStart = PackedTime.none
    /// Jobs running now; a session is open while this is above zero.
    public internal(set) var running: Int32 = 0

    /// The room the first session reserves: a device of the default fleet closes 17 to 20
    /// sessions a day (`fleetsim bench`, 100,000 devices: 98 % of them 17 or 18).
    @usableFromInline static let sessionsReserved = 20

    /// The newest closed session's end (the sessions are disjoint, so the later of the
    /// two arrays' last ends), if any.
    @inlinable var lastSessionEnd: SimTime? {
        switch (sessions.last?.end, wideSessions.last?.end) {
        case (let a?, let b?): return max(a, b)
        case (let a, let b): return a ?? b
        }
    }

    /// Takes the newest closed session out (a job continues it) and returns its start.
    mutating func removeLastSession() -> SimTime {
        if let a = sessions.last?.end, wideSessions.last.map({ $0.end < a }) ?? true { return sessions.removeLast().start }
        return wideSessions.removeLast().start
    }

    /// Records a closed session, in 8 bytes when it fits.
    mutating func appendSession(start: SimTime, end: SimTime) {
        if Session.fits(start: start, end: end) {
            if sessions.capacity == 0 { sessions.reserveCapacity(Self.sessionsReserved) }
            sessions.append(.init(start: start, end: end))
        } else {
            wideSessions.append(.init(start: start, end: end))
        }
    }

    public init() {}
}

/// JobScheduler's QuotaController for one app (`docs/platform-facts.md` B).
///
/// - A job may start when, within its bucket's window, the app has used less than the
///   allowed run time (ACTIVE, whose window is no longer than its allowed time, is not
///   bound by it: "effectively unlimited"), started fewer jobs than the cap and had fewer sessions than the
///   cap; within the last 24 h less than 4 h of run time; and fewer than 20 jobs in the
///   last minute. A session is a span with at least one job running.
/// - Jobs while charging or in the foreground (TOP) are exempt.
/// - A running job is guaranteed 10 min; after that it is stopped when the app's run
///   time (window or 24 h) runs out, and at 30 min at the latest. Exempt jobs run up
///   to 30 min (`docs/platform-facts.md` B, per-job limits).
public struct JobQuotaTracker: Sendable {
    public var config: JobQuotaConfig
    public init(config: JobQuotaConfig = .init()) { self.config = config }

    /// Whether a job may start now.
    @inlinable public func mayStart(_ s: JobQuotaState, bucket: StandbyBucket, now: SimTime, exempt: Bool) -> Bool {
        if exempt { return true }
        let b = bucket.rawValue
        let windowStart = now - config.windowSize[b]
        let (inWindow, inDay) = executionTimes(s, since: windowStart, and: now - .hours(24), now: now)
        if limitsByWindow(b), inWindow >= config.allowedTimePerWindow[b] { return false }
        if inDay >= config.maxExecutionTimePer24h { return false }
        if startsSince(s, windowStart) >= config.maxJobsPerWindow[b] { return false }
        if startsSince(s, now - config.rateLimitWindow) >= config.rateLimitJobs { return false }
        // A job that would open a new session needs a free session slot.
        let continues = s.running > 0 || (s.lastSessionEnd.map { now - $0 <= config.sessionCoalescing } ?? false)
        if !continues && sessionsSince(s, windowStart, now: now) >= config.maxSessionsPerWindow[b] { return false }
        return true
    }

    public func jobStarted(_ s: inout JobQuotaState, now: SimTime) {
        prune(&s, now: now)
        if s.running == 0 {
            if let end = s.lastSessionEnd, now - end <= config.sessionCoalescing {
                s.openSessionStart = s.removeLastSession()
                s.extraStarts.append(now)
            } else {
                s.openSessionStart = now
            }
        } else {
            s.extraStarts.append(now)
        }
        s.running += 1
    }

    public func jobStopped(_ s: inout JobQuotaState, now: SimTime) {
        guard s.running > 0 else { return }
        s.running -= 1
        if s.running == 0, let start = s.openSessionStart {
            s.appendSession(start: start, end: now)
            s.openSessionStart = nil
        }
    }

    /// When a job started at `startedAt` must be stopped: not before its 10 min
    /// guarantee, not after 30 min, and in between when the app's run time (window or
    /// 24 h) runs out as seen from `now` (`docs/platform-facts.md` B, per-job limits). Exempt jobs
    /// run the full 30 min.
    @inlinable public func stopDeadline(_ s: JobQuotaState, bucket: StandbyBucket, startedAt: SimTime, now: SimTime, exempt: Bool) -> SimTime {
        let guaranteed = startedAt + config.maxJobRunTime
        let limit = startedAt + config.maxJobRunTimeLimit
        if exempt { return limit }
        let b = bucket.rawValue
        let (inWindow, inDay) = executionTimes(s, since: now - config.windowSize[b], and: now - .hours(24), now: now)
        var left = config.maxExecutionTimePer24h - inDay
        if limitsByWindow(b) {
            left = min(left, config.allowedTimePerWindow[b] - inWindow)
        }
        return max(guaranteed, min(limit, now + max(.zero, left)))
    }

    /// Whether the bucket's window run time binds: not when the window is no longer than
    /// the time allowed in it (ACTIVE: 10 min in 10 min, "effectively unlimited",
    /// `docs/platform-facts.md` B; QuotaController skips the window then and only the 24 h limit holds).
    @inlinable func limitsByWindow(_ b: Int) -> Bool {
        config.windowSize[b] > config.allowedTimePerWindow[b]
    }

    /// Run time within [since, now], the open session included.
    @inlinable public func executionTime(_ s: JobQuotaState, since: SimTime, now: SimTime) -> SimDuration {
        executionTimes(s, since: since, and: since, now: now).0
    }

    /// Run time within [a, now] and within [b, now], in one pass over the sessions (the
    /// bucket's window and the 24 h of every check: the pruned history, all of it).
    @inlinable func executionTimes(_ s: JobQuotaState, since a: SimTime, and b: SimTime, now: SimTime) -> (SimDuration, SimDuration) {
        var ta = SimDuration.zero, tb = SimDuration.zero
        let earliest = min(a, b)
        for x in s.sessions {
            let end = x.end
            guard end > earliest else { continue }
            if end > a { ta = ta + (end - max(x.start, a)) }
            if end > b { tb = tb + (end - max(x.start, b)) }
        }
        for x in s.wideSessions {
            let end = x.end
            guard end > earliest else { continue }
            if end > a { ta = ta + (end - max(x.start, a)) }
            if end > b { tb = tb + (end - max(x.start, b)) }
        }
        if let start = s.openSessionStart {
            ta = ta + (now - max(start, a))
            tb = tb + (now - max(start, b))
        }
        return (ta, tb)
    }

    /// Job starts after `since`: the sessions' starts (each opened by a job) and the extra starts.
    @inlinable func startsSince(_ s: JobQuotaState, _ since: SimTime) -> Int {
        var i = s.sessions.endIndex
        while i > 0, s.sessions[i - 1].start > since { i -= 1 }
        var w = s.wideSessions.endIndex
        while w > 0, s.wideSessions[w - 1].start > since { w -= 1 }
        var j = s.extraStarts.endIndex
        while j > 0, s.extraStarts[j - 1] > since { j -= 1 }
        let open = s.openSessionStart.map { $0 > since } ?? false
        return (s.sessions.endIndex - i) + (s.wideSessions.endIndex - w) + (s.extraStarts.endIndex - j) + (open ? 1 : 0)
    }

    /// Sessions ending after `since`, and the open one. The sessions are disjoint and in
    /// time order (one closes before the next opens), so those are the last ones of each
    /// array: read back from the newest, stopping at the first that ended before.
    @inlinable func sessionsSince(_ s: JobQuotaState, _ since: SimTime, now: SimTime) -> Int {
        var i = s.sessions.endIndex
        while i > 0, s.sessions[i - 1].end > since { i -= 1 }
        var w = s.wideSessions.endIndex
        while w > 0, s.wideSessions[w - 1].end > since { w -= 1 }
        return (s.sessions.endIndex - i) + (s.wideSessions.endIndex - w) + (s.openSessionStart == nil ? 0 : 1)
    }

    /// Drops what is older than the longest window (24 h).
    private func prune(_ s: inout JobQuotaState, now: SimTime) {
        let horizon = now - .hours(24)
        if let i = s.sessions.firstIndex(where: { $0.end > horizon }), i > 0 { s.sessions.removeFirst(i) }
        else if let last = s.sessions.last, last.end <= horizon { s.sessions.removeAll(keepingCapacity: true) }
        if let i = s.wideSessions.firstIndex(where: { $0.end > horizon }), i > 0 { s.wideSessions.removeFirst(i) }
        else if let last = s.wideSessions.last, last.end <= horizon { s.wideSessions.removeAll(keepingCapacity: true) }
        if let i = s.extraStarts.firstIndex(where: { $0 > horizon }), i > 0 { s.extraStarts.removeFirst(i) }
        else if let last = s.extraStarts.last, last <= horizon { s.extraStarts.removeAll(keepingCapacity: true) }
    }
}
