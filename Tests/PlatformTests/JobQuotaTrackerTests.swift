import Testing
import SimKernel
@testable import Platform

/// `docs/platform-facts.md` B: JobScheduler quotas per bucket and window.
@Suite struct JobQuotaTrackerTests {
    let q = JobQuotaTracker()
    let t0 = SimTime.zero

    func run(_ s: inout JobQuotaState, from a: SimTime, for d: SimDuration) {
        q.jobStarted(&s, now: a)
        q.jobStopped(&s, now: a + d)
    }

    /// Closed sessions, in either array.
    func closed(_ s: JobQuotaState) -> Int { s.sessions.count + s.wideSessions.count }

    /// WORKING_SET: 10 min of run time per 2 h window. 9:59 then 0:01 use it up; it
    /// frees as the first session slides out of the window, one second after 2 h.
    @Test func workingSetRunTimeHoldsPerTwoHourWindow() {
        var s = JobQuotaState()
        run(&s, from: t0, for: .seconds(599))
        #expect(q.mayStart(s, bucket: .workingSet, now: t0 + .minutes(20), exempt: false))
        run(&s, from: t0 + .minutes(20), for: .seconds(1))
        #expect(q.executionTime(s, since: t0, now: t0 + .minutes(30)) == .minutes(10))
        #expect(!q.mayStart(s, bucket: .workingSet, now: t0 + .minutes(30), exempt: false))
        #expect(!q.mayStart(s, bucket: .workingSet, now: t0 + .hours(2), exempt: false))
        #expect(q.mayStart(s, bucket: .workingSet, now: t0 + .hours(2) + .seconds(1), exempt: false))
        #expect(q.mayStart(s, bucket: .workingSet, now: t0 + .minutes(30), exempt: true))
    }

    /// Jobs within 5 s of a session's end continue it; the gap counts as run time.
    @Test func jobsWithinFiveSecondsCoalesceIntoOneSession() {
        var s = JobQuotaState()
        run(&s, from: t0, for: .seconds(10))
        run(&s, from: t0 + .seconds(15), for: .seconds(10))
        run(&s, from: t0 + .seconds(31), for: .seconds(10))
        #expect(q.executionTime(s, since: t0, now: t0 + .minutes(1)) == .seconds(35))
        // RESTRICTED allows one session: the first two jobs made one, the third a second,
        // so only a job that continues the last session (within 5 s of 41 s) may start.
        #expect(q.mayStart(s, bucket: .restricted, now: t0 + .seconds(46), exempt: false))
        #expect(!q.mayStart(s, bucket: .restricted, now: t0 + .seconds(46) + .microseconds(1), exempt: false))
    }

    /// RARE: 3 sessions per 24 h. The fourth waits until the first (0–1 min) has left
    /// the window (now − 24 h, now].
    @Test func rareSessionsHoldPerDay() {
        var s = JobQuotaState()
        for h in 0..<3 { run(&s, from: t0 + .hours(Int64(h)), for: .minutes(1)) }
        #expect(!q.mayStart(s, bucket: .rare, now: t0 + .hours(3), exempt: false))
        #expect(q.mayStart(s, bucket: .frequent, now: t0 + .hours(3), exempt: false))
        #expect(!q.mayStart(s, bucket: .rare, now: t0 + .hours(24) + .seconds(59), exempt: false))
        #expect(q.mayStart(s, bucket: .rare, now: t0 + .hours(24) + .seconds(60), exempt: false))
    }

    /// RESTRICTED: 10 jobs per 24 h, within the one session.
    @Test func restrictedJobCountHoldsPerDay() {
        var s = JobQuotaState()
        q.jobStarted(&s, now: t0)
        for i in 1..<10 {
            #expect(q.mayStart(s, bucket: .restricted, now: t0 + .seconds(Int64(i)), exempt: false))
            q.jobStarted(&s, now: t0 + .seconds(Int64(i)))
        }
        #expect(!q.mayStart(s, bucket: .restricted, now: t0 + .seconds(10), exempt: false))
    }

    /// Every bucket: at most 20 jobs in any minute.
    @Test func twentyJobsPerMinute() {
        var s = JobQuotaState()
        for i in 0..<20 { run(&s, from: t0 + .milliseconds(Int64(i) * 100), for: .milliseconds(10)) }
        #expect(!q.mayStart(s, bucket: .active, now: t0 + .seconds(60) - .microseconds(1), exempt: false))
        #expect(q.mayStart(s, bucket: .active, now: t0 + .seconds(60), exempt: false))
    }

    /// Every bucket: at most 4 h of run time in 24 h, even with window quota left.
    @Test func fourHoursPerDay() {
        var s = JobQuotaState()
        // 24 ACTIVE sessions of 10 min, one every 30 min: 4 h in 11:30 h.
        for i in 0..<24 { run(&s, from: t0 + .minutes(Int64(i) * 30), for: .minutes(10)) }
        #expect(!q.mayStart(s, bucket: .active, now: t0 + .hours(12), exempt: false))
        #expect(q.mayStart(s, bucket: .active, now: t0 + .hours(24) + .seconds(1), exempt: false))
    }

    /// docs/platform-facts.md B, per-job limits: a regular job is guaranteed 10 min and runs at
    /// most 30 min. Quota left decides in between; exempt jobs get the 30 min.
    @Test func stopDeadlineGuaranteesTenMinutesAndCapsAtThirty() {
        var s = JobQuotaState()
        q.jobStarted(&s, now: t0)
        // A fresh WORKING_SET app has its 10 min of window quota: stopped at 10:00.
        #expect(q.stopDeadline(s, bucket: .workingSet, startedAt: t0, now: t0, exempt: false) == t0 + .minutes(10))
        // Exempt (charging, TOP): the 30 min cap.
        #expect(q.stopDeadline(s, bucket: .workingSet, startedAt: t0, now: t0, exempt: true) == t0 + .minutes(30))
        q.jobStopped(&s, now: t0 + .minutes(4))
        // 4 min used of the 2 h window: quota alone would stop the next job at 6 min,
        // but the guarantee holds it to 10 min.
        q.jobStarted(&s, now: t0 + .minutes(30))
        #expect(q.stopDeadline(s, bucket: .workingSet, startedAt: t0 + .minutes(30), now: t0 + .minutes(30), exempt: false)
                == t0 + .minutes(40))
    }

    /// ACTIVE: 10 min allowed in a 10 min window is "effectively unlimited" (docs/platform-facts.md
    /// B): after 10 min of run time in the last 10 min a job may still start; only the
    /// 4 h a day and the 30 min per job bound it.
    @Test func activeIsNotBoundByItsTenMinuteWindow() {
        var s = JobQuotaState()
        run(&s, from: t0, for: .minutes(10))
        #expect(q.mayStart(s, bucket: .active, now: t0 + .minutes(10), exempt: false))
        #expect(!q.mayStart(s, bucket: .workingSet, now: t0 + .minutes(10), exempt: false))
        q.jobStarted(&s, now: t0 + .minutes(10))
        #expect(q.stopDeadline(s, bucket: .active, startedAt: t0 + .minutes(10), now: t0 + .minutes(10), exempt: false)
                == t0 + .minutes(40))
    }

    /// 4 h a day caps an ACTIVE job between 10 and 30 min: 3:45 h used leaves 15 min.
    @Test func theDailyLimitStopsAnActiveJobBetweenTenAndThirtyMinutes() {
        var s = JobQuotaState()
        run(&s, from: t0, for: .minutes(225))
        let start = t0 + .hours(5)
        q.jobStarted(&s, now: start)
        #expect(q.stopDeadline(s, bucket: .active, startedAt: start, now: start, exempt: false) == start + .minutes(15))
    }

    /// Only the starts that did not open a session are stored: a lone job and a job
    /// continuing a session within 5 s are one session start and one extra, two jobs
    /// overlapping are one session and one extra.
    @Test func aJobThatOpensASessionIsNotStoredTwice() {
        var s = JobQuotaState()
        run(&s, from: t0, for: .seconds(10))
        #expect(closed(s) == 1 && s.extraStarts.isEmpty)
        run(&s, from: t0 + .seconds(15), for: .seconds(10))
        #expect(closed(s) == 1 && s.extraStarts == [t0 + .seconds(15)])
        q.jobStarted(&s, now: t0 + .minutes(5))
        q.jobStarted(&s, now: t0 + .minutes(6))
        #expect(s.extraStarts == [t0 + .seconds(15), t0 + .minutes(6)])
        #expect(q.startsSince(s, t0 - .microseconds(1)) == 4)
        #expect(q.startsSince(s, t0) == 3)
        #expect(q.startsSince(s, t0 + .seconds(15)) == 2)
        #expect(q.startsSince(s, t0 + .minutes(5)) == 1)
        #expect(q.startsSince(s, t0 + .minutes(6)) == 0)
    }

    /// The starts counted from sessions and extra starts equal those of a plain list of
    /// every start, at every moment a window can begin (each start, and a microsecond
    /// before it), over two days of random jobs (overlapping, coalescing, pruned at 24 h).
    @Test func startsSinceCountsEveryStartOfTheLastDay() {
        var rng = RandomStream(seed: 7, entity: 0, purpose: "quota-starts")
        var s = JobQuotaState()
        var starts: [SimTime] = []
        var stops: [SimTime] = []
        var now = t0
        while now < t0 + .days(2) {
            now = now + .microseconds(rng.int(in: 1...(rng.chance(0.3) ? 20_000_000 : 1_800_000_000)))
            while let first = stops.min(), first <= now {
                q.jobStopped(&s, now: first)
                stops.remove(at: stops.firstIndex(of: first)!)
            }
            q.jobStarted(&s, now: now)
            starts.append(now)
            stops.append(now + .microseconds(rng.int(in: 1...(rng.chance(0.3) ? 8_000_000 : 900_000_000))))
            for t in starts where t > now - .hours(24) {
                for since in [t, t - .microseconds(1)] {
                    #expect(q.startsSince(s, since) == starts.count { $0 > since })
                }
            }
        }
        // Every kind was exercised: sessions of the last day in both arrays, and starts kept as extras.
        #expect(closed(s) > 10 && !s.sessions.isEmpty && !s.wideSessions.isEmpty && !s.extraStarts.isEmpty)
    }

    /// No buffer before the first session; the first reserves a day's room, which the
    /// next sessions fill without reallocating (the same buffer, whatever its capacity
    /// rounded up to) and pruning keeps; one more session than the room grows it.
    @Test func theFirstSessionReservesADaysRoom() {
        var s = JobQuotaState()
        q.jobStarted(&s, now: t0)
        #expect(s.sessions.capacity == 0)
        q.jobStopped(&s, now: t0 + .seconds(1))
        let room = s.sessions.capacity
        #expect(room >= JobQuotaState.sessionsReserved)
        let buffer = s.sessions.withUnsafeBufferPointer { $0.baseAddress }
        for k in 1..<room { run(&s, from: t0 + .minutes(Int64(30 * k)), for: .seconds(1)) }
        #expect(s.sessions.count == room && s.sessions.capacity == room)
        #expect(s.sessions.withUnsafeBufferPointer { $0.baseAddress } == buffer)
        // A day later the first session leaves as the next one comes: still full, same buffer.
        run(&s, from: t0 + .hours(24) + .minutes(2), for: .seconds(1))
        #expect(s.sessions.count == room && s.sessions.withUnsafeBufferPointer { $0.baseAddress } == buffer)
        run(&s, from: t0 + .hours(24) + .minutes(4), for: .seconds(1))
        #expect(s.sessions.count == room + 1 && s.sessions.capacity > room)
    }
    /// A wide session's start and end keep every µs in their 48 bits: around zero, across
    /// the low word's carry, and at both ends of the range; 12 bytes a session.
    @Test func aWideSessionKeepsItsTimesIn48Bits() {
        let times: [Int64] = [0, -1, 1, -86_400_000_000, 366 * 86_400_000_000, (1 << 32) - 1, 1 << 32, -(1 << 32), -(1 << 32) - 1,
                              (1 << 47) - 1, -(1 << 47)]
        for a in times {
            for b in times {
                let x = JobQuotaState.WideSession(start: SimTime(microseconds: a), end: SimTime(microseconds: b))
                #expect(x.start.microseconds == a && x.end.microseconds == b)
            }
        }
        #expect(!JobQuotaState.WideSession.fits(SimTime(microseconds: 1 << 47)))
        #expect(!JobQuotaState.WideSession.fits(SimTime(microseconds: -(1 << 47) - 1)))
        #expect(MemoryLayout<JobQuotaState.WideSession>.stride == 12)
    }

    /// A session in 8 bytes keeps its start (0 to 2^44 − 1 µs) and length (0 to 2^20 − 1
    /// µs) exactly at the limits, each on its own; one a µs beyond either, or starting
    /// before zero, does not fit and is kept wide, with the same times.
    @Test func aShortSessionKeepsItsTimesIn8Bytes() {
        let starts: [Int64] = [0, 1, (1 << 32) - 1, 1 << 32, 366 * 86_400_000_000 / 2, (1 << 44) - 1]
        let lengths: [Int64] = [0, 1, 999_999, (1 << 20) - 1]
        for a in starts {
            for l in lengths {
                let start = SimTime(microseconds: a), end = SimTime(microseconds: a + l)
                #expect(JobQuotaState.Session.fits(start: start, end: end))
                let x = JobQuotaState.Session(start: start, end: end)
                #expect(x.start == start && x.end == end)
            }
        }
        let t = SimTime(microseconds: 1 << 44)
        #expect(!JobQuotaState.Session.fits(start: t, end: t))
        #expect(!JobQuotaState.Session.fits(start: .zero, end: SimTime(microseconds: 1 << 20)))
        #expect(!JobQuotaState.Session.fits(start: SimTime(microseconds: -1), end: .zero))
        #expect(MemoryLayout<JobQuotaState.Session>.stride == 8)
        var s = JobQuotaState()
        let edges: [(SimTime, SimDuration)] = [(.zero, .microseconds((1 << 20) - 1)), (SimTime.zero + .seconds(10), .microseconds(1 << 20)),
                                               (SimTime(microseconds: (1 << 44) - 1), .zero), (SimTime(microseconds: 1 << 44) + .seconds(10), .zero)]
        for (k, (start, length)) in edges.enumerated() {
            q.jobStarted(&s, now: start)
            q.jobStopped(&s, now: start + length)
            let short = k % 2 == 0
            #expect(short ? s.sessions.last.map { [$0.start, $0.end] } == [start, start + length]
                          : s.wideSessions.last.map { [$0.start, $0.end] } == [start, start + length])
            #expect(s.lastSessionEnd == start + length)
        }
    }

    /// A job within 5 s of the newest session continues it, whichever array holds it: a
    /// short session then a wide one, and a job 5 s after the wide one ends takes it out
    /// (its start becomes the open session's); after a short one, the short one, which
    /// stays short while it fits and moves to the wide array when it no longer does.
    @Test func coalescingContinuesTheNewestSessionOfEitherArray() {
        var s = JobQuotaState()
        run(&s, from: t0, for: .milliseconds(500))
        run(&s, from: t0 + .minutes(1), for: .minutes(2))
        #expect(s.sessions.count == 1 && s.wideSessions.count == 1)
        run(&s, from: t0 + .minutes(3) + .seconds(5), for: .milliseconds(100))
        #expect(s.sessions.count == 1 && s.wideSessions.map(\.start) == [t0 + .minutes(1)])
        #expect(s.wideSessions.map(\.end) == [t0 + .minutes(3) + .seconds(5) + .milliseconds(100)])
        run(&s, from: t0 + .minutes(10), for: .milliseconds(100))
        run(&s, from: t0 + .minutes(10) + .milliseconds(400), for: .milliseconds(100))
        #expect(s.sessions.map(\.start) == [t0, t0 + .minutes(10)] && s.wideSessions.count == 1)
        #expect(s.sessions.last?.end == t0 + .minutes(10) + .milliseconds(500))
        run(&s, from: t0 + .minutes(10) + .seconds(5) + .milliseconds(500), for: .milliseconds(100))
        #expect(s.sessions.map(\.start) == [t0] && s.wideSessions.map(\.start) == [t0 + .minutes(1), t0 + .minutes(10)])
        #expect(s.lastSessionEnd == t0 + .minutes(10) + .seconds(5) + .milliseconds(600))
    }

    /// Run time, sessions and starts over any window, and the answers built on them,
    /// equal those of a plain list of every session and start of the last day, at random
    /// moments over two days of random jobs whose sessions fall in both arrays.
    @Test func bothArraysAnswerAsOnePlainList() {
        var rng = RandomStream(seed: 11, entity: 0, purpose: "quota-mixed")
        var s = JobQuotaState()
        var sessions: [(start: SimTime, end: SimTime)] = []
        var starts: [SimTime] = []
        var stops: [SimTime] = []
        var open: SimTime?
        var now = t0
        var checked = 0
        while now < t0 + .days(2) {
            now = now + .microseconds(rng.int(in: 1...(rng.chance(0.3) ? 8_000_000 : 1_200_000_000)))
            while let first = stops.min(), first <= now {
                q.jobStopped(&s, now: first)
                stops.remove(at: stops.firstIndex(of: first)!)
                if stops.isEmpty { sessions.append((open!, first)); open = nil }
            }
            for since in [now - .minutes(1), now - .hours(2), now - .hours(8), now - .hours(24),
                          now - .microseconds(rng.int(in: 0...86_400_000_000))] {
                var time = SimDuration.zero
                for x in sessions where x.end > since { time = time + (x.end - max(x.start, since)) }
                if let o = open { time = time + (now - max(o, since)) }
                #expect(q.executionTime(s, since: since, now: now) == time)
                #expect(q.sessionsSince(s, since, now: now) == sessions.count { $0.end > since } + (open == nil ? 0 : 1))
                #expect(q.startsSince(s, since) == starts.count { $0 > since })
                checked += 1
            }
            for bucket in [StandbyBucket.active, .workingSet, .frequent, .rare, .restricted] {
                let b = bucket.rawValue, windowStart = now - q.config.windowSize[b]
                var inWindow = SimDuration.zero, inDay = SimDuration.zero
                for x in sessions {
                    if x.end > windowStart { inWindow = inWindow + (x.end - max(x.start, windowStart)) }
                    if x.end > now - .hours(24) { inDay = inDay + (x.end - max(x.start, now - .hours(24))) }
                }
                if let o = open { inWindow = inWindow + (now - max(o, windowStart)); inDay = inDay + (now - max(o, now - .hours(24))) }
                let continues = open != nil || (sessions.last.map { now - $0.end <= q.config.sessionCoalescing } ?? false)
                let may = (!q.limitsByWindow(b) || inWindow < q.config.allowedTimePerWindow[b]) && inDay < q.config.maxExecutionTimePer24h
                    && starts.count { $0 > windowStart } < q.config.maxJobsPerWindow[b]
                    && starts.count { $0 > now - q.config.rateLimitWindow } < q.config.rateLimitJobs
                    && (continues || sessions.count { $0.end > windowStart } + (open == nil ? 0 : 1) < q.config.maxSessionsPerWindow[b])
                #expect(q.mayStart(s, bucket: bucket, now: now, exempt: false) == may)
                var left = q.config.maxExecutionTimePer24h - inDay
                if q.limitsByWindow(b) { left = min(left, q.config.allowedTimePerWindow[b] - inWindow) }
                let deadline = max(now + q.config.maxJobRunTime, min(now + q.config.maxJobRunTimeLimit, now + max(.zero, left)))
                #expect(q.stopDeadline(s, bucket: bucket, startedAt: now, now: now, exempt: false) == deadline)
            }
            q.jobStarted(&s, now: now)
            if open == nil {
                if let last = sessions.last, now - last.end <= q.config.sessionCoalescing { open = last.start; sessions.removeLast() }
                else { open = now }
            }
            starts.append(now)
            stops.append(now + .microseconds(rng.int(in: 0...(rng.chance(0.6) ? 1_500_000 : 900_000_000))))
            sessions.removeAll { $0.end <= now - .hours(24) }
            starts.removeAll { $0 <= now - .hours(24) }
        }
        #expect(checked > 500 && !s.sessions.isEmpty && !s.wideSessions.isEmpty)
    }
    /// Sessions counted from the newest back: one ending exactly at the moment is out, one
    /// ending a microsecond after it is in; the open session always counts.
    @Test func sessionsSinceCountsBackFromTheNewest() {
        var s = JobQuotaState()
        for k: Int64 in 0..<3 { run(&s, from: t0 + .minutes(30 * k), for: .minutes(1)) }
        #expect(q.sessionsSince(s, t0 - .microseconds(1), now: t0 + .hours(2)) == 3)
        #expect(q.sessionsSince(s, t0 + .minutes(31) - .microseconds(1), now: t0 + .hours(2)) == 2)
        #expect(q.sessionsSince(s, t0 + .minutes(31), now: t0 + .hours(2)) == 1)
        #expect(q.sessionsSince(s, t0 + .minutes(61), now: t0 + .hours(2)) == 0)
        q.jobStarted(&s, now: t0 + .hours(2))
        #expect(q.sessionsSince(s, t0 + .minutes(61), now: t0 + .hours(2)) == 1)
    }
}
