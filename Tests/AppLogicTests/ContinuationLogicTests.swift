import Testing
import AppLogic

/// Seed `004` at its boundaries: the 10 s offer, the 180 s / 300 s timeouts, the three
/// choices, the OS's background time, and persistence before the notification.
@Suite struct ContinuationLogicTests {
    /// 2026-03-02T09:00:00Z.
    let startedAt = Instant(unixSeconds: 1_772_442_000)
    let done = HTTPResult.ok(.analysis)
    let notification = LocalNotification(kind: .analysisComplete, badge: nil)

    /// Starts a request (its effects asserted in full) and, when `offer`, fires the 10 s timer.
    private func start(_ store: inout ContinuationStore, _ mode: AnalysisMode = .hierarchical,
                       notifications: NotificationAuthorization = .authorized, offer: Bool = true,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(store.send(.analysisRequested(mode, notifications: notifications), at: startedAt) == [
            .httpRequest(RequestID(1), .analysis(mode)),
            .startTimer(.offer, after: .seconds(10)),
            .startTimer(.deadline, after: .seconds(mode == .hierarchical ? 300 : 180)),
        ], sourceLocation: sourceLocation)
        guard offer else { return }
        #expect(store.send(.timerFired(.offer), at: startedAt + .seconds(10)) == [.offerBackground], sourceLocation: sourceLocation)
    }

    // MARK: - The 10 s threshold

    @Test func resultAt9_9SecondsIsShownAndTheAlertNeverAppears() {
        var store = ContinuationStore()
        start(&store, offer: false)
        let at = startedAt + Interval(microseconds: 9_900_000)
        #expect(store.send(.httpResponse(RequestID(1), done), at: at) == [
            .cancelTimer(.offer), .cancelTimer(.deadline),
            .showResult(AnalysisResult(request: RequestID(1), mode: .hierarchical)),
        ])
        #expect(store.send(.timerFired(.offer), at: startedAt + .seconds(10)) == [])
        #expect(!store.state.isBusy)
    }

    @Test func stillRunningAt10SecondsOffersTheBackgroundAndTheResultThenIsShownHere() {
        var store = ContinuationStore()
        start(&store)
        #expect(store.send(.userChose(.continueHere), at: startedAt + .seconds(11)) == [])
        #expect(store.send(.httpResponse(RequestID(1), done), at: startedAt + .seconds(40)) == [
            .cancelTimer(.deadline),
            .showResult(AnalysisResult(request: RequestID(1), mode: .hierarchical)),
        ])
        #expect(store.state.stored == ContinuationState.Stored())
    }

    @Test func aSecondStartWhileOneRunsIsIgnored() {
        var store = ContinuationStore()
        start(&store, offer: false)
        #expect(store.send(.analysisRequested(.baseline, notifications: .authorized), at: startedAt + .seconds(1)) == [])
    }

    // MARK: - Timeouts per mode

    @Test func baselineResultAt179SecondsIsShown() {
        var store = ContinuationStore()
        start(&store, .baseline)
        _ = store.send(.userChose(.continueHere), at: startedAt + .seconds(10))
        #expect(store.send(.httpResponse(RequestID(1), done), at: startedAt + .seconds(179)) == [
            .cancelTimer(.deadline),
            .showResult(AnalysisResult(request: RequestID(1), mode: .baseline)),
        ])
    }

    @Test func baselineTimesOutAt180SecondsAndTheLateAnswerIsIgnored() {
        var store = ContinuationStore()
        start(&store, .baseline)
        _ = store.send(.userChose(.continueHere), at: startedAt + .seconds(10))
        #expect(store.send(.timerFired(.deadline), at: startedAt + .seconds(180)) == [.cancelRequest, .showFailure])
        #expect(store.send(.httpResponse(RequestID(1), .failed(.cancelled)), at: startedAt + .seconds(180)) == [])
        #expect(!store.state.isBusy)
    }

    @Test func hierarchicalResultAt299SecondsIsShown() {
        var store = ContinuationStore()
        start(&store, .hierarchical)
        _ = store.send(.userChose(.continueHere), at: startedAt + .seconds(10))
        #expect(store.send(.httpResponse(RequestID(1), done), at: startedAt + .seconds(299)) == [
            .cancelTimer(.deadline),
            .showResult(AnalysisResult(request: RequestID(1), mode: .hierarchical)),
        ])
    }

    @Test func hierarchicalTimesOutAt300Seconds() {
        var store = ContinuationStore()
        start(&store, .hierarchical)
        _ = store.send(.userChose(.continueHere), at: startedAt + .seconds(10))
        #expect(store.send(.timerFired(.deadline), at: startedAt + .seconds(300)) == [.cancelRequest, .showFailure])
    }

    @Test func foregroundFailureBeforeTheOfferIsShownAndDisarmsBothTimers() {
        var store = ContinuationStore()
        start(&store, offer: false)
        #expect(store.send(.httpResponse(RequestID(1), .status(503)), at: startedAt + .seconds(2)) == [
            .cancelTimer(.offer), .cancelTimer(.deadline), .showFailure,
        ])
    }

    // MARK: - Cancel

    @Test func cancelStopsTheRequestAndItsTimeout() {
        var store = ContinuationStore()
        start(&store)
        #expect(store.send(.userChose(.cancel), at: startedAt + .seconds(12)) == [.cancelRequest, .cancelTimer(.deadline)])
        #expect(store.send(.httpResponse(RequestID(1), .failed(.cancelled)), at: startedAt + .seconds(12)) == [])
        #expect(store.send(.timerFired(.deadline), at: startedAt + .seconds(300)) == [])
    }

    // MARK: - Move on: background time, persistence, notification

    @Test func movedOnResultIsStoredAndFlushedBeforeTheNotificationThenTheBackgroundTaskEnds() {
        var store = ContinuationStore()
        start(&store)
        #expect(store.send(.userChose(.moveOn), at: startedAt + .seconds(10)) == [.beginBackgroundTask])
        let result = AnalysisResult(request: RequestID(1), mode: .hierarchical)
        #expect(store.send(.httpResponse(RequestID(1), done), at: startedAt + .seconds(25)) == [
            .cancelTimer(.deadline),
            .storeResult(result),
            .synchronize,
            .postNotification(notification),
            .endBackgroundTask,
        ])
        #expect(store.state.stored == ContinuationState.Stored(unseenResult: result))
    }

    /// Terminated after the write: the app rebuilt from disk shows the result at the next open, once.
    @Test func terminationAfterPersistenceKeepsTheResultForTheNextOpen() {
        var store = ContinuationStore()
        start(&store)
        _ = store.send(.userChose(.moveOn), at: startedAt + .seconds(10))
        _ = store.send(.httpResponse(RequestID(1), done), at: startedAt + .seconds(25))
        var relaunched = ContinuationStore(state: ContinuationState(persisted: store.state.stored))
        let result = AnalysisResult(request: RequestID(1), mode: .hierarchical)
        #expect(relaunched.send(.appOpened, at: startedAt + .hours(1)) == [.showResult(result), .storeResult(nil), .synchronize])
        #expect(relaunched.send(.appOpened, at: startedAt + .hours(2)) == [])
    }

    /// Terminated before the result arrived: nothing was stored, nothing is shown.
    @Test func terminationBeforeTheResultLeavesNothingToShow() {
        var store = ContinuationStore()
        start(&store)
        _ = store.send(.userChose(.moveOn), at: startedAt + .seconds(10))
        var relaunched = ContinuationStore(state: ContinuationState(persisted: store.state.stored))
        #expect(relaunched.send(.appOpened, at: startedAt + .hours(1)) == [])
        #expect(!relaunched.state.isBusy)
    }

    @Test func withoutPermissionTheResultIsStoredButNotNotified() {
        var store = ContinuationStore()
        start(&store, notifications: .denied)
        _ = store.send(.userChose(.moveOn), at: startedAt + .seconds(10))
        let result = AnalysisResult(request: RequestID(1), mode: .hierarchical)
        #expect(store.send(.httpResponse(RequestID(1), done), at: startedAt + .seconds(25)) == [
            .cancelTimer(.deadline), .storeResult(result), .synchronize, .endBackgroundTask,
        ])
    }

    @Test func backgroundFailureEndsTheTaskWithoutNotification() {
        var store = ContinuationStore()
        start(&store)
        _ = store.send(.userChose(.moveOn), at: startedAt + .seconds(10))
        #expect(store.send(.httpResponse(RequestID(1), .failed(.connectionLost)), at: startedAt + .seconds(20)) == [
            .cancelTimer(.deadline), .endBackgroundTask,
        ])
    }

    @Test func backgroundTimeRunningOutCancelsAndEndsTheTask() {
        var store = ContinuationStore()
        start(&store)
        _ = store.send(.userChose(.moveOn), at: startedAt + .seconds(10))
        #expect(store.send(.backgroundTimeExpiring, at: startedAt + .seconds(40)) == [
            .cancelRequest, .cancelTimer(.deadline), .endBackgroundTask,
        ])
        #expect(store.send(.httpResponse(RequestID(1), .failed(.cancelled)), at: startedAt + .seconds(40)) == [])
        #expect(store.send(.backgroundTimeExpiring, at: startedAt + .seconds(41)) == [])
    }

    @Test func backgroundTimeoutAt300SecondsEndsTheTaskWithoutNotification() {
        var store = ContinuationStore()
        start(&store)
        _ = store.send(.userChose(.moveOn), at: startedAt + .seconds(10))
        #expect(store.send(.timerFired(.deadline), at: startedAt + .seconds(300)) == [.cancelRequest, .endBackgroundTask])
    }

    @Test func aChoiceWithoutTheAlertIsIgnored() {
        var store = ContinuationStore()
        start(&store, offer: false)
        #expect(store.send(.userChose(.moveOn), at: startedAt + .seconds(5)) == [])
        #expect(store.send(.backgroundTimeExpiring, at: startedAt + .seconds(6)) == [])
    }

    // MARK: - The variant: the result in memory only

    @Test func inMemoryResultNotifiesWithoutWritingAndATerminationLosesIt() {
        var store = ContinuationStore(variants: .inMemoryResult)
        start(&store)
        _ = store.send(.userChose(.moveOn), at: startedAt + .seconds(10))
        #expect(store.send(.httpResponse(RequestID(1), done), at: startedAt + .seconds(25)) == [
            .cancelTimer(.deadline), .postNotification(notification), .endBackgroundTask,
        ])
        #expect(store.state.stored == ContinuationState.Stored())
        var relaunched = ContinuationStore(variants: .inMemoryResult, state: ContinuationState(persisted: store.state.stored))
        #expect(relaunched.send(.appOpened, at: startedAt + .hours(1)) == [])
        // Without the termination, the open shows it from memory.
        #expect(store.send(.appOpened, at: startedAt + .hours(1)) == [.showResult(AnalysisResult(request: RequestID(1), mode: .hierarchical))])
    }

    // MARK: - Permission on "Move On & Notify" (seed 004: "Permission request: Shown on first use")

    /// Not determined at the start: moving on asks; "Allow" then means the result is notified.
    @Test func movingOnWithPermissionNotDeterminedAsksAndAnAllowNotifies() {
        var store = ContinuationStore()
        start(&store, notifications: .notDetermined)
        #expect(store.send(.userChose(.moveOn), at: startedAt + .seconds(10)) == [.beginBackgroundTask, .requestNotificationAuthorization])
        #expect(store.send(.notificationAuthorizationAnswered(.authorized), at: startedAt + .seconds(10)) == [])
        let result = AnalysisResult(request: RequestID(1), mode: .hierarchical)
        #expect(store.send(.httpResponse(RequestID(1), done), at: startedAt + .seconds(25)) == [
            .cancelTimer(.deadline), .storeResult(result), .synchronize, .postNotification(notification), .endBackgroundTask,
        ])
    }

    /// "Don't Allow": the result waits for the next open, no notification.
    @Test func aDeclinedPromptStoresTheResultWithoutNotification() {
        var store = ContinuationStore()
        start(&store, notifications: .notDetermined)
        _ = store.send(.userChose(.moveOn), at: startedAt + .seconds(10))
        #expect(store.send(.notificationAuthorizationAnswered(.denied), at: startedAt + .seconds(10)) == [])
        let result = AnalysisResult(request: RequestID(1), mode: .hierarchical)
        #expect(store.send(.httpResponse(RequestID(1), done), at: startedAt + .seconds(25)) == [
            .cancelTimer(.deadline), .storeResult(result), .synchronize, .endBackgroundTask,
        ])
    }

    /// Provisional: a full request prompts, so the app asks too.
    @Test func movingOnWithProvisionalPermissionAsks() {
        var store = ContinuationStore()
        start(&store, notifications: .provisional)
        #expect(store.send(.userChose(.moveOn), at: startedAt + .seconds(10)) == [.beginBackgroundTask, .requestNotificationAuthorization])
    }

    /// Already determined (authorized or denied): no request.
    @Test func movingOnWithADeterminedPermissionDoesNotAsk() {
        for status in [NotificationAuthorization.authorized, .denied] {
            var store = ContinuationStore()
            start(&store, notifications: status)
            #expect(store.send(.userChose(.moveOn), at: startedAt + .seconds(10)) == [.beginBackgroundTask])
        }
    }

    /// An answer after the analysis ended changes nothing.
    @Test func anAnswerWithNoAnalysisRunningIsIgnored() {
        var store = ContinuationStore()
        #expect(store.send(.notificationAuthorizationAnswered(.authorized), at: startedAt) == [])
        #expect(!store.state.isBusy)
    }

    // MARK: - Opening the app during a background analysis

    /// Moved on, then opened the app: a result now is shown, not stored or notified, and
    /// the background task ends.
    @Test func aResultWhileBackInTheAppIsShownWithoutNotification() {
        var store = ContinuationStore()
        start(&store)
        _ = store.send(.userChose(.moveOn), at: startedAt + .seconds(10))
        #expect(store.send(.appOpened, at: startedAt + .seconds(15)) == [])
        #expect(store.state.isBackInApp)
        #expect(store.send(.httpResponse(RequestID(1), done), at: startedAt + .seconds(25)) == [
            .cancelTimer(.deadline), .showResult(AnalysisResult(request: RequestID(1), mode: .hierarchical)), .endBackgroundTask,
        ])
        #expect(store.state.stored == ContinuationState.Stored())
        #expect(!store.state.isBusy)
    }

    /// Back in the app, then away again before the result: it is notified as before.
    @Test func leavingTheAppAgainReturnsTheAnalysisToTheBackground() {
        var store = ContinuationStore()
        start(&store)
        _ = store.send(.userChose(.moveOn), at: startedAt + .seconds(10))
        _ = store.send(.appOpened, at: startedAt + .seconds(15))
        #expect(store.send(.appEnteredBackground, at: startedAt + .seconds(20)) == [])
        #expect(!store.state.isBackInApp)
        let result = AnalysisResult(request: RequestID(1), mode: .hierarchical)
        #expect(store.send(.httpResponse(RequestID(1), done), at: startedAt + .seconds(25)) == [
            .cancelTimer(.deadline), .storeResult(result), .synchronize, .postNotification(notification), .endBackgroundTask,
        ])
    }

    /// Back in the app: a failure or the 300 s timeout is shown, and the task ends.
    @Test func aFailureOrTheTimeoutWhileBackInTheAppIsShown() {
        var failing = ContinuationStore()
        start(&failing)
        _ = failing.send(.userChose(.moveOn), at: startedAt + .seconds(10))
        _ = failing.send(.appOpened, at: startedAt + .seconds(15))
        #expect(failing.send(.httpResponse(RequestID(1), .status(503)), at: startedAt + .seconds(20)) == [
            .cancelTimer(.deadline), .showFailure, .endBackgroundTask,
        ])
        var slow = ContinuationStore()
        start(&slow)
        _ = slow.send(.userChose(.moveOn), at: startedAt + .seconds(10))
        _ = slow.send(.appOpened, at: startedAt + .seconds(15))
        #expect(slow.send(.timerFired(.deadline), at: startedAt + .seconds(300)) == [.cancelRequest, .showFailure, .endBackgroundTask])
    }

    /// An open with no analysis in the background does not bring anything back, and
    /// `appEnteredBackground` outside that phase does nothing.
    @Test func appEnteredBackgroundOutsideTheBackInAppPhaseIsIgnored() {
        var store = ContinuationStore()
        start(&store)
        _ = store.send(.userChose(.continueHere), at: startedAt + .seconds(10))
        #expect(store.send(.appEnteredBackground, at: startedAt + .seconds(11)) == [])
        #expect(store.send(.httpResponse(RequestID(1), done), at: startedAt + .seconds(25)) == [
            .cancelTimer(.deadline), .showResult(AnalysisResult(request: RequestID(1), mode: .hierarchical)),
        ])
    }
}
