import Testing
import AppLogic

/// How a task ends: the 20 s hard stop, the expiration handler, 401 and the other
/// failures. `setTaskCompleted` runs exactly once (seed `002`, issue 1), and late
/// inputs after it produce nothing.
@Suite struct TaskCompletionTests {
    /// 2026-01-01T00:00:00Z.
    let launchedAt = Instant(unixSeconds: 1_767_225_600)

    @Test func hardStopWhileAwaitingCancelsAndCompletesOnceAndTheCancelledResponseIsIgnored() {
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        let firedAt = launchedAt + .seconds(20)
        #expect(store.send(.hardStopFired, at: firedAt) == [
            .cancelRequests,
            .completeTask(success: false),
            .analytics(.refreshCompleted(success: false, duration: .seconds(20))),
        ])
        #expect(!store.state.isRunningTask)
        #expect(store.send(.httpResponse(RequestID(1), .failed(.cancelled)), at: firedAt) == [])
        #expect(store.send(.taskExpired, at: launchedAt + .seconds(30)) == [])
        #expect(store.state.stored == RefreshState.Stored())
    }

    /// The hard stop fires before the cancelled request answers; the system's expiration
    /// comes later still. Nothing is cancelled or completed twice.
    @Test func expirationAfterHardStopButBeforeTheCancelledResponseDoesNothing() {
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        #expect(store.send(.hardStopFired, at: launchedAt + .seconds(20)) == [
            .cancelRequests,
            .completeTask(success: false),
            .analytics(.refreshCompleted(success: false, duration: .seconds(20))),
        ])
        #expect(store.send(.taskExpired, at: launchedAt + .seconds(30)) == [])
        #expect(store.send(.httpResponse(RequestID(1), .failed(.cancelled)), at: launchedAt + .seconds(30)) == [])
    }

    @Test func hardStopWhileAwaitingTheActiveSessionCompletesWithoutNotifying() {
        let completedAt = launchedAt - .days(90)
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        #expect(store.send(.httpResponse(RequestID(1), .ok(.testHistory(latestCompletedAt: completedAt, serverTime: launchedAt))), at: launchedAt + .seconds(1)) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
        #expect(store.send(.hardStopFired, at: launchedAt + .seconds(20)) == [
            .cancelRequests,
            .completeTask(success: false),
            .analytics(.refreshCompleted(success: false, duration: .seconds(20))),
        ])
        // A late success for the cancelled request must not notify.
        #expect(store.send(.httpResponse(RequestID(2), .ok(.activeSession(inProgress: false, serverTime: launchedAt + .seconds(20)))), at: launchedAt + .seconds(21)) == [])
        #expect(store.state.stored == RefreshState.Stored())
    }

    @Test func expirationWhileAwaitingCancelsAndCompletesOnce() {
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        let expiredAt = launchedAt + .seconds(5)
        #expect(store.send(.taskExpired, at: expiredAt) == [
            .cancelRequests,
            .cancelHardStopTimer,
            .completeTask(success: false),
            .analytics(.refreshCompleted(success: false, duration: .seconds(5))),
        ])
        #expect(store.send(.httpResponse(RequestID(1), .failed(.cancelled)), at: expiredAt) == [])
        // The timer was cancelled; had its firing already been queued, it is ignored.
        #expect(store.send(.hardStopFired, at: launchedAt + .seconds(20)) == [])
        #expect(store.send(.taskExpired, at: launchedAt + .seconds(30)) == [])
    }

    @Test func expirationAfterANormalCompletionDoesNothing() {
        let completedAt = launchedAt - .days(10)
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        let answeredAt = launchedAt + .seconds(1)
        #expect(store.send(.httpResponse(RequestID(1), .ok(.testHistory(latestCompletedAt: completedAt, serverTime: launchedAt))), at: answeredAt) == [
            .analytics(.dataFetched(.testHistory)),
            .cancelHardStopTimer,
            .storeTime(.lastRefreshAt, steady(answeredAt)),
            .synchronize,
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .seconds(1))),
        ])
        #expect(store.send(.taskExpired, at: launchedAt + .seconds(30)) == [])
        #expect(store.send(.hardStopFired, at: launchedAt + .seconds(20)) == [])
    }

    @Test func expirationAfterASkippedLaunchDoesNothing() {
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device(signedIn: false)), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .zero)),
        ])
        #expect(store.send(.taskExpired, at: launchedAt + .seconds(30)) == [])
    }

    @Test func unauthorizedHistorySignsOutClearsTheScheduleAndFails() {
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        #expect(store.send(.httpResponse(RequestID(1), .status(401)), at: launchedAt + .seconds(1)) == [
            .cancelHardStopTimer,
            .signOut,
            .cancelScheduledRefresh,
            .completeTask(success: false),
            .analytics(.refreshCompleted(success: false, duration: .seconds(1))),
        ])
        #expect(store.send(.taskExpired, at: launchedAt + .seconds(30)) == [])
        #expect(store.state.stored == RefreshState.Stored())
    }

    @Test func unauthorizedActiveSessionSignsOutClearsTheScheduleAndFails() {
        let completedAt = launchedAt - .days(90)
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        #expect(store.send(.httpResponse(RequestID(1), .ok(.testHistory(latestCompletedAt: completedAt, serverTime: launchedAt))), at: launchedAt + .seconds(1)) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
        #expect(store.send(.httpResponse(RequestID(2), .status(401)), at: launchedAt + .seconds(2)) == [
            .cancelHardStopTimer,
            .signOut,
            .cancelScheduledRefresh,
            .completeTask(success: false),
            .analytics(.refreshCompleted(success: false, duration: .seconds(2))),
        ])
        #expect(store.state.stored == RefreshState.Stored())
    }

    @Test(arguments: [
        HTTPResult.status(503), .status(500), .failed(.timedOut), .failed(.offline), .failed(.connectionLost),
    ])
    func failureCompletesUnsuccessfullyExactlyOnce(result: HTTPResult) {
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        #expect(store.send(.httpResponse(RequestID(1), result), at: launchedAt + .seconds(3)) == [
            .cancelHardStopTimer,
            .completeTask(success: false),
            .analytics(.refreshCompleted(success: false, duration: .seconds(3))),
        ])
        #expect(store.send(.hardStopFired, at: launchedAt + .seconds(20)) == [])
        #expect(store.send(.taskExpired, at: launchedAt + .seconds(30)) == [])
        // A failure is not a refresh: the next launch is not throttled by it.
        #expect(store.state.stored == RefreshState.Stored())
    }

    @Test func responseWithAnUnknownRequestIDIsIgnored() {
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        #expect(store.send(.httpResponse(RequestID(7), .status(401)), at: launchedAt + .seconds(1)) == [])
        #expect(store.state.isRunningTask)
    }
}
