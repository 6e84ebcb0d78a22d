import Testing
import AppLogic

/// An exhaustive test store for ``StepSyncLogic``: `send` returns every effect, in order,
/// so each test compares the whole list and an unexpected effect fails.
struct StepSyncStore {
    let logic: StepSyncLogic
    private(set) var state: StepSyncState
    /// The device's clocks: set `clock.wallOffset` to move the wall clock.
    var clock = TestClock()

    /// `lastSyncAt`: the true time of the last sync, stamped on a clock nobody had set.
    init(variants: StepSyncVariants = [], lastSyncAt: Instant? = nil) {
        logic = StepSyncLogic(variants: variants)
        state = StepSyncState(persisted: StepSyncStored(lastSyncAt: lastSyncAt.map(steady), lastStatus: lastSyncAt == nil ? .never : .success))
    }

    /// A state rebuilt from what reached the disk.
    init(persisted: StepSyncStored) {
        logic = StepSyncLogic()
        state = StepSyncState(persisted: persisted)
    }

    /// Handles `input` at true time `now` (the device reads it through `clock`).
    mutating func send(_ input: StepSyncInput, at now: Instant) -> [StepSyncEffect] {
        var effects: [StepSyncEffect] = []
        logic.handle(input, state: &state, now: clock.at(now), into: &effects)
        return effects
    }
}

extension StepSyncContext {
    /// A signed-in, online phone at 80 %, unplugged, in UTC. Tests override what they are about.
    static func phone(online: Bool = true, battery: Int = 80, charging: Bool = false, lowPower: Bool = false,
                      tracking: Bool = true, signedIn: Bool = true, zone: String = "UTC") -> StepSyncContext {
        StepSyncContext(healthTrackingEnabled: tracking, signedIn: signedIn, networkReachable: online, batteryPercent: battery,
                        charging: charging, lowPowerMode: lowPower, zone: LocalCalendar(identifier: zone), source: .healthKit)
    }
}

@Suite struct StepSyncLogicTests {
    /// 2026-03-02T12:00:00Z (a Monday noon).
    let now = Instant(unixSeconds: 1_772_452_800)
    /// 2026-03-02T00:00:00Z.
    let midnight = Instant(unixSeconds: 1_772_409_600)
    let day1 = LocalDate(daysSince1970: 20_514)  // 2026-03-02
    let staleNotice = StepSyncEffect.scheduleNotification(LocalNotification(kind: .stepSyncStale, badge: nil), after: .hours(24))
    let periodic = StepSyncEffect.schedulePeriodicWork(interval: .hours(2), constraints: [.networkConnected, .batteryNotLow])

    func upload(_ id: UInt32, _ days: [DailySteps], method: StepUpload.Method = .upsert) -> StepSyncEffect {
        .httpRequest(RequestID(id), .syncSteps(StepUpload(method: method, source: .healthKit, days: days)))
    }

    // MARK: - A whole sync

    @Test func periodicWorkReadsFromTheLastSyncsMidnightUpsertsAndPersistsOnSuccess() {
        var store = StepSyncStore(lastSyncAt: now - .hours(3))
        #expect(store.send(.periodicWorkRan(.phone()), at: now) == [.readHealthData(from: midnight, to: now)])
        let days = [DailySteps(date: day1, steps: 4_321)]
        #expect(store.send(.healthDataRead(days), at: now) == [upload(1, days)])
        let done = now + .seconds(1)
        #expect(store.send(.httpResponse(RequestID(1), .ok(.stepsSynced(created: 0, updated: 1))), at: done) == [
            .store(StepSyncStored(lastSyncAt: steady(now), lastStatus: .success, failedAttempts: 0)),
            .synchronize,
            staleNotice,
            .finishWork(success: true),
        ])
        // The cursor is the end of the range read, not the moment the answer came.
        #expect(store.state.stored.lastSyncAt == steady(now))
        #expect(!store.state.isSyncing)
    }

    @Test func theInsertVariantPostsInsteadOfPutting() {
        var store = StepSyncStore(variants: .insertNotUpsert, lastSyncAt: now - .hours(3))
        _ = store.send(.periodicWorkRan(.phone()), at: now)
        let days = [DailySteps(date: day1, steps: 10)]
        #expect(store.send(.healthDataRead(days), at: now) == [upload(1, days, method: .insert)])
    }

    @Test func noNewDataSucceedsWithoutAnUpload() {
        var store = StepSyncStore(lastSyncAt: now - .hours(3))
        _ = store.send(.refreshTaskLaunched(.phone()), at: now)
        #expect(store.send(.healthDataRead([]), at: now) == [
            .store(StepSyncStored(lastSyncAt: steady(now), lastStatus: .success, failedAttempts: 0)),
            .synchronize,
            staleNotice,
        ])
    }

    @Test func aTriggerDuringASyncIsCoveredByIt() {
        var store = StepSyncStore(lastSyncAt: now - .hours(3))
        _ = store.send(.refreshTaskLaunched(.phone()), at: now)
        #expect(store.send(.healthDataDelivered(.phone()), at: now + .seconds(1)) == [.finishWork(success: true)])
        #expect(store.send(.appOpened(.phone()), at: now + .seconds(1)) == [periodic])
    }

    // MARK: - The 30-day backfill edge

    @Test func lastSyncExactly30DaysAgoIsTheStart() {
        var store = StepSyncStore(lastSyncAt: now - .days(30))
        #expect(store.send(.periodicWorkRan(.phone()), at: now) == [.readHealthData(from: midnight - .days(30), to: now)])
    }

    @Test func lastSync30DaysAnd1SecondAgoIsClampedTo30Days() {
        // 2026-01-31T11:59:59Z: the clamp (now − 30 d = 2026-01-31T12:00) is the same local day.
        var store = StepSyncStore(lastSyncAt: now - .days(30) - .seconds(1))
        #expect(store.send(.periodicWorkRan(.phone()), at: now) == [.readHealthData(from: midnight - .days(30), to: now)])
    }

    @Test func aLastSyncBeforeTheWindowIsClampedToTheWindowsDay() {
        // At 00:30, 30 days back is 2026-01-31T00:30; a last sync an hour before that
        // (2026-01-30) must not pull in 2026-01-30.
        let early = midnight + .minutes(30)
        var store = StepSyncStore(lastSyncAt: early - .days(30) - .hours(1))
        #expect(store.send(.periodicWorkRan(.phone()), at: early) == [.readHealthData(from: midnight - .days(30), to: early)])
        var inside = StepSyncStore(lastSyncAt: early - .days(30) + .seconds(1))
        #expect(inside.send(.periodicWorkRan(.phone()), at: early) == [.readHealthData(from: midnight - .days(30), to: early)])
    }

    @Test func neverSyncedReads30Days() {
        var store = StepSyncStore()
        #expect(store.send(.periodicWorkRan(.phone()), at: now) == [.readHealthData(from: midnight - .days(30), to: now)])
    }

    // MARK: - Day bucketing on a DST night

    @Test func theDayOfASpringForwardStartsAtItsOwnMidnight() {
        // 2026-03-08 America/New_York: EST (−5) until 02:00, then EDT (−4). Noon EDT is 16:00Z;
        // the day began at 00:00 EST = 05:00Z, not 04:00Z (the noon offset).
        let noon = Instant(unixSeconds: 1_772_985_600)  // 2026-03-08T16:00:00Z
        var store = StepSyncStore(lastSyncAt: noon - .hours(3))
        #expect(store.send(.periodicWorkRan(.phone(zone: "America/New_York")), at: noon) == [
            .readHealthData(from: Instant(unixSeconds: 1_772_946_000), to: noon),  // 2026-03-08T05:00:00Z
        ])
    }

    @Test func theFallBackDayStartsAtItsOwnMidnight() {
        // 2026-11-01 America/New_York: EDT (−4) until 02:00, then EST (−5), a 25 h day.
        // Noon EST is 17:00Z; the day began at 00:00 EDT = 04:00Z, not 05:00Z.
        let noon = Instant(unixSeconds: 1_793_552_400)  // 2026-11-01T17:00:00Z
        var store = StepSyncStore(lastSyncAt: noon - .hours(2))
        #expect(store.send(.periodicWorkRan(.phone(zone: "America/New_York")), at: noon) == [
            .readHealthData(from: Instant(unixSeconds: 1_793_505_600), to: noon),  // 2026-11-01T04:00:00Z
        ])
    }

    // MARK: - Retries: immediate, +5, +10, +15 min, then wait

    @Test func failuresRetryAfter5Then10Then15MinutesThenWait() {
        var store = StepSyncStore(lastSyncAt: now - .hours(3))
        let days = [DailySteps(date: day1, steps: 1)]
        let delays: [Interval?] = [.minutes(5), .minutes(10), .minutes(15), nil]
        var t = now
        for (attempt, delay) in delays.enumerated() {
            let start: [StepSyncEffect] = attempt == 0
                ? store.send(.periodicWorkRan(.phone()), at: t)
                : store.send(.retryTimerFired(.phone()), at: t)
            #expect(start == [.readHealthData(from: midnight, to: t)])
            #expect(store.send(.healthDataRead(days), at: t) == [upload(UInt32(attempt + 1), days)])
            var expected: [StepSyncEffect] = [
                .store(StepSyncStored(lastSyncAt: steady(now - .hours(3)), lastStatus: .failed, failedAttempts: UInt8(attempt + 1))),
                .synchronize,
            ]
            if let delay { expected.append(.startRetryTimer(after: delay)) }
            if attempt == 0 { expected.append(.finishWork(success: false)) }
            #expect(store.send(.httpResponse(RequestID(UInt32(attempt + 1)), .status(503)), at: t) == expected, "attempt \(attempt + 1)")
            t = t + (delay ?? .zero)
        }
        // After the 4th failure no timer is armed: a stray fire does nothing.
        #expect(store.send(.retryTimerFired(.phone()), at: t + .hours(1)) == [])
    }

    @Test func transportFailuresAnd429AreRetried() {
        for result in [HTTPResult.failed(.timedOut), .failed(.connectionLost), .status(429), .status(500)] {
            var store = StepSyncStore(lastSyncAt: now - .hours(3))
            _ = store.send(.refreshTaskLaunched(.phone()), at: now)
            _ = store.send(.healthDataRead([DailySteps(date: day1, steps: 1)]), at: now)
            #expect(store.send(.httpResponse(RequestID(1), result), at: now) == [
                .store(StepSyncStored(lastSyncAt: steady(now - .hours(3)), lastStatus: .failed, failedAttempts: 1)),
                .synchronize,
                .startRetryTimer(after: .minutes(5)),
            ], "\(result)")
        }
    }

    @Test func unauthorizedAndOtherClientErrorsAreNotRetried() {
        for code in [401, 400, 404] {
            var store = StepSyncStore(lastSyncAt: now - .hours(3))
            _ = store.send(.refreshTaskLaunched(.phone()), at: now)
            _ = store.send(.healthDataRead([DailySteps(date: day1, steps: 1)]), at: now)
            #expect(store.send(.httpResponse(RequestID(1), .status(code)), at: now) == [
                .store(StepSyncStored(lastSyncAt: steady(now - .hours(3)), lastStatus: .failed, failedAttempts: 1)),
                .synchronize,
            ], "\(code)")
        }
    }

    @Test func theAdvanceCursorVariantMovesTheTimestampOnFailure() {
        var store = StepSyncStore(variants: .advanceCursorOnFailure, lastSyncAt: now - .hours(3))
        _ = store.send(.refreshTaskLaunched(.phone()), at: now)
        _ = store.send(.healthDataRead([DailySteps(date: day1, steps: 1)]), at: now)
        #expect(store.send(.httpResponse(RequestID(1), .status(503)), at: now + .seconds(1)) == [
            .store(StepSyncStored(lastSyncAt: steady(now), lastStatus: .failed, failedAttempts: 1)),
            .synchronize,
            .startRetryTimer(after: .minutes(5)),
        ])
    }

    @Test func aNewTriggerStartsANewChainAndCancelsThePendingRetry() {
        var store = StepSyncStore(lastSyncAt: now - .hours(3))
        _ = store.send(.refreshTaskLaunched(.phone()), at: now)
        _ = store.send(.healthDataRead([DailySteps(date: day1, steps: 1)]), at: now)
        _ = store.send(.httpResponse(RequestID(1), .failed(.timedOut)), at: now)
        let later = now + .minutes(2)
        #expect(store.send(.periodicWorkRan(.phone()), at: later) == [.cancelRetryTimer, .readHealthData(from: midnight, to: later)])
        _ = store.send(.healthDataRead([DailySteps(date: day1, steps: 1)]), at: later)
        #expect(store.send(.httpResponse(RequestID(2), .failed(.timedOut)), at: later) == [
            .store(StepSyncStored(lastSyncAt: steady(now - .hours(3)), lastStatus: .failed, failedAttempts: 1)),
            .synchronize,
            .startRetryTimer(after: .minutes(5)),
            .finishWork(success: false),
        ])
    }

    @Test func aStaleResponseIsIgnored() {
        var store = StepSyncStore(lastSyncAt: now - .hours(3))
        _ = store.send(.refreshTaskLaunched(.phone()), at: now)
        _ = store.send(.healthDataRead([DailySteps(date: day1, steps: 1)]), at: now)
        #expect(store.send(.httpResponse(RequestID(7), .ok(.stepsSynced(created: 1, updated: 0))), at: now) == [])
        #expect(store.state.isSyncing)
    }

    // MARK: - App open: 23:59:59 / 24:00 since the last sync

    @Test func openAt23h59m59sEnqueuesTheWorkWithoutSyncing() {
        var store = StepSyncStore(lastSyncAt: now - .hours(24) + .seconds(1))
        #expect(store.send(.appOpened(.phone()), at: now) == [periodic])
    }

    @Test func openAt24hSyncs() {
        var store = StepSyncStore(lastSyncAt: now - .hours(24))
        #expect(store.send(.appOpened(.phone()), at: now) == [periodic, .readHealthData(from: midnight - .days(1), to: now)])
    }

    @Test func openWhenNeverSyncedSyncs() {
        var store = StepSyncStore()
        #expect(store.send(.appOpened(.phone()), at: now) == [periodic, .readHealthData(from: midnight - .days(30), to: now)])
    }

    // MARK: - Background triggers: the 2 h cadence

    @Test func healthDeliveryAt1h59m59sSkipsAnd2hSyncs() {
        var early = StepSyncStore(lastSyncAt: now - .hours(2) + .seconds(1))
        #expect(early.send(.healthDataDelivered(.phone()), at: now) == [.finishWork(success: true)])
        var due = StepSyncStore(lastSyncAt: now - .hours(2))
        #expect(due.send(.healthDataDelivered(.phone()), at: now) == [.readHealthData(from: midnight, to: now)])
    }

    @Test func refreshLaunchAt1h59m59sSkipsWithoutAWorkResult() {
        var store = StepSyncStore(lastSyncAt: now - .hours(2) + .seconds(1))
        #expect(store.send(.refreshTaskLaunched(.phone()), at: now) == [])
    }

    @Test func periodicWorkSyncsWhateverTheAge() {
        var store = StepSyncStore(lastSyncAt: now - .minutes(30))
        #expect(store.send(.periodicWorkRan(.phone()), at: now) == [.readHealthData(from: midnight, to: now)])
    }

    // MARK: - Low battery (docs/platform-facts.md E: ≤ 15 % unplugged) and the other skips

    @Test func battery15PercentUnpluggedSkips() {
        var store = StepSyncStore(lastSyncAt: now - .hours(3))
        #expect(store.send(.periodicWorkRan(.phone(battery: 15)), at: now) == [.finishWork(success: true)])
        #expect(!store.state.isSyncing)
    }

    @Test func battery16PercentSyncs() {
        var store = StepSyncStore(lastSyncAt: now - .hours(3))
        #expect(store.send(.periodicWorkRan(.phone(battery: 16)), at: now) == [.readHealthData(from: midnight, to: now)])
    }

    @Test func battery5PercentWhileChargingSyncs() {
        var store = StepSyncStore(lastSyncAt: now - .hours(3))
        #expect(store.send(.periodicWorkRan(.phone(battery: 5, charging: true)), at: now) == [.readHealthData(from: midnight, to: now)])
    }

    @Test func theLowBatteryVariantSyncsAt15Percent() {
        var store = StepSyncStore(variants: .ignoresLowBattery, lastSyncAt: now - .hours(3))
        #expect(store.send(.periodicWorkRan(.phone(battery: 15)), at: now) == [.readHealthData(from: midnight, to: now)])
    }

    @Test func offlineLowPowerSignedOutOrTrackingOffSkip() {
        for context in [StepSyncContext.phone(online: false), .phone(lowPower: true), .phone(tracking: false), .phone(signedIn: false)] {
            var store = StepSyncStore(lastSyncAt: now - .hours(3))
            #expect(store.send(.healthDataDelivered(context), at: now) == [.finishWork(success: true)], "\(context)")
            #expect(store.send(.appOpened(context), at: now + .days(1)) == [periodic], "\(context)")
        }
    }

    @Test func aRetryWhileOfflineEndsTheChain() {
        var store = StepSyncStore(lastSyncAt: now - .hours(3))
        _ = store.send(.refreshTaskLaunched(.phone()), at: now)
        _ = store.send(.healthDataRead([DailySteps(date: day1, steps: 1)]), at: now)
        _ = store.send(.httpResponse(RequestID(1), .failed(.timedOut)), at: now)
        #expect(store.send(.retryTimerFired(.phone(online: false)), at: now + .minutes(5)) == [])
        #expect(store.send(.retryTimerFired(.phone()), at: now + .minutes(6)) == [])
    }

    // MARK: - Persistence across termination

    @Test func aRestoredStateResumesFromThePersistedTimestamp() {
        var store = StepSyncStore(lastSyncAt: now - .hours(3))
        _ = store.send(.refreshTaskLaunched(.phone()), at: now)
        _ = store.send(.healthDataRead([DailySteps(date: day1, steps: 1)]), at: now)
        _ = store.send(.httpResponse(RequestID(1), .ok(.stepsSynced(created: 0, updated: 1))), at: now)
        // The process dies; the app comes back from what reached the disk.
        var restored = StepSyncStore(persisted: store.state.stored)
        let later = now + .hours(2)
        #expect(restored.send(.healthDataDelivered(.phone()), at: later) == [.readHealthData(from: midnight, to: later)])
    }

    // MARK: - Variants of seed 003's cadence and reach

    /// The interval read as minutes: periodic work every 2 min, and a HealthKit delivery
    /// 2 min after the last sync syncs.
    @Test func theIntervalMinutesVariantSyncsTwoMinutesAfterTheLastSync() {
        var store = StepSyncStore(variants: .intervalMinutes, lastSyncAt: now - .minutes(2))
        #expect(store.send(.healthDataDelivered(.phone()), at: now) == [.readHealthData(from: midnight, to: now)])
        var opened = StepSyncStore(variants: .intervalMinutes, lastSyncAt: now - .hours(1))
        #expect(opened.send(.appOpened(.phone()), at: now) == [.schedulePeriodicWork(interval: .minutes(2), constraints: [.networkConnected, .batteryNotLow])])
    }

    /// An open 24 h after the last sync: the fixed logic syncs (``openAt24hSyncs()``); the
    /// 48 h variant does not until 48 h.
    @Test func theOpenSyncAfter48hVariantWaitsTwoDays() {
        var store = StepSyncStore(variants: .openSyncAfter48h, lastSyncAt: now - .hours(24))
        #expect(store.send(.appOpened(.phone()), at: now) == [periodic])
        var due = StepSyncStore(variants: .openSyncAfter48h, lastSyncAt: now - .hours(48))
        #expect(due.send(.appOpened(.phone()), at: now) == [periodic, .readHealthData(from: midnight - .days(2), to: now)])
    }

    /// A last sync 40 days ago: the fixed logic reads 30 days (``lastSync30DaysAnd1SecondAgoIsClampedTo30Days()``);
    /// the unlimited variant reads all 40.
    @Test func theBackfillUnlimitedVariantReadsBackToTheLastSync() {
        var store = StepSyncStore(variants: .backfillUnlimited, lastSyncAt: now - .days(40))
        #expect(store.send(.periodicWorkRan(.phone()), at: now) == [.readHealthData(from: midnight - .days(40), to: now)])
        var recent = StepSyncStore(variants: .backfillUnlimited, lastSyncAt: now - .hours(3))
        #expect(recent.send(.periodicWorkRan(.phone()), at: now) == [.readHealthData(from: midnight, to: now)])
    }
}
