import Testing
import AppLogic

/// The known bugs of seed `002`, switched on one at a time: each test shows the bug's
/// effect, next to the fixed logic where the two runs differ only by the variant.
@Suite struct RefreshVariantTests {
    /// 2026-01-01T00:00:00Z.
    let completedAt = Instant(unixSeconds: 1_767_225_600)
    /// 2026-04-01T00:00:00Z, 90 days after `completedAt`.
    let serverTime = Instant(unixSeconds: 1_775_001_600)

    /// Launches a task on `store` one second before `answeredAt` (its effects asserted
    /// in full) and returns what the test-history answer, at the device time
    /// `answeredAt`, produces. It decides nothing: availability is whatever the logic
    /// answers.
    private func historyAnswer(
        _ store: inout RefreshStore, context: RefreshLaunchContext = .device(),
        latestCompletedAt: Instant, serverTime: Instant, answeredAt: Instant,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [RefreshEffect] {
        let launchedAt = answeredAt - .seconds(1)
        #expect(store.send(.taskLaunched(context), at: launchedAt) == asksForTheHistory(launchedAt: launchedAt), sourceLocation: sourceLocation)
        return store.send(.httpResponse(RequestID(1), .ok(.testHistory(latestCompletedAt: latestCompletedAt, serverTime: serverTime))), at: answeredAt)
    }

    /// A launch that may refresh: started, the next request submitted 4 h on, the 20 s
    /// hard stop armed, the history asked for (seed `000`, Phase 1.5 and 5.1).
    private func asksForTheHistory(launchedAt: Instant, request: UInt32 = 1, limit: Int = 1) -> [RefreshEffect] {
        [.analytics(.refreshStarted),
         .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
         .startHardStopTimer(after: .seconds(20)),
         .httpRequest(RequestID(request), .testHistory(limit: limit))]
    }

    /// A failure's end: no retry, the task completed unsuccessfully with its duration (seed
    /// `000`, Decision 5).
    private func failsAndCompletes(after duration: Interval) -> [RefreshEffect] {
        [.cancelHardStopTimer, .completeTask(success: false), .analytics(.refreshCompleted(success: false, duration: duration))]
    }

    /// An answer that ends the refresh without a notification: `fetched` counted, the hard
    /// stop cancelled, the refresh's time stored at `at` and flushed, the task completed
    /// successfully `duration` after its launch (seed `000`, Decisions 2 and 5).
    private func finishesWithoutNotifying(fetched: AnalyticsEvent.FetchedData, at: Instant, after duration: Interval) -> [RefreshEffect] {
        [.analytics(.dataFetched(fetched)),
         .cancelHardStopTimer,
         .storeTime(.lastRefreshAt, steady(at)),
         .synchronize,
         .completeTask(success: true),
         .analytics(.refreshCompleted(success: true, duration: duration))]
    }

    /// The effects that follow an active-session answer finding the test due, with the
    /// writes flushed: the window stored, the notification posted, the task completed
    /// `duration` after its launch.
    private func notifiesAndCompletes(at decidedAt: Instant, badge: Int? = nil, after duration: Interval) -> [RefreshEffect] {
        [.analytics(.dataFetched(.activeSession)),
         .store(.notifiedWindow, completedAt),
         .synchronize,
         .postNotification(LocalNotification(kind: .testAvailable, badge: badge)),
         .analytics(.notificationSent),
         .cancelHardStopTimer,
         .storeTime(.lastRefreshAt, steady(decidedAt)),
         .synchronize,
         .completeTask(success: true),
         .analytics(.refreshCompleted(success: true, duration: duration))]
    }

    // MARK: - unguardedCompletion (seed `002`, issue 1)

    /// The expiration handler completes the task; the awaiting request, answering
    /// "cancelled", completes it a second time. (The fixed logic ignores that answer:
    /// `TaskCompletionTests.expirationWhileAwaitingCancelsAndCompletesOnce`.)
    @Test func unguardedCompletionCompletesASecondTimeOnTheCancelledResponse() {
        let launchedAt = serverTime
        var store = RefreshStore(variants: .unguardedCompletion)
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == asksForTheHistory(launchedAt: launchedAt))
        let expiredAt = launchedAt + .seconds(5)
        #expect(store.send(.taskExpired, at: expiredAt) == [
            .cancelRequests,
            .cancelHardStopTimer,
            .completeTask(success: false),
            .analytics(.refreshCompleted(success: false, duration: .seconds(5))),
        ])
        #expect(store.send(.httpResponse(RequestID(1), .failed(.cancelled)), at: expiredAt) == [
            .completeTask(success: false),
            .analytics(.refreshCompleted(success: false, duration: .seconds(5))),
        ])
    }

    // MARK: - noSynchronize (seed `002`, issue 2)

    @Test func noSynchronizeNeverFlushesTheWrites() {
        let launchedAt = serverTime
        var store = RefreshStore(variants: .noSynchronize)
        #expect(historyAnswer(&store, latestCompletedAt: completedAt, serverTime: serverTime, answeredAt: launchedAt + .seconds(1)) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
        let decidedAt = launchedAt + .seconds(2)
        #expect(store.send(.httpResponse(RequestID(2), .ok(.activeSession(inProgress: false, serverTime: serverTime + .seconds(1)))), at: decidedAt) == [
            .analytics(.dataFetched(.activeSession)),
            .store(.notifiedWindow, completedAt),
            .postNotification(LocalNotification(kind: .testAvailable, badge: nil)),
            .analytics(.notificationSent),
            .cancelHardStopTimer,
            .storeTime(.lastRefreshAt, steady(decidedAt)),
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .seconds(2))),
        ])
    }

    // MARK: - badgeOverwrite (seed `002`, issue 3)

    @Test func badgeOverwriteSetsTheBadgeToOne() {
        let launchedAt = serverTime
        var store = RefreshStore(variants: .badgeOverwrite)
        #expect(historyAnswer(&store, latestCompletedAt: completedAt, serverTime: serverTime, answeredAt: launchedAt + .seconds(1)) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
        let decidedAt = launchedAt + .seconds(2)
        #expect(store.send(.httpResponse(RequestID(2), .ok(.activeSession(inProgress: false, serverTime: serverTime + .seconds(1)))), at: decidedAt) == notifiesAndCompletes(at: decidedAt, badge: 1, after: .seconds(2)))
    }

    // MARK: - cadenceOffByOne

    @Test func cadenceOffByOneIsNotAvailableAtExactly90Days() {
        let serverTime = completedAt + .days(90)
        let answeredAt = serverTime

        var buggy = RefreshStore(variants: .cadenceOffByOne)
        #expect(historyAnswer(&buggy, latestCompletedAt: completedAt, serverTime: serverTime, answeredAt: answeredAt) == finishesWithoutNotifying(fetched: .testHistory, at: answeredAt, after: .seconds(1)))

        var fixed = RefreshStore()
        #expect(historyAnswer(&fixed, latestCompletedAt: completedAt, serverTime: serverTime, answeredAt: answeredAt) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
    }

    @Test func cadenceOffByOneIsAvailableAt91Days() {
        let serverTime = completedAt + .days(91)
        var buggy = RefreshStore(variants: .cadenceOffByOne)
        #expect(historyAnswer(&buggy, latestCompletedAt: completedAt, serverTime: serverTime, answeredAt: serverTime) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
    }

    // MARK: - localCalendarDays (seed `002`, issue 5)

    /// The device clock runs 3 days ahead; 87 true days have passed. The local-calendar
    /// count reads the device clock and says 90: available. The fixed logic reads the
    /// server's clock: not available.
    @Test func localCalendarDaysWithADeviceClock3DaysAheadIsAvailableAt87TrueDays() {
        let serverTime = completedAt + .days(87)
        let deviceNow = serverTime + .days(3)

        var buggy = RefreshStore(variants: .localCalendarDays)
        #expect(historyAnswer(&buggy, latestCompletedAt: completedAt, serverTime: serverTime, answeredAt: deviceNow) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])

        var fixed = RefreshStore()
        #expect(historyAnswer(&fixed, latestCompletedAt: completedAt, serverTime: serverTime, answeredAt: deviceNow) == finishesWithoutNotifying(fetched: .testHistory, at: deviceNow, after: .seconds(1)))
    }

    /// New York springs forward on 2026-03-08 (02:00 EST becomes 03:00 EDT), so 90
    /// calendar days from 00:30 that night end one hour before 90 × 24 h have elapsed.
    /// With a right device clock, between those two instants the local-calendar count
    /// says available and the fixed logic does not.
    @Test func localCalendarDaysAcrossSpringForwardInNewYorkCountsAnHourEarly() {
        let newYork = RefreshLaunchContext.device(timeZone: "America/New_York")
        // 2026-03-08T00:30:00-05:00 (EST), on the server's clock.
        let completedAt = Instant(unixSeconds: 1_772_947_800)
        // 2026-06-06T00:30:00-04:00 (EDT): 90 calendar days later, 89 d 23 h elapsed.
        let ninetyCalendarDays = Instant(unixSeconds: 1_780_720_200)
        #expect(ninetyCalendarDays - completedAt == .days(89) + .hours(23))
        // 2026-06-06T01:30:00-04:00 (EDT): 90 × 24 h elapsed.
        let ninetyTimes24h = Instant(unixSeconds: 1_780_723_800)
        #expect(ninetyTimes24h - completedAt == .days(90))

        // One second before 90 calendar days, both say not available.
        let justBefore = ninetyCalendarDays - .seconds(1)
        var buggyBefore = RefreshStore(variants: .localCalendarDays)
        #expect(historyAnswer(&buggyBefore, context: newYork, latestCompletedAt: completedAt, serverTime: justBefore, answeredAt: justBefore) == finishesWithoutNotifying(fetched: .testHistory, at: justBefore, after: .seconds(1)))

        // At 90 calendar days (89 d 23 h elapsed) they disagree.
        var buggy = RefreshStore(variants: .localCalendarDays)
        #expect(historyAnswer(&buggy, context: newYork, latestCompletedAt: completedAt, serverTime: ninetyCalendarDays, answeredAt: ninetyCalendarDays) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
        var fixed = RefreshStore()
        #expect(historyAnswer(&fixed, context: newYork, latestCompletedAt: completedAt, serverTime: ninetyCalendarDays, answeredAt: ninetyCalendarDays) == finishesWithoutNotifying(fetched: .testHistory, at: ninetyCalendarDays, after: .seconds(1)))

        // One second before 90 × 24 h the fixed logic still says not available; at
        // 90 × 24 h it says available.
        let fixedJustBefore = ninetyTimes24h - .seconds(1)
        var fixedBefore = RefreshStore()
        #expect(historyAnswer(&fixedBefore, context: newYork, latestCompletedAt: completedAt, serverTime: fixedJustBefore, answeredAt: fixedJustBefore) == finishesWithoutNotifying(fetched: .testHistory, at: fixedJustBefore, after: .seconds(1)))
        var fixedAt = RefreshStore()
        #expect(historyAnswer(&fixedAt, context: newYork, latestCompletedAt: completedAt, serverTime: ninetyTimes24h, answeredAt: ninetyTimes24h) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
    }

    // MARK: - ignoresRecentOpen

    @Test func ignoresRecentOpenNotifiesAlthoughTheAppWasOpenedAnHourBefore() {
        let launchedAt = serverTime
        let decidedAt = launchedAt + .seconds(2)
        let openedAt = decidedAt - .hours(1)
        var store = RefreshStore(variants: .ignoresRecentOpen)
        #expect(store.send(.appOpened, at: openedAt) == [
            .storeTime(.lastAppOpenAt, steady(openedAt)),
            .synchronize,
            .scheduleRefresh(earliestBegin: openedAt + .hours(4)),
        ])
        #expect(historyAnswer(&store, latestCompletedAt: completedAt, serverTime: serverTime, answeredAt: launchedAt + .seconds(1)) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
        #expect(store.send(.httpResponse(RequestID(2), .ok(.activeSession(inProgress: false, serverTime: serverTime + .seconds(1)))), at: decidedAt) == notifiesAndCompletes(at: decidedAt, after: .seconds(2)))
    }

    // MARK: - preferredIntervalMinutes, minimumIntervalMinutes, hardStopIgnored (seed 000)

    /// The next request is asked for 4 min ahead, at a launch and at an open.
    @Test func preferredIntervalMinutesAsksForTheNextRefresh4MinutesAhead() {
        let launchedAt = serverTime
        var store = RefreshStore(variants: .preferredIntervalMinutes)
        #expect(store.send(.taskLaunched(.device(signedIn: false)), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .minutes(4)),
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .zero)),
        ])
        let openedAt = launchedAt + .hours(1)
        #expect(store.send(.appOpened, at: openedAt) == [
            .storeTime(.lastAppOpenAt, steady(openedAt)),
            .synchronize,
            .scheduleRefresh(earliestBegin: openedAt + .minutes(4)),
        ])
    }

    /// 4 h after a refresh, the fixed logic skips (12 h not passed); the variant, waiting
    /// 12 min, fetches again.
    @Test func minimumIntervalMinutesFetchesAgain4HoursAfterARefresh() {
        let refreshedAt = serverTime + .seconds(1)
        let relaunchedAt = refreshedAt + .hours(4)
        for variants in [RefreshVariants.minimumIntervalMinutes, []] {
            var store = RefreshStore(variants: variants)
            #expect(historyAnswer(&store, latestCompletedAt: serverTime, serverTime: serverTime, answeredAt: refreshedAt) == finishesWithoutNotifying(fetched: .testHistory, at: refreshedAt, after: .seconds(1)))
            let relaunch = store.send(.taskLaunched(.device()), at: relaunchedAt)
            if variants.isEmpty {
                #expect(relaunch == [
                    .analytics(.refreshStarted),
                    .scheduleRefresh(earliestBegin: relaunchedAt + .hours(4)),
                    .completeTask(success: true),
                    .analytics(.refreshCompleted(success: true, duration: .zero)),
                ])
            } else {
                #expect(relaunch == asksForTheHistory(launchedAt: relaunchedAt, request: 2))
            }
        }
    }

    /// The launch sends its request without starting the 20 s timer; the expiration
    /// handler is what ends the task.
    @Test func hardStopIgnoredStartsNoTimer() {
        let launchedAt = serverTime
        var store = RefreshStore(variants: .hardStopIgnored)
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        #expect(store.send(.taskExpired, at: launchedAt + .seconds(30)) == [
            .cancelRequests,
            .cancelHardStopTimer,
            .completeTask(success: false),
            .analytics(.refreshCompleted(success: false, duration: .seconds(30))),
        ])
    }

    // MARK: - ignoresSignOut, ignoresOffline, fullHistory, ignoresPermission (seed 000)

    /// Signed out or offline, the fixed logic completes at once; each variant sends.
    @Test func ignoresSignOutAndIgnoresOfflineSendTheRequest() {
        let launchedAt = serverTime
        let sends: [RefreshEffect] = asksForTheHistory(launchedAt: launchedAt)
        var signedOut = RefreshStore(variants: .ignoresSignOut)
        #expect(signedOut.send(.taskLaunched(.device(signedIn: false)), at: launchedAt) == sends)
        var offline = RefreshStore(variants: .ignoresOffline)
        #expect(offline.send(.taskLaunched(.device(online: false)), at: launchedAt) == sends)
        var fixed = RefreshStore()
        #expect(fixed.send(.taskLaunched(.device(online: false)), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .completeTask(success: false),
            .analytics(.refreshCompleted(success: false, duration: .zero)),
        ])
    }

    @Test func fullHistoryAsksForTwentyTests() {
        let launchedAt = serverTime
        var store = RefreshStore(variants: .fullHistory)
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == asksForTheHistory(launchedAt: launchedAt, limit: 20))
    }

    /// Notifications denied: the fixed logic does not even ask for the active session;
    /// the variant asks, then posts and marks the window notified.
    @Test func ignoresPermissionPostsWithNotificationsDenied() {
        let launchedAt = serverTime
        let denied = RefreshLaunchContext.device(notifications: .denied)
        var fixed = RefreshStore()
        #expect(historyAnswer(&fixed, context: denied, latestCompletedAt: completedAt, serverTime: serverTime, answeredAt: launchedAt + .seconds(1)) == finishesWithoutNotifying(fetched: .testHistory, at: launchedAt + .seconds(1), after: .seconds(1)))
        var buggy = RefreshStore(variants: .ignoresPermission)
        #expect(historyAnswer(&buggy, context: denied, latestCompletedAt: completedAt, serverTime: serverTime, answeredAt: launchedAt + .seconds(1)) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
        let decidedAt = launchedAt + .seconds(2)
        #expect(buggy.send(.httpResponse(RequestID(2), .ok(.activeSession(inProgress: false, serverTime: serverTime + .seconds(1)))), at: decidedAt) == notifiesAndCompletes(at: decidedAt, after: .seconds(2)))
    }

    // MARK: - durationSinceLastRefresh (seed 000, Decision 6)

    /// A refresh whose answer came 1 s after its launch reports 0 s: the time since the
    /// refresh it just stamped.
    @Test func durationSinceLastRefreshReportsZeroForARefreshThatJustFinished() {
        let answeredAt = serverTime + .seconds(3)
        var store = RefreshStore(variants: .durationSinceLastRefresh)
        #expect(historyAnswer(&store, latestCompletedAt: serverTime, serverTime: serverTime, answeredAt: answeredAt) == finishesWithoutNotifying(fetched: .testHistory, at: answeredAt, after: .zero))
    }

    // MARK: - retryOnce (seed 000, Decision 5)

    /// A failed history request: the fixed logic completes with `success: false`; the
    /// variant asks once more, the hard stop still armed, and completes after the second failure.
    @Test func retryOnceAsksForTheHistoryAgainAfterAFailure() {
        let launchedAt = serverTime
        let launch: [RefreshEffect] = asksForTheHistory(launchedAt: launchedAt)
        var fixed = RefreshStore()
        #expect(fixed.send(.taskLaunched(.device()), at: launchedAt) == launch)
        #expect(fixed.send(.httpResponse(RequestID(1), .failed(.connectionLost)), at: launchedAt + .seconds(1)) == failsAndCompletes(after: .seconds(1)))
        var buggy = RefreshStore(variants: .retryOnce)
        #expect(buggy.send(.taskLaunched(.device()), at: launchedAt) == launch)
        #expect(buggy.send(.httpResponse(RequestID(1), .status(503)), at: launchedAt + .seconds(1)) == [
            .httpRequest(RequestID(2), .testHistory(limit: 1)),
        ])
        #expect(buggy.send(.httpResponse(RequestID(2), .status(503)), at: launchedAt + .seconds(2)) == failsAndCompletes(after: .seconds(2)))
    }

    // MARK: - ignores401 (seed 000, Phase 5.3)

    /// A 401: the fixed logic signs out and cancels the next refresh before completing;
    /// the variant completes as after any other failure.
    @Test func ignores401KeepsTheUserSignedInAndTheScheduleSet() {
        let launchedAt = serverTime
        var fixed = RefreshStore()
        _ = fixed.send(.taskLaunched(.device()), at: launchedAt)
        #expect(fixed.send(.httpResponse(RequestID(1), .status(401)), at: launchedAt + .seconds(1)) == [
            .cancelHardStopTimer,
            .signOut,
            .cancelScheduledRefresh,
            .completeTask(success: false),
            .analytics(.refreshCompleted(success: false, duration: .seconds(1))),
        ])
        var buggy = RefreshStore(variants: .ignores401)
        _ = buggy.send(.taskLaunched(.device()), at: launchedAt)
        #expect(buggy.send(.httpResponse(RequestID(1), .status(401)), at: launchedAt + .seconds(1)) == failsAndCompletes(after: .seconds(1)))
    }

    // MARK: - alwaysFetchActive (seed 000, "Data to Fetch")

    /// A test not yet due (completed 89 days before the server's time): the fixed logic
    /// finishes after the history; the variant asks for the active session.
    @Test func alwaysFetchActiveAsksForTheActiveSessionOfATestNotDue() {
        let launchedAt = serverTime
        let notDue = serverTime - .days(89)
        var fixed = RefreshStore()
        #expect(historyAnswer(&fixed, latestCompletedAt: notDue, serverTime: serverTime, answeredAt: launchedAt + .seconds(1)) == finishesWithoutNotifying(fetched: .testHistory, at: launchedAt + .seconds(1), after: .seconds(1)))
        var buggy = RefreshStore(variants: .alwaysFetchActive)
        #expect(historyAnswer(&buggy, latestCompletedAt: notDue, serverTime: serverTime, answeredAt: launchedAt + .seconds(1)) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
    }

    // MARK: - ignoresActiveSession (seed 000, "Check active session")

    /// A test in progress: the fixed logic finishes without notifying; the variant notifies.
    @Test func ignoresActiveSessionNotifiesDuringATest() {
        let launchedAt = serverTime
        let inProgress = HTTPResult.ok(.activeSession(inProgress: true, serverTime: serverTime + .seconds(1)))
        let decidedAt = launchedAt + .seconds(2)
        var fixed = RefreshStore()
        _ = historyAnswer(&fixed, latestCompletedAt: completedAt, serverTime: serverTime, answeredAt: launchedAt + .seconds(1))
        #expect(fixed.send(.httpResponse(RequestID(2), inProgress), at: decidedAt) == finishesWithoutNotifying(fetched: .activeSession, at: decidedAt, after: .seconds(2)))
        var buggy = RefreshStore(variants: .ignoresActiveSession)
        _ = historyAnswer(&buggy, latestCompletedAt: completedAt, serverTime: serverTime, answeredAt: launchedAt + .seconds(1))
        #expect(buggy.send(.httpResponse(RequestID(2), inProgress), at: decidedAt) == notifiesAndCompletes(at: decidedAt, after: .seconds(2)))
    }
}
