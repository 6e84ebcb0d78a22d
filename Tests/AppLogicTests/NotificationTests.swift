import Testing
import AppLogic

/// When an available test is notified (seed `000` "Notification Strategy" and
/// "Notification Throttling"), and in what order the notification's effects run
/// (seed `002` issues 2 and 3).
///
/// Every test uses a test completed on 2026-01-01T00:00:00Z (server clock) and a server
/// time exactly 90 days later, on a device whose clock is right.
@Suite struct NotificationTests {
    /// 2026-01-01T00:00:00Z.
    let completedAt = Instant(unixSeconds: 1_767_225_600)
    /// 2026-04-01T00:00:00Z, 90 days after `completedAt`.
    let serverTime = Instant(unixSeconds: 1_775_001_600)

    @Test func notificationIsStoredAndFlushedBeforeItIsPostedThenTheTaskEnds() {
        let launchedAt = serverTime
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        #expect(store.send(.httpResponse(RequestID(1), .ok(.testHistory(latestCompletedAt: completedAt, serverTime: serverTime))), at: launchedAt + .seconds(1)) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
        let decidedAt = launchedAt + .seconds(2)
        #expect(store.send(.httpResponse(RequestID(2), .ok(.activeSession(inProgress: false, serverTime: serverTime + .seconds(1)))), at: decidedAt) == [
            .analytics(.dataFetched(.activeSession)),
            .store(.notifiedWindow, completedAt),
            .synchronize,
            .postNotification(LocalNotification(kind: .testAvailable, badge: nil)),
            .analytics(.notificationSent),
            .cancelHardStopTimer,
            .storeTime(.lastRefreshAt, steady(decidedAt)),
            .synchronize,
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .seconds(2))),
        ])
        #expect(store.state.stored == RefreshState.Stored(lastRefreshAt: steady(decidedAt), notifiedWindow: completedAt))
        #expect(!store.state.isRunningTask)
    }

    @Test func activeSessionInProgressDoesNotNotify() {
        let launchedAt = serverTime
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        #expect(store.send(.httpResponse(RequestID(1), .ok(.testHistory(latestCompletedAt: completedAt, serverTime: serverTime))), at: launchedAt + .seconds(1)) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
        let decidedAt = launchedAt + .seconds(2)
        #expect(store.send(.httpResponse(RequestID(2), .ok(.activeSession(inProgress: true, serverTime: serverTime + .seconds(1)))), at: decidedAt) == [
            .analytics(.dataFetched(.activeSession)),
            .cancelHardStopTimer,
            .storeTime(.lastRefreshAt, steady(decidedAt)),
            .synchronize,
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .seconds(2))),
        ])
        #expect(store.state.stored.notifiedWindow == nil)
    }

    @Test(arguments: [NotificationAuthorization.denied, .notDetermined])
    func notificationsNotPermittedDoNotNotify(authorization: NotificationAuthorization) {
        let launchedAt = serverTime
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device(notifications: authorization)), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        // No notification can follow, so the active session is not even asked for.
        let decidedAt = launchedAt + .seconds(1)
        #expect(store.send(.httpResponse(RequestID(1), .ok(.testHistory(latestCompletedAt: completedAt, serverTime: serverTime))), at: decidedAt) == [
            .analytics(.dataFetched(.testHistory)),
            .cancelHardStopTimer,
            .storeTime(.lastRefreshAt, steady(decidedAt)),
            .synchronize,
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .seconds(1))),
        ])
        #expect(store.state.stored.notifiedWindow == nil)
    }

    @Test func provisionalAuthorizationNotifies() {
        let launchedAt = serverTime
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device(notifications: .provisional)), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        #expect(store.send(.httpResponse(RequestID(1), .ok(.testHistory(latestCompletedAt: completedAt, serverTime: serverTime))), at: launchedAt + .seconds(1)) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
        let decidedAt = launchedAt + .seconds(2)
        #expect(store.send(.httpResponse(RequestID(2), .ok(.activeSession(inProgress: false, serverTime: serverTime + .seconds(1)))), at: decidedAt) == [
            .analytics(.dataFetched(.activeSession)),
            .store(.notifiedWindow, completedAt),
            .synchronize,
            .postNotification(LocalNotification(kind: .testAvailable, badge: nil)),
            .analytics(.notificationSent),
            .cancelHardStopTimer,
            .storeTime(.lastRefreshAt, steady(decidedAt)),
            .synchronize,
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .seconds(2))),
        ])
    }

    @Test func appOpened23h59m59sBeforeTheDecisionDoesNotNotify() {
        let launchedAt = serverTime
        let decidedAt = launchedAt + .seconds(1)
        let openedAt = decidedAt - (.hours(23) + .minutes(59) + .seconds(59))
        var store = RefreshStore()
        #expect(store.send(.appOpened, at: openedAt) == [
            .storeTime(.lastAppOpenAt, steady(openedAt)),
            .synchronize,
            .scheduleRefresh(earliestBegin: openedAt + .hours(4)),
        ])
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        // Decided on the history response: no active-session request, no notification.
        #expect(store.send(.httpResponse(RequestID(1), .ok(.testHistory(latestCompletedAt: completedAt, serverTime: serverTime))), at: decidedAt) == [
            .analytics(.dataFetched(.testHistory)),
            .cancelHardStopTimer,
            .storeTime(.lastRefreshAt, steady(decidedAt)),
            .synchronize,
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .seconds(1))),
        ])
        #expect(store.state.stored.notifiedWindow == nil)
    }

    @Test func appOpenedExactly24hBeforeTheDecisionNotifies() {
        let launchedAt = serverTime
        let historyAt = launchedAt + .seconds(1)  // the decision: the open is exactly 24 h old
        let decidedAt = launchedAt + .seconds(2)
        let openedAt = historyAt - .hours(24)
        var store = RefreshStore()
        #expect(store.send(.appOpened, at: openedAt) == [
            .storeTime(.lastAppOpenAt, steady(openedAt)),
            .synchronize,
            .scheduleRefresh(earliestBegin: openedAt + .hours(4)),
        ])
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        #expect(store.send(.httpResponse(RequestID(1), .ok(.testHistory(latestCompletedAt: completedAt, serverTime: serverTime))), at: historyAt) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
        #expect(store.send(.httpResponse(RequestID(2), .ok(.activeSession(inProgress: false, serverTime: serverTime + .seconds(1)))), at: decidedAt) == [
            .analytics(.dataFetched(.activeSession)),
            .store(.notifiedWindow, completedAt),
            .synchronize,
            .postNotification(LocalNotification(kind: .testAvailable, badge: nil)),
            .analytics(.notificationSent),
            .cancelHardStopTimer,
            .storeTime(.lastRefreshAt, steady(decidedAt)),
            .synchronize,
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .seconds(2))),
        ])
    }

    /// One notification per window: 12 h after the notifying refresh, the same latest
    /// completion ends the task right after the history, without asking for the active
    /// session. A later test (a new window) notifies again.
    @Test func oneNotificationPerWindowAndANewWindowNotifiesAgain() {
        var store = RefreshStore()

        // First refresh: notifies for the window of `completedAt`.
        let firstLaunch = serverTime
        #expect(store.send(.taskLaunched(.device()), at: firstLaunch) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: firstLaunch + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        #expect(store.send(.httpResponse(RequestID(1), .ok(.testHistory(latestCompletedAt: completedAt, serverTime: serverTime))), at: firstLaunch + .seconds(1)) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
        let firstDecision = firstLaunch + .seconds(2)
        #expect(store.send(.httpResponse(RequestID(2), .ok(.activeSession(inProgress: false, serverTime: serverTime + .seconds(1)))), at: firstDecision) == [
            .analytics(.dataFetched(.activeSession)),
            .store(.notifiedWindow, completedAt),
            .synchronize,
            .postNotification(LocalNotification(kind: .testAvailable, badge: nil)),
            .analytics(.notificationSent),
            .cancelHardStopTimer,
            .storeTime(.lastRefreshAt, steady(firstDecision)),
            .synchronize,
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .seconds(2))),
        ])

        // Second refresh, exactly 12 h after the first one ended: same window, no request
        // for the active session, no notification.
        let secondLaunch = firstDecision + .hours(12)
        #expect(store.send(.taskLaunched(.device()), at: secondLaunch) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: secondLaunch + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(3), .testHistory(limit: 1)),
        ])
        let secondAnswer = secondLaunch + .seconds(1)
        #expect(store.send(.httpResponse(RequestID(3), .ok(.testHistory(latestCompletedAt: completedAt, serverTime: serverTime + .hours(12) + .seconds(3)))), at: secondAnswer) == [
            .analytics(.dataFetched(.testHistory)),
            .cancelHardStopTimer,
            .storeTime(.lastRefreshAt, steady(secondAnswer)),
            .synchronize,
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .seconds(1))),
        ])
        #expect(store.state.stored.notifiedWindow == completedAt)

        // The user took a new test on 2026-04-02T00:00:00Z; 90 days later (2026-07-01T00:00:00Z)
        // a refresh notifies for that new window.
        let newCompletedAt = Instant(unixSeconds: 1_775_088_000)
        let newServerTime = Instant(unixSeconds: 1_782_864_000)
        let thirdLaunch = newServerTime
        #expect(store.send(.taskLaunched(.device()), at: thirdLaunch) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: thirdLaunch + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(4), .testHistory(limit: 1)),
        ])
        #expect(store.send(.httpResponse(RequestID(4), .ok(.testHistory(latestCompletedAt: newCompletedAt, serverTime: newServerTime))), at: thirdLaunch + .seconds(1)) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(5), .activeSession),
        ])
        let thirdDecision = thirdLaunch + .seconds(2)
        #expect(store.send(.httpResponse(RequestID(5), .ok(.activeSession(inProgress: false, serverTime: newServerTime + .seconds(1)))), at: thirdDecision) == [
            .analytics(.dataFetched(.activeSession)),
            .store(.notifiedWindow, newCompletedAt),
            .synchronize,
            .postNotification(LocalNotification(kind: .testAvailable, badge: nil)),
            .analytics(.notificationSent),
            .cancelHardStopTimer,
            .storeTime(.lastRefreshAt, steady(thirdDecision)),
            .synchronize,
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .seconds(2))),
        ])
        #expect(store.state.stored == RefreshState.Stored(lastRefreshAt: steady(thirdDecision), notifiedWindow: newCompletedAt))
    }
}
