import Testing
import AppLogic

/// The 90-day cadence, decided on the server's clock (seed `000` "When to Notify",
/// seed `002` issue 5). "Available" shows as the active-session request; "not
/// available" as the end of the task right after the history.
@Suite struct TestAvailabilityTests {
    /// The last test's completion, on the server's clock: 2026-01-01T00:00:00Z.
    let completedAt = Instant(unixSeconds: 1_767_225_600)

    @Test func completion89Days23h59m59sBeforeServerTimeIsNotAvailable() {
        let serverTime = completedAt + .days(89) + .hours(23) + .minutes(59) + .seconds(59)
        let launchedAt = serverTime
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        let answeredAt = launchedAt + .seconds(1)
        #expect(store.send(.httpResponse(RequestID(1), .ok(.testHistory(latestCompletedAt: completedAt, serverTime: serverTime))), at: answeredAt) == [
            .analytics(.dataFetched(.testHistory)),
            .cancelHardStopTimer,
            .storeTime(.lastRefreshAt, steady(answeredAt)),
            .synchronize,
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .seconds(1))),
        ])
        #expect(store.state.stored == RefreshState.Stored(lastRefreshAt: steady(answeredAt)))
    }

    @Test func completionExactly90DaysBeforeServerTimeIsAvailable() {
        let serverTime = completedAt + .days(90)
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
    }

    /// The device clock runs 3 days ahead: the device believes 90 days have passed, the
    /// server (the truth) says 87. The test is not available yet.
    @Test func deviceClock3DaysAheadAt87ServerDaysIsNotAvailable() {
        let serverTime = completedAt + .days(87)
        let launchedAt = serverTime + .days(3)
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        let answeredAt = launchedAt + .seconds(1)
        #expect(store.send(.httpResponse(RequestID(1), .ok(.testHistory(latestCompletedAt: completedAt, serverTime: serverTime))), at: answeredAt) == [
            .analytics(.dataFetched(.testHistory)),
            .cancelHardStopTimer,
            .storeTime(.lastRefreshAt, steady(answeredAt)),
            .synchronize,
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .seconds(1))),
        ])
    }

    /// The device clock runs 3 days behind: the device believes 87 days have passed, the
    /// server says 90. The server decides: available.
    @Test func deviceClock3DaysBehindAt90ServerDaysIsAvailable() {
        let serverTime = completedAt + .days(90)
        let launchedAt = serverTime - .days(3)
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
    }

    /// A completion after the server's own clock (skew between servers): fail safe, not
    /// available, even though the device clock is 200 days past it.
    @Test func completionInTheFutureOfServerTimeIsNotAvailable() {
        let serverTime = completedAt - .seconds(1)
        let launchedAt = completedAt + .days(200)
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        let answeredAt = launchedAt + .seconds(1)
        #expect(store.send(.httpResponse(RequestID(1), .ok(.testHistory(latestCompletedAt: completedAt, serverTime: serverTime))), at: answeredAt) == [
            .analytics(.dataFetched(.testHistory)),
            .cancelHardStopTimer,
            .storeTime(.lastRefreshAt, steady(answeredAt)),
            .synchronize,
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .seconds(1))),
        ])
    }

    /// A user who never completed a test may take the first one.
    @Test func noCompletedTestIsAvailable() {
        let serverTime = completedAt
        let launchedAt = serverTime
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        #expect(store.send(.httpResponse(RequestID(1), .ok(.testHistory(latestCompletedAt: nil, serverTime: serverTime))), at: launchedAt + .seconds(1)) == [
            .analytics(.dataFetched(.testHistory)),
            .httpRequest(RequestID(2), .activeSession),
        ])
    }
}
