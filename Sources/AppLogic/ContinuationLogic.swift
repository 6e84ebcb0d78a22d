/// The background continuation of a long request of seed `004`, with the fix of its
/// known limitation 2, as a sans-I/O state machine: inputs arrive with the device's
/// `now`, answers are ``ContinuationEffect`` values that a host (a thin
/// URLSession / UIApplication / UNUserNotificationCenter / UserDefaults adapter, or
/// FleetSim's world) carries out.
///
/// The rules (seed `004`):
/// 1. The user starts an analysis in the foreground: one request, the offer timer
///    (10 s) and the mode's timeout (hierarchical 300 s, baseline 180 s) start with
///    it. One analysis at a time; a second start while one runs is ignored.
/// 2. Still running at 10 s: the alert offers "Continue Here", "Move On & Notify"
///    and "Cancel". A result before 10 s is shown and the alert never appears.
/// 3. "Continue Here" keeps waiting on the screen; "Cancel" cancels the request;
///    "Move On & Notify" asks the OS for background time (`beginBackgroundTask`),
///    because a detached task alone is suspended with the app, and asks for
///    notification permission when it is not determined yet (or only provisional):
///    seed `004`'s `requestNotificationPermissions()`, "Permission request: Shown on
///    first use". The answer counts when the result arrives, not the status at the start.
/// 4. A result in the background is written and synchronized **before** the
///    completion notification is posted (the fix of "Known Limitations" 2: results
///    held in memory only), then the background task ends. The notification leaves
///    the badge to ``BadgeManager``; without permission no notification is posted and
///    the result waits for the next open.
/// 5. A failure or the timeout: in the foreground the user sees it; in the background
///    no notification is sent ("Clean failure: ... notification not sent").
/// 6. When the OS's background time runs out, the expiration handler cancels the
///    request and ends the background task (an app that does not is killed).
/// 7. At an open, a stored result not yet seen is shown and cleared. An open while an
///    analysis runs in the background brings it back in front (the background task is
///    kept): a result then is shown, not notified, and the task ends; when the app
///    leaves the foreground again, the analysis is back in the background.
public struct ContinuationLogic: Sendable {
    public var config: ContinuationConfiguration
    public var variants: ContinuationVariants

    public init(config: ContinuationConfiguration = .init(), variants: ContinuationVariants = []) {
        self.config = config
        self.variants = variants
    }

    /// Handles one input at the device time `now`, appending effects in the order they must run.
    public func handle(_ input: ContinuationInput, state: inout ContinuationState, now: Instant, into effects: inout [ContinuationEffect]) {
        switch input {
        case .analysisRequested(let mode, let notifications):
            guard state.work == nil || variants.contains(.secondAnalysis) else { return }
            state.nextRequest &+= 1
            let id = RequestID(state.nextRequest)
            state.work = ContinuationState.Work(request: id, mode: mode, notifications: notifications, phase: .waiting, offerArmed: true)
            effects.append(.httpRequest(id, .analysis(mode)))
            effects.append(.startTimer(.offer, after: variants.contains(.offerAfter10ms) ? Interval(microseconds: config.offerAfter.microseconds / 1_000) : config.offerAfter))
            if !variants.contains(.deadlineIgnored) { effects.append(.startTimer(.deadline, after: config.timeout(mode))) }

        case .timerFired(.offer):
            guard var work = state.work, work.phase == .waiting, work.offerArmed else { return }
            work.offerArmed = false
            work.phase = .offered
            state.work = work
            effects.append(.offerBackground)

        case .timerFired(.deadline):
            guard let work = state.work else { return }
            effects.append(.cancelRequest)
            if work.offerArmed { effects.append(.cancelTimer(.offer)) }
            switch work.phase {
            case .background: effects.append(.endBackgroundTask)
            case .backInApp: effects.append(.showFailure); effects.append(.endBackgroundTask)
            case .waiting, .offered, .continuingHere: effects.append(.showFailure)
            }
            state.work = nil

        case .userChose(let choice):
            guard var work = state.work, work.phase == .offered else { return }
            switch choice {
            case .continueHere:
                work.phase = .continuingHere
                state.work = work
            case .moveOn:
                work.phase = .background
                state.work = work
                if !variants.contains(.noBackgroundTask) { effects.append(.beginBackgroundTask) }
                if !variants.contains(.neverAsksPermission), work.notifications == .notDetermined || work.notifications == .provisional {
                    effects.append(.requestNotificationAuthorization)
                }
            case .cancel:
                effects.append(.cancelRequest)
                effects.append(.cancelTimer(.deadline))
                state.work = nil
            }

        case .httpResponse(let id, let result):
            guard let work = state.work, work.request == id else { return }
            if work.offerArmed { effects.append(.cancelTimer(.offer)) }
            effects.append(.cancelTimer(.deadline))
            state.work = nil
            let analysis = AnalysisResult(request: id, mode: work.mode)
            let succeeded: Bool
            if case .ok(.analysis) = result { succeeded = true } else { succeeded = false }
            switch work.phase {
            case .waiting, .offered, .continuingHere:
                effects.append(succeeded ? .showResult(analysis) : .showFailure)
            case .backInApp:
                effects.append(succeeded ? .showResult(analysis) : .showFailure)
                effects.append(.endBackgroundTask)
            case .background:
                guard succeeded else { return effects.append(.endBackgroundTask) }
                if variants.contains(.inMemoryResult) {
                    state.memoryResult = analysis
                } else {
                    state.stored.unseenResult = analysis
                    effects.append(.storeResult(analysis))
                    effects.append(.synchronize)
                }
                if work.notifications.allowsPosting {
                    effects.append(.postNotification(LocalNotification(kind: .analysisComplete, badge: nil)))
                }
                effects.append(.endBackgroundTask)
            }

        case .backgroundTimeExpiring:
            guard let work = state.work, work.phase == .background || work.phase == .backInApp else { return }
            effects.append(.cancelRequest)
            effects.append(.cancelTimer(.deadline))
            if work.phase == .backInApp { effects.append(.showFailure) }
            effects.append(.endBackgroundTask)
            state.work = nil

        case .notificationAuthorizationAnswered(let status):
            guard var work = state.work, !variants.contains(.permissionAnswerIgnored) else { return }
            work.notifications = status
            state.work = work

        case .appEnteredBackground:
            guard var work = state.work, work.phase == .backInApp else { return }
            work.phase = .background
            state.work = work

        case .appOpened:
            if var work = state.work, work.phase == .background {
                work.phase = .backInApp
                state.work = work
            }
            if let shown = state.memoryResult {
                state.memoryResult = nil
                effects.append(.showResult(shown))
            }
            if let shown = state.stored.unseenResult {
                if !variants.contains(.resultNotCleared) { state.stored.unseenResult = nil }
                effects.append(.showResult(shown))
                effects.append(.storeResult(nil))
                effects.append(.synchronize)
            }
        }
    }
}
