import Testing
import AppLogic

/// What a launch does before and instead of any network work (seed `000`, "Conditional
/// Execution", "Decision 4"), and what an app open records.
@Suite struct RefreshLaunchTests {
    /// 2026-01-01T00:00:00Z.
    let now = Instant(unixSeconds: 1_767_225_600)

    @Test func launchTracksStartAndSchedulesNextRefreshBeforeAnyWork() {
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device()), at: now) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: now + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
        #expect(store.state.isRunningTask)
    }

    @Test func signedOutLaunchSkipsTheWorkAndCompletes() {
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device(signedIn: false)), at: now) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: now + .hours(4)),
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .zero)),
        ])
        #expect(!store.state.isRunningTask)
        #expect(store.state.stored == RefreshState.Stored())
    }

    @Test func offlineLaunchFailsFastWithoutARequest() {
        var store = RefreshStore()
        #expect(store.send(.taskLaunched(.device(online: false)), at: now) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: now + .hours(4)),
            .completeTask(success: false),
            .analytics(.refreshCompleted(success: false, duration: .zero)),
        ])
        #expect(!store.state.isRunningTask)
    }

    @Test func lastRefresh11h59m59sAgoSkipsTheWork() {
        let lastRefresh = now - (.hours(11) + .minutes(59) + .seconds(59))
        var store = RefreshStore(state: RefreshState(persisted: .init(lastRefreshAt: steady(lastRefresh))))
        #expect(store.send(.taskLaunched(.device()), at: now) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: now + .hours(4)),
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .zero)),
        ])
    }

    @Test func lastRefreshExactly12hAgoRuns() {
        let lastRefresh = now - .hours(12)
        var store = RefreshStore(state: RefreshState(persisted: .init(lastRefreshAt: steady(lastRefresh))))
        #expect(store.send(.taskLaunched(.device()), at: now) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: now + .hours(4)),
            .startHardStopTimer(after: .seconds(20)),
            .httpRequest(RequestID(1), .testHistory(limit: 1)),
        ])
    }

    @Test func lastRefreshAtTheSameInstantSkipsTheWork() {
        var store = RefreshStore(state: RefreshState(persisted: .init(lastRefreshAt: steady(now))))
        #expect(store.send(.taskLaunched(.device()), at: now) == [
            .analytics(.refreshStarted),
            .scheduleRefresh(earliestBegin: now + .hours(4)),
            .completeTask(success: true),
            .analytics(.refreshCompleted(success: true, duration: .zero)),
        ])
    }

    @Test func appOpenedStoresAndFlushesTheOpenThenSchedulesTheNextRefresh() {
        var store = RefreshStore()
        #expect(store.send(.appOpened, at: now) == [
            .storeTime(.lastAppOpenAt, steady(now)),
            .synchronize,
            .scheduleRefresh(earliestBegin: now + .hours(4)),
        ])
        #expect(store.state.stored == RefreshState.Stored(lastAppOpenAt: steady(now)))
        #expect(!store.state.isRunningTask)
    }
}
