import Foundation

/// The iOS background refresh of seed `000`, with the fixes of seed `002`, as a
/// sans-I/O state machine: inputs arrive with the device's `now`, answers are
/// ``RefreshEffect`` values that a host (a thin BGTaskScheduler / URLSession /
/// UserDefaults adapter, or FleetSim's world) carries out.
///
/// `RefreshLogic` holds the configuration shared by every device; ``RefreshState`` is
/// one device's state. That split keeps a fleet's per-device memory small.
///
/// The rules, in the order a launch applies them (seed `000`):
/// 1. Schedule the next refresh before any work (`earliestBeginDate` = now + 4 h).
/// 2. Skip when signed out, when refreshed less than 12 h ago, or when offline (fail fast).
/// 3. Fetch the latest test (`limit=1`); the test is available when the server's
///    clock is at least 90 days past its completion, so a wrong device clock cannot
///    fire it early (seed `002`, issue 5). A completion "in the future" is never available.
/// 4. If available, not yet notified for this window, permitted, and the app was not
///    opened in the last 24 h, check the active session (only then: "use active
///    endpoint only if needed"); with no test in progress, notify once per window.
/// 5. Persist what changed and synchronize before posting (seed `002`, issue 2), complete
///    the task exactly once (seed `002`, issue 1), never set the badge (seed `002`, issue 3).
/// 6. A hard stop at 20 s inside the 30 s budget; 401 signs the user out and clears
///    the schedule; any other failure completes with `success: false`.
///
/// The 12 h and 24 h rules measure with the boot clock (``DeviceTime/elapsed(since:)``),
/// never with the wall clock: a clock set 2 days forward 9 h after an open must not
/// turn that open into one "2 days ago" (with wall-clock stamps, `fleetsim explore`
/// saw a notification 9.3 h after an open that way; `scenarios/clocks/jumps.json`),
/// and a clock set back must not hold the rules off for days. The 90-day rule reads the server's clock (rule 3); the wall clock only dates
/// the next request (`earliestBeginDate` is a `Date`).
public struct RefreshLogic: Sendable {
    public var config: RefreshConfiguration
    public var variants: RefreshVariants

    public init(config: RefreshConfiguration = .init(), variants: RefreshVariants = []) {
        self.config = config
        self.variants = variants
    }

    /// Handles one input at the device's clock reading `now`, appending effects in the order they must run.
    public func handle(_ input: RefreshInput, state: inout RefreshState, now: DeviceTime, into effects: inout [RefreshEffect]) {
        switch input {
        case .taskLaunched(let context):
            launch(context, state: &state, now: now, into: &effects)
        case .taskExpired:
            stop(reason: .expired, state: &state, now: now, into: &effects)
        case .hardStopFired:
            guard state.task != nil else { return }
            stop(reason: .hardStop, state: &state, now: now, into: &effects)
        case .httpResponse(let id, let result):
            response(id, result, state: &state, now: now, into: &effects)
        case .appOpened:
            // Remember the open (rule 4) and flush it: the 24 h rule depends on it, and
            // an app killed right after an open would otherwise lose it (seed `002`,
            // seed `002` issue 2; found by `fleetsim explore` on the default scenario, seed 34).
            // Then submit the next refresh, as the app does when it enters the background.
            state.stored.lastAppOpenAt = now
            effects.append(.storeTime(.lastAppOpenAt, now))
            if !variants.contains(.noSynchronize) { effects.append(.synchronize) }
            effects.append(.scheduleRefresh(earliestBegin: now.wall + preferredInterval))
        }
    }

    /// The next request's delay (rule 1); the variant reads the hours as minutes.
    private var preferredInterval: Interval {
        variants.contains(.preferredIntervalMinutes) ? .minutes(config.preferredInterval.microseconds / 3_600_000_000) : config.preferredInterval
    }

    /// The skip-if-recent interval (rule 2); the variant reads the hours as minutes.
    private var minimumInterval: Interval {
        variants.contains(.minimumIntervalMinutes) ? .minutes(config.minimumInterval.microseconds / 3_600_000_000) : config.minimumInterval
    }

    // MARK: - Launch

    private func launch(_ context: RefreshLaunchContext, state: inout RefreshState, now: DeviceTime, into effects: inout [RefreshEffect]) {
        state.task = RefreshState.Task(startedAt: now, context: context)
        effects.append(.analytics(.refreshStarted))
        effects.append(.scheduleRefresh(earliestBegin: now.wall + preferredInterval))

        guard context.signedIn || variants.contains(.ignoresSignOut) else { return complete(success: true, state: &state, now: now, into: &effects) }
        if let last = state.stored.lastRefreshAt, now.elapsed(since: last) < minimumInterval {
            return complete(success: true, state: &state, now: now, into: &effects)
        }
        guard context.networkReachable || variants.contains(.ignoresOffline) else { return complete(success: false, state: &state, now: now, into: &effects) }

        state.task?.hardStopArmed = true
        if !variants.contains(.hardStopIgnored) { effects.append(.startHardStopTimer(after: config.hardStop)) }
        request(.testHistory(limit: variants.contains(.fullHistory) ? 20 : 1), state: &state, into: &effects)
    }

    private func request(_ endpoint: Endpoint, state: inout RefreshState, into effects: inout [RefreshEffect]) {
        state.nextRequest &+= 1
        let id = RequestID(state.nextRequest)
        state.task?.awaiting = id
        effects.append(.httpRequest(id, endpoint))
    }

    // MARK: - Responses

    private func response(_ id: RequestID, _ result: HTTPResult, state: inout RefreshState, now: DeviceTime, into effects: inout [RefreshEffect]) {
        // A response to a request of a task that has ended is ignored, unless the
        // variant keeps the unguarded flow of the original code, whose awaiting
        // `Task` went on (and completed again) after the expiration handler ran.
        guard var task = state.task, task.awaiting == id else { return }
        if task.completed && !variants.contains(.unguardedCompletion) { return }
        task.awaiting = nil
        state.task = task

        switch result {
        case .ok(.testHistory(let latest, let serverTime)):
            effects.append(.analytics(.dataFetched(.testHistory)))
            guard !task.completed, variants.contains(.alwaysFetchActive) || isTestAvailable(latestCompletedAt: latest, serverTime: serverTime, deviceNow: now.wall, timeZone: task.context.timeZoneIdentifier),
                  !alreadyNotified(for: latest, state: state) else {
                return finish(state: &state, now: now, into: &effects)
            }
            // Seed `000`: "use active endpoint only if needed": not when no notification could follow.
            guard mayPost(task), !openedRecently(state: state, now: now) else {
                return finish(state: &state, now: now, into: &effects)
            }
            state.task?.windowCompletedAt = latest
            request(.activeSession, state: &state, into: &effects)

        case .ok(.activeSession(let inProgress, _)):
            effects.append(.analytics(.dataFetched(.activeSession)))
            if !task.completed, !inProgress || variants.contains(.ignoresActiveSession), mayPost(task), !openedRecently(state: state, now: now) {
                notify(window: task.windowCompletedAt, state: &state, into: &effects)
            }
            finish(state: &state, now: now, into: &effects)

        case .status(401) where !variants.contains(.ignores401):
            disarmHardStop(state: &state, into: &effects)
            effects.append(.signOut)
            effects.append(.cancelScheduledRefresh)
            complete(success: false, state: &state, now: now, into: &effects)

        case .status, .failed, .ok:
            // Another feature's body never answers a refresh request: a failure if it came.
            if variants.contains(.retryOnce), !task.retried { state.task?.retried = true; return request(.testHistory(limit: 1), state: &state, into: &effects) }
            disarmHardStop(state: &state, into: &effects)
            complete(success: false, state: &state, now: now, into: &effects)
        }
    }

    /// Seed `000`: available once the cadence has passed since the last completed test;
    /// a user with no test yet may take the first one.
    private func isTestAvailable(latestCompletedAt: Instant?, serverTime: Instant, deviceNow: Instant, timeZone: String) -> Bool {
        guard let completed = latestCompletedAt else { return true }
        if variants.contains(.localCalendarDays) {
            // The bug of seed `002`, issue 5: whole days on the device's calendar and clock.
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: timeZone) ?? TimeZone(secondsFromGMT: 0)!
            let from = Date(timeIntervalSince1970: Double(completed.unixMicroseconds) / 1e6)
            let to = Date(timeIntervalSince1970: Double(deviceNow.unixMicroseconds) / 1e6)
            let days = calendar.dateComponents([.day], from: from, to: to).day ?? 0
            return days >= Int(config.testCadence.microseconds / 86_400_000_000)
        }
        let elapsed = serverTime - completed
        guard elapsed >= .zero else { return false }  // completion "in the future": fail safe
        let cadence = variants.contains(.cadenceOffByOne) ? config.testCadence + .days(1) : config.testCadence
        return elapsed >= cadence
    }

    /// Phase 3.1: notify only with permission (as the OS told the task at launch); the
    /// variant skips the check.
    private func mayPost(_ task: RefreshState.Task) -> Bool {
        variants.contains(.ignoresPermission) || task.context.notificationAuthorization.allowsPosting
    }

    private func alreadyNotified(for window: Instant?, state: RefreshState) -> Bool {
        guard let notified = state.stored.notifiedWindow else { return false }
        return notified == (window ?? Instant(unixMicroseconds: 0))
    }

    /// Seed `000`: no notification when the app was opened less than 24 h ago, measured
    /// on the boot clock. After a reboot whose wall clock went back, the open counts as
    /// no older than the boot (``DeviceTime/elapsed(since:)``): the notification then
    /// waits at most 24 h after the boot, never the days the clock went back.
    private func openedRecently(state: RefreshState, now: DeviceTime) -> Bool {
        guard !variants.contains(.ignoresRecentOpen), let opened = state.stored.lastAppOpenAt else { return false }
        return now.elapsed(since: opened) < config.recentOpenSuppression
    }

    private func notify(window: Instant?, state: inout RefreshState, into effects: inout [RefreshEffect]) {
        let key = window ?? Instant(unixMicroseconds: 0)
        state.stored.notifiedWindow = key
        effects.append(.store(.notifiedWindow, key))
        if !variants.contains(.noSynchronize) { effects.append(.synchronize) }
        effects.append(.postNotification(LocalNotification(kind: .testAvailable, badge: variants.contains(.badgeOverwrite) ? 1 : nil)))
        effects.append(.analytics(.notificationSent))
    }

    // MARK: - Ending a task

    private enum StopReason { case expired, hardStop }

    /// The expiration handler and the 20 s hard stop: cancel the work and complete, once.
    private func stop(reason: StopReason, state: inout RefreshState, now: DeviceTime, into effects: inout [RefreshEffect]) {
        guard let task = state.task else { return }
        // Once completed, nothing is left to stop: every completion path has already
        // cancelled its request and disarmed the timer (a stopped task keeps `awaiting`
        // set, so without this a late expiration or timer would cancel again). The
        // unguarded variant goes on, as the original expiration handler did.
        if task.completed && !variants.contains(.unguardedCompletion) { return }
        if task.awaiting != nil { effects.append(.cancelRequests) }
        if reason == .expired { disarmHardStop(state: &state, into: &effects) } else { state.task?.hardStopArmed = false }
        complete(success: false, state: &state, now: now, into: &effects)
    }

    /// The end of a refresh that reached the server: remember it, flush, complete.
    private func finish(state: inout RefreshState, now: DeviceTime, into effects: inout [RefreshEffect]) {
        disarmHardStop(state: &state, into: &effects)
        state.stored.lastRefreshAt = now
        effects.append(.storeTime(.lastRefreshAt, now))
        if !variants.contains(.noSynchronize) { effects.append(.synchronize) }
        complete(success: true, state: &state, now: now, into: &effects)
    }

    private func disarmHardStop(state: inout RefreshState, into effects: inout [RefreshEffect]) {
        guard state.task?.hardStopArmed == true else { return }
        state.task?.hardStopArmed = false
        effects.append(.cancelHardStopTimer)
    }

    /// `setTaskCompleted(success:)`, guarded so it happens once per task (seed `002`, issue 1).
    private func complete(success: Bool, state: inout RefreshState, now: DeviceTime, into effects: inout [RefreshEffect]) {
        guard var task = state.task else { return }
        if task.completed && !variants.contains(.unguardedCompletion) { return }
        task.completed = true
        state.task = task
        effects.append(.completeTask(success: success))
        effects.append(.analytics(.refreshCompleted(success: success, duration: now.elapsed(since: variants.contains(.durationSinceLastRefresh) ? state.stored.lastRefreshAt ?? task.startedAt : task.startedAt))))
    }
}
