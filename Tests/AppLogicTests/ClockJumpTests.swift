import Testing
import AppLogic

/// The time rules when the wall clock jumps (docs/clocks.md): every rule that compares two
/// moments measures on the boot clock, so a clock set 2 days forward or 3 days back
/// between the stamp and the decision changes nothing, at each rule's threshold.
@Suite struct ClockJumpTests {
    /// 2026-03-02T04:38:00Z: the app is opened (the replayed case of docs/clocks.md).
    let openedAt = Instant(unixSeconds: 1_772_426_280)
    /// 91 days before the open (server clock): the test is available all along.
    var completedAt: Instant { openedAt - .days(91) }
    let justUnder24h = Interval.hours(24) - .seconds(1)
    let justUnder12h = Interval.hours(12) - .seconds(1)

    // MARK: - DeviceTime

    @Test func elapsedOnOneBootIsTheBootClocksDifferenceWhateverTheWallSays() {
        let stamp = DeviceTime(wall: openedAt, sinceBoot: .hours(5), boot: 3)
        let later = DeviceTime(wall: openedAt - .days(3), sinceBoot: .hours(7), boot: 3)
        #expect(later.elapsed(since: stamp) == .hours(2))
        #expect(later.wallClockReading(of: stamp) == openedAt - .days(3) - .hours(2))
    }

    @Test func elapsedAcrossABootIsTheWallsDifferenceButNeverLessThanTheUptime() {
        let stamp = DeviceTime(wall: openedAt, sinceBoot: .days(9), boot: 3)
        let forward = DeviceTime(wall: openedAt + .hours(30), sinceBoot: .hours(2), boot: 4)
        #expect(forward.elapsed(since: stamp) == .hours(30))
        let back = DeviceTime(wall: openedAt - .days(3), sinceBoot: .hours(2), boot: 4)
        #expect(back.elapsed(since: stamp) == .hours(2))
    }

    // MARK: - Refresh: 24 h since the open

    /// Opens the app at `openedAt` on a clock nobody set (effects asserted).
    private func open(_ store: inout RefreshStore, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(store.send(.appOpened, at: openedAt) == [
            .storeTime(.lastAppOpenAt, steady(openedAt)),
            .synchronize,
            .scheduleRefresh(earliestBegin: openedAt + .hours(4)),
        ], sourceLocation: sourceLocation)
    }

    /// Launches a refresh 1 s before `answeredAt` and answers its history request at
    /// `answeredAt` (server clock true); returns the answer's effects.
    private func historyAnswer(_ store: inout RefreshStore, at answeredAt: Instant,
                               sourceLocation: SourceLocation = #_sourceLocation) -> [RefreshEffect] {
        let launchedAt = answeredAt - .seconds(1)
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: store.clock.at(launchedAt).wall + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ], sourceLocation: sourceLocation)
        return store.send(.httpResponse(RequestID(1), .ok(.testHistory(latestCompletedAt: completedAt, serverTime: answeredAt))), at: answeredAt)
    }

    /// The effects of a refresh that saw the test and stayed silent.
    private func silent(_ store: RefreshStore, at t: Instant) -> [RefreshEffect] {
        [
            .analytics(.dataFetched(.testHistory)),
            .cancelHardStopTimer,
            .storeTime(.lastRefreshAt, store.clock.at(t)),
            .synchronize,
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .seconds(1))),
        ]
    }

    /// The active-session answer at `t` that posts the notification, and its effects.
    private func notifies(_ store: inout RefreshStore, at t: Instant, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(store.send(.httpResponse(RequestID(2), .ok(.activeSession(inProgress: false, serverTime: t))), at: t) == [
            .analytics(.dataFetched(.activeSession)),
            .store(.notifiedWindow, completedAt),
            .synchronize,
            .postNotification(LocalNotification(kind: .testAvailable, badge: nil)),
            .analytics(.notificationSent),
            .cancelHardStopTimer,
            .storeTime(.lastRefreshAt, store.clock.at(t)),
            .synchronize,
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .seconds(2))),
        ], sourceLocation: sourceLocation)
    }

    @Test(arguments: [Interval.days(2), .days(-3)])
    func anOpen23h59m59sAgoSuppressesWhateverTheWallClockSays(jump: Interval) {
        var store = RefreshStore()
        open(&store)
        store.clock.wallOffset = jump
        let at = openedAt + justUnder24h
        #expect(historyAnswer(&store, at: at) == silent(store, at: at))
    }

    @Test(arguments: [Interval.days(2), .days(-3)])
    func anOpen24hAgoNoLongerSuppressesWhateverTheWallClockSays(jump: Interval) {
        var store = RefreshStore()
        open(&store)
        store.clock.wallOffset = jump
        let at = openedAt + .hours(24)
        #expect(historyAnswer(&store, at: at) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
        notifies(&store, at: at + .seconds(1))
    }

    /// The clock jumps between the two answers of one refresh: the second check of the
    /// 24 h rule (at the active-session answer) still measures on the boot clock.
    @Test func aJumpBetweenTheTwoAnswersChangesNothing() {
        var store = RefreshStore()
        open(&store)
        let at = openedAt + .hours(24)
        #expect(historyAnswer(&store, at: at) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
        store.clock.wallOffset = .days(-3)
        notifies(&store, at: at + .seconds(1))
    }

    /// A reboot with the wall clock set 3 days back: the open's boot clock is gone and
    /// its wall age is negative, so the open counts as no older than the boot. The
    /// notification waits until 24 h after the boot: 1 h later than the rule's own
    /// 24 h, and never more than 24 h late (the documented bound).
    @Test func afterARebootThatSetTheClockBackTheOpenSuppressesForAtMost24hFromTheBoot() {
        var store = RefreshStore()
        open(&store)
        let bootedAt = openedAt + .hours(1)
        store.clock.reboot(at: bootedAt, wallOffset: .days(-3))
        let early = bootedAt + justUnder24h
        #expect(historyAnswer(&store, at: early) == silent(store, at: early))

        var due = RefreshStore()
        open(&due)
        due.clock.reboot(at: bootedAt, wallOffset: .days(-3))
        #expect(historyAnswer(&due, at: bootedAt + .hours(24)) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
        notifies(&due, at: bootedAt + .hours(24) + .seconds(1))
    }

    // MARK: - Refresh: 12 h since the last refresh

    private func launchEffects(_ store: RefreshStore, at t: Instant, skips: Bool) -> [RefreshEffect] {
        let head: [RefreshEffect] = [.analytics(.refreshStarted), .scheduleRefresh(earliestBegin: store.clock.at(t).wall + .hours(4))]
        return head + (skips
            ? [.completeTask(success: true), .analytics(.refreshCompleted(success: true, duration: .zero))]
            : [.startHardStopTimer(after: .seconds(20)), .httpRequest(RequestID(1), .testHistory(limit: 1))])
    }

    @Test(arguments: [Interval.days(2), .days(-3)])
    func aRefresh11h59m59sAgoSkipsAndOne12hAgoRunsWhateverTheWallClockSays(jump: Interval) {
        let refreshedAt = openedAt
        var early = RefreshStore(state: RefreshState(persisted: .init(lastRefreshAt: steady(refreshedAt))))
        early.clock.wallOffset = jump
        #expect(early.send(.taskLaunched(.device()), at: refreshedAt + justUnder12h) == launchEffects(early, at: refreshedAt + justUnder12h, skips: true))

        var due = RefreshStore(state: RefreshState(persisted: .init(lastRefreshAt: steady(refreshedAt))))
        due.clock.wallOffset = jump
        #expect(due.send(.taskLaunched(.device()), at: refreshedAt + .hours(12)) == launchEffects(due, at: refreshedAt + .hours(12), skips: false))
    }

    /// The last refresh was stamped while the clock ran 3 days fast; it has since been
    /// set right. The stamp's wall time is "in the future", yet the refresh 12 h later runs.
    @Test func aRefreshStampedOnAFastClockDoesNotBlockOnceTheClockIsSetRight() {
        let refreshedAt = openedAt
        let fast = TestClock(wallOffset: .days(3))
        var store = RefreshStore(state: RefreshState(persisted: .init(lastRefreshAt: fast.at(refreshedAt))))
        #expect(store.send(.taskLaunched(.device()), at: refreshedAt + .hours(12)) == launchEffects(store, at: refreshedAt + .hours(12), skips: false))
    }

    // MARK: - Refresh: once per window

    /// The window is the server's completion time, so a clock set back after the
    /// notification cannot make the same window look new.
    @Test func theNotifiedWindowIsNotNotifiedAgainAfterTheClockIsSetBack() {
        var store = RefreshStore()
        let first = openedAt
        #expect(historyAnswer(&store, at: first) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
        notifies(&store, at: first + .seconds(1))
        store.clock.wallOffset = .days(-3)
        let next = first + .hours(13)
        let launchedAt = next - .seconds(1)
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: store.clock.at(launchedAt).wall + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(3), .testHistory(limit: 1)),
        ])
        #expect(store.send(.httpResponse(RequestID(3), .ok(.testHistory(latestCompletedAt: completedAt, serverTime: next))), at: next) == silent(store, at: next))
    }
}

/// Step sync across wall-clock jumps: ages on the boot clock, the read reaching back to
/// the last sync on both sides of the jump, the stale notice as a time interval.
@Suite struct StepSyncClockJumpTests {
    /// 2026-03-02T12:00:00Z: the last sync.
    let syncedAt = Instant(unixSeconds: 1_772_452_800)
    /// 2026-03-02T00:00:00Z.
    let midnight = Instant(unixSeconds: 1_772_409_600)
    let periodic = StepSyncEffect.schedulePeriodicWork(interval: .hours(2), constraints: [.networkConnected, .batteryNotLow])
    let staleNotice = StepSyncEffect.scheduleNotification(LocalNotification(kind: .stepSyncStale, badge: nil), after: .hours(24))

    @Test(arguments: [Interval.days(2), .days(-3)])
    func anOpen23h59m59sAfterTheSyncDoesNotSyncAndOne24hAfterDoes(jump: Interval) {
        var early = StepSyncStore(lastSyncAt: syncedAt)
        early.clock.wallOffset = jump
        #expect(early.send(.appOpened(.phone()), at: syncedAt + .hours(24) - .seconds(1)) == [periodic])

        var due = StepSyncStore(lastSyncAt: syncedAt)
        due.clock.wallOffset = jump
        let at = syncedAt + .hours(24)
        // Forward: the samples since the sync are stamped from 12:00 on the old wall
        // clock; back: the ones after the jump are stamped 3 days earlier. The read
        // starts at the local midnight of the earlier of the two.
        let from = jump > .zero ? midnight : midnight - .days(3)
        #expect(due.send(.appOpened(.phone()), at: at) == [periodic, .readHealthData(from: from, to: at + jump)])
    }

    @Test(arguments: [Interval.days(2), .days(-3)])
    func aHealthDelivery1h59m59sAfterTheSyncDoesNotSyncAndOne2hAfterDoes(jump: Interval) {
        var early = StepSyncStore(lastSyncAt: syncedAt)
        early.clock.wallOffset = jump
        #expect(early.send(.healthDataDelivered(.phone()), at: syncedAt + .hours(2) - .seconds(1)) == [.finishWork(success: true)])

        var due = StepSyncStore(lastSyncAt: syncedAt)
        due.clock.wallOffset = jump
        let at = syncedAt + .hours(2)
        let from = jump > .zero ? midnight : midnight - .days(3)
        #expect(due.send(.healthDataDelivered(.phone()), at: at) == [.readHealthData(from: from, to: at + jump)])
    }

    /// A sync 29 days ago on a clock set back 3 days since: the read starts 29 days
    /// back on today's wall clock, not at the stamp (which today's clock places 26 days back).
    @Test func theBackfillAfterAClockSetBackReachesTheLastSync() {
        var store = StepSyncStore(lastSyncAt: syncedAt - .days(29))
        store.clock.wallOffset = .days(-3)
        #expect(store.send(.periodicWorkRan(.phone()), at: syncedAt) == [
            .readHealthData(from: midnight - .days(32), to: syncedAt - .days(3)),
        ])
    }

    /// Whatever the stamps say, the read never reaches back more than 30 days on today's wall clock.
    @Test func theBackfillAfterAClockSetForwardIsStillClampedTo30Days() {
        var store = StepSyncStore(lastSyncAt: syncedAt - .days(29))
        store.clock.wallOffset = .days(2)
        #expect(store.send(.periodicWorkRan(.phone()), at: syncedAt) == [
            .readHealthData(from: midnight - .days(28), to: syncedAt + .days(2)),
        ])
    }

    /// A success across a jump stamps both clocks and re-arms the stale notice as a
    /// 24 h interval (the OS counts it in elapsed time, not on the wall clock).
    @Test func aSuccessAcrossAJumpStampsBothClocksAndReArmsTheNoticeAsAnInterval() {
        var store = StepSyncStore(lastSyncAt: syncedAt)
        store.clock.wallOffset = .days(-3)
        let at = syncedAt + .hours(3)
        #expect(store.send(.periodicWorkRan(.phone()), at: at) == [.readHealthData(from: midnight - .days(3), to: at - .days(3))])
        let days = [DailySteps(date: LocalDate(daysSince1970: 20_511), steps: 10)]
        #expect(store.send(.healthDataRead(days), at: at) == [
            .httpRequest(RequestID(1), .syncSteps(StepUpload(method: .upsert, source: .healthKit, days: days))),
        ])
        #expect(store.send(.httpResponse(RequestID(1), .ok(.stepsSynced(created: 1, updated: 0))), at: at + .seconds(1)) == [
            .store(StepSyncStored(lastSyncAt: store.clock.at(at), lastStatus: .success, failedAttempts: 0)),
            .synchronize,
            staleNotice,
            .finishWork(success: true),
        ])
    }
}

/// The continuation's offer and deadlines are OS timers counted from the request
/// (`startTimer(after:)`), never wall-clock dates: a jump between the start and the
/// answer changes no outcome at the 300 s boundary.
@Suite struct ContinuationClockJumpTests {
    /// 2026-03-02T09:00:00Z.
    let startedAt = Instant(unixSeconds: 1_772_442_000)

    private func started(jump: Interval) -> ContinuationStore {
        var store = ContinuationStore()
        #expect(store.send(.analysisRequested(.hierarchical, notifications: .authorized), at: startedAt) == [
            .httpRequest(RequestID(1), .analysis(.hierarchical)),
            .startTimer(.offer, after: .seconds(10)),
            .startTimer(.deadline, after: .seconds(300)),
        ])
        // The wall clock the inputs carry from here on is off by `jump`.
        #expect(store.send(.timerFired(.offer), at: startedAt + .seconds(10) + jump) == [.offerBackground])
        #expect(store.send(.userChose(.continueHere), at: startedAt + .seconds(11) + jump) == [])
        return store
    }

    @Test(arguments: [Interval.days(2), .days(-3)])
    func aResultAt299sIsShownAndTheDeadlineAt300sTimesOutAcrossAJump(jump: Interval) {
        var shown = started(jump: jump)
        #expect(shown.send(.httpResponse(RequestID(1), .ok(.analysis)), at: startedAt + .seconds(299) + jump) == [
            .cancelTimer(.deadline),
            .showResult(AnalysisResult(request: RequestID(1), mode: .hierarchical)),
        ])
        var timedOut = started(jump: jump)
        #expect(timedOut.send(.timerFired(.deadline), at: startedAt + .seconds(300) + jump) == [.cancelRequest, .showFailure])
    }
}
