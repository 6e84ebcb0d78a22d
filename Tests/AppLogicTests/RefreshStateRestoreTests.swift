import Testing
import AppLogic

/// A termination kills the process; the host rebuilds the state from what reached the
/// disk with `RefreshState(persisted:)`. The persisted keys survive, the running task
/// does not.
@Suite struct RefreshStateRestoreTests {
    /// 2026-01-01T00:00:00Z.
    let launchedAt = Instant(unixSeconds: 1_767_225_600)

    @Test func restoredStateKeepsThePersistedKeysAndNothingOfTheRunningTask() {
        let persisted = RefreshState.Stored(
            lastRefreshAt: steady(launchedAt - .hours(13)),
            notifiedWindow: Instant(unixSeconds: 1_759_449_600),
            lastAppOpenAt: steady(launchedAt - .days(2))
        )
        var running = RefreshStore(state: RefreshState(persisted: persisted))
        #expect(running.send(.taskLaunched(.device()), at: launchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: launchedAt + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        #expect(running.state.isRunningTask)

        // Killed while awaiting the history.
        let restored = RefreshState(persisted: running.state.stored)
        #expect(restored.stored == persisted)
        #expect(!restored.isRunningTask)
        #expect(restored == RefreshState(persisted: persisted))

        // Inputs addressed to the dead task find nothing to act on.
        var store = RefreshStore(state: restored)
        #expect(store.send(.httpResponse(RequestID(1), .ok(.testHistory(latestCompletedAt: nil, serverTime: launchedAt))), at: launchedAt + .seconds(1)) == [])
        #expect(store.send(.hardStopFired, at: launchedAt + .seconds(20)) == [])
        #expect(store.send(.taskExpired, at: launchedAt + .seconds(30)) == [])
        #expect(store.state == RefreshState(persisted: persisted))
    }

    /// What reached the disk still throttles: a refresh persisted 11 h 59 min 59 s before
    /// the next launch skips it after a restart.
    @Test func persistedLastRefreshStillThrottlesAfterRestart() {
        let relaunchedAt = launchedAt + .hours(11) + .minutes(59) + .seconds(59)
        var store = RefreshStore(state: RefreshState(persisted: .init(lastRefreshAt: steady(launchedAt))))
        #expect(store.send(.taskLaunched(.device()), at: relaunchedAt) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: relaunchedAt + .hours(4)),
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .zero)),
        ])
    }

    /// A notified window that reached the disk is not notified again after a restart.
    @Test func persistedNotifiedWindowIsNotNotifiedAgainAfterRestart() {
        // 2026-01-01T00:00:00Z and 2026-04-01T00:00:00Z, 90 days apart.
        let completedAt = Instant(unixSeconds: 1_767_225_600)
        let serverTime = Instant(unixSeconds: 1_775_001_600)
        var store = RefreshStore(state: RefreshState(persisted: .init(notifiedWindow: completedAt)))
        #expect(store.send(.taskLaunched(.device()), at: serverTime) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: serverTime + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        let answeredAt = serverTime + .seconds(1)
        #expect(store.send(.httpResponse(RequestID(1), .ok(.testHistory(latestCompletedAt: completedAt, serverTime: serverTime))), at: answeredAt) == [
            .analytics(.dataFetched(.testHistory)),
            .cancelHardStopTimer,
            .storeTime(.lastRefreshAt, steady(answeredAt)),
            .synchronize,
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .seconds(1))),
        ])
    }
}
