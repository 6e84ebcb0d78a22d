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
        #expect(s.sessions.count == 1 && s.extraStarts.isEmpty)
        run(&s, from: t0 + .seconds(15), for: .seconds(10))
        #expect(s.sessions.count == 1 && s.extraStarts == [t0 + .seconds(15)])
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
        // Both kinds were exercised: sessions of the last day, and starts kept as extras.
        #expect(s.sessions.count > 10 && !s.extraStarts.isEmpty)
    }

    /// No buffer before the first session; the first reserves a day's room, which the
    /// next sessions fill without reallocating (the same buffer, whatever its capacity
    /// rounded up to) and pruning keeps; one more session than the room grows it.
    @Test func theFirstSessionReservesADaysRoom() {
        var s = JobQuotaState()
        q.jobStarted(&s, now: t0)
        #expect(s.sessions.capacity == 0)
        q.jobStopped(&s, now: t0 + .minutes(1))
        let room = s.sessions.capacity
        #expect(room >= JobQuotaState.sessionsReserved)
        let buffer = s.sessions.withUnsafeBufferPointer { $0.baseAddress }
        for k in 1..<room { run(&s, from: t0 + .minutes(Int64(30 * k)), for: .minutes(1)) }
        #expect(s.sessions.count == room && s.sessions.capacity == room)
        #expect(s.sessions.withUnsafeBufferPointer { $0.baseAddress } == buffer)
        // A day later the first session leaves as the next one comes: still full, same buffer.
        run(&s, from: t0 + .hours(24) + .minutes(2), for: .minutes(1))
        #expect(s.sessions.count == room && s.sessions.withUnsafeBufferPointer { $0.baseAddress } == buffer)
        run(&s, from: t0 + .hours(24) + .minutes(4), for: .minutes(1))
        #expect(s.sessions.count == room + 1 && s.sessions.capacity > room)
    }
    /// A session's start and end keep every µs in their 48 bits: around zero, across the
    /// low word's carry, and at both ends of the range; 12 bytes a session.
    @Test func aSessionKeepsItsTimesIn48Bits() {
        let times: [Int64] = [0, -1, 1, -86_400_000_000, 366 * 86_400_000_000, (1 << 32) - 1, 1 << 32, -(1 << 32), -(1 << 32) - 1,
                              (1 << 47) - 1, -(1 << 47)]
        for a in times {
            for b in times {
                let x = JobQuotaState.Session(start: SimTime(microseconds: a), end: SimTime(microseconds: b))
                #expect(x.start.microseconds == a && x.end.microseconds == b)
            }
        }
        #expect(!JobQuotaState.Session.fits(SimTime(microseconds: 1 << 47)))
        #expect(!JobQuotaState.Session.fits(SimTime(microseconds: -(1 << 47) - 1)))
        #expect(MemoryLayout<JobQuotaState.Session>.stride == 12)
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
