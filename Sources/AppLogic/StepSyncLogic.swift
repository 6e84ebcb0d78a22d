import Foundation

/// The background step sync of seed `003` as a sans-I/O state machine, host-agnostic:
/// an Android host drives it from WorkManager periodic work, an iOS host from the
/// background refresh and HealthKit background delivery; both from app opens.
///
/// The rules (seed `003`):
/// 1. An app open enqueues the periodic work (~2 h; network and battery-not-low
///    constraints). It syncs when the last sync is at least 24 h old (or never happened).
/// 2. Periodic work always syncs; a refresh launch or a HealthKit delivery (up to 4 an
///    hour) syncs when the last sync is at least 2 h old, the seed's cadence.
/// 3. No sync when health tracking is off, signed out, in low-power mode, offline, or
///    when the battery is low (≤ 15 % and unplugged; "mandatory").
/// 4. Read daily totals from the local midnight of the later of the last sync and
///    now − 30 days (whole days, because an upsert replaces a day's total), and upload
///    them with upsert by (user, date, source).
/// 5. Success moves the last-sync timestamp to the end of the range read, persists and
///    synchronizes, and re-arms the "not synced for 24 h" notification.
/// 6. A failure (5xx, 429, no answer) is retried after 5, 10 and 15 min; after the 4th
///    attempt the logic waits for the next trigger, which starts a new chain. 401 and
///    other 4xx are not retried ("wait for foreground"). The timestamp never moves on failure.
///
/// Ages (rules 1, 2 and 4) are measured on the boot clock (``DeviceTime/elapsed(since:)``),
/// so a wall clock set forward or back neither skips a due sync nor forces one early,
/// and the read reaches back to the last sync whichever way the clock moved. The 24 h
/// stale notice is a time-interval trigger (rule 5), which the OS counts in elapsed
/// time, not a wall-clock date.
public struct StepSyncLogic: Sendable {
    public var config: StepSyncConfiguration
    public var variants: StepSyncVariants

    public init(config: StepSyncConfiguration = .init(), variants: StepSyncVariants = []) {
        self.config = config
        self.variants = variants
    }

    /// Handles one input at the device's clock reading `now`, appending effects in the order they must run.
    public func handle(_ input: StepSyncInput, state: inout StepSyncState, now: DeviceTime, into effects: inout [StepSyncEffect]) {
        switch input {
        case .appOpened(let context):
            effects.append(.schedulePeriodicWork(interval: syncInterval, constraints: [.networkConnected, .batteryNotLow]))
            trigger(.open, context, minimumAge: variants.contains(.openSyncAfter48h) ? .hours(48) : config.openSyncAge, state: &state, now: now, into: &effects)
        case .periodicWorkRan(let context):
            trigger(.periodicWork, context, minimumAge: nil, state: &state, now: now, into: &effects)
        case .refreshTaskLaunched(let context):
            trigger(.refresh, context, minimumAge: syncInterval, state: &state, now: now, into: &effects)
        case .healthDataDelivered(let context):
            trigger(.healthDelivery, context, minimumAge: syncInterval, state: &state, now: now, into: &effects)
        case .retryTimerFired(let context):
            guard state.retryArmed else { return }
            state.retryArmed = false
            trigger(.retry, context, minimumAge: nil, state: &state, now: now, into: &effects)
        case .healthDataRead(let days):
            guard let sync = state.sync, sync.awaiting == nil else { return }
            guard !days.isEmpty else { return succeed(state: &state, now: now, into: &effects) }
            state.nextRequest &+= 1
            let id = RequestID(state.nextRequest)
            state.sync?.awaiting = id
            let method: StepUpload.Method = variants.contains(.insertNotUpsert) ? .insert : .upsert
            effects.append(.httpRequest(id, .syncSteps(StepUpload(method: method, source: sync.source, days: days))))
        case .httpResponse(let id, let result):
            guard let sync = state.sync, sync.awaiting == id else { return }
            switch result {
            case .ok: succeed(state: &state, now: now, into: &effects)
            case .status(let code) where code == 429 || code >= 500: fail(retry: true, state: &state, into: &effects)
            case .status: fail(retry: false, state: &state, into: &effects)
            case .failed: fail(retry: true, state: &state, into: &effects)
            }
        }
    }

    /// The periodic work's interval and the background syncs' spacing (rule 2); the
    /// variant reads the hours as minutes.
    private var syncInterval: Interval {
        variants.contains(.intervalMinutes) ? .minutes(config.syncInterval.microseconds / 3_600_000_000) : config.syncInterval
    }

    // MARK: - Starting

    /// Rules 1-4. `minimumAge` nil: sync regardless of the last sync's age.
    private func trigger(_ trigger: StepSyncState.Trigger, _ context: StepSyncContext, minimumAge: Interval?,
                         state: inout StepSyncState, now: DeviceTime, into effects: inout [StepSyncEffect]) {
        // One sync at a time: the one under way covers this trigger too.
        guard state.sync == nil else { return finishWork(trigger, success: true, into: &effects) }
        if let minimumAge, let last = state.stored.lastSyncAt, now.elapsed(since: last) < minimumAge {
            return finishWork(trigger, success: true, into: &effects)
        }
        guard context.healthTrackingEnabled, context.signedIn, !context.lowPowerMode, !isBatteryLow(context),
              context.networkReachable || variants.contains(.ignoresOffline) else {
            // "Skip sync, will retry on next scheduled run".
            return finishWork(trigger, success: true, into: &effects)
        }
        // A new trigger starts a new retry chain.
        if trigger != .retry {
            if state.retryArmed { state.retryArmed = false; effects.append(.cancelRetryTimer) }
            state.stored.failedAttempts = 0
        }
        // Rule 4: from the last sync, at most 30 days back. Health samples carry the wall
        // clock of the moment they were recorded, so after a jump the ones since the last
        // sync sit on both sides of it: read from the earlier of the stamp's own wall time
        // and its moment named on today's wall clock (upsert makes the overlap harmless).
        var from = now.wall - config.backfillLimit
        if let last = state.stored.lastSyncAt, now.elapsed(since: last) < config.backfillLimit || variants.contains(.backfillUnlimited) {
            let since = min(last.wall, now.wallClockReading(of: last))
            from = variants.contains(.backfillUnlimited) ? since : max(from, since)
        }
        state.sync = StepSyncState.Sync(readTo: now, trigger: trigger, source: context.source)
        effects.append(.readHealthData(from: startOfLocalDay(from, zone: context.zone), to: now.wall))
    }

    /// Rule 3: docs/platform-facts.md E, "battery low" when unplugged and the level is ≤ 15 %.
    private func isBatteryLow(_ context: StepSyncContext) -> Bool {
        guard !variants.contains(.ignoresLowBattery) else { return false }
        return !context.charging && context.batteryPercent <= config.lowBatteryPercent
    }

    /// Local midnight of the day holding `instant` in the user's zone (DST-aware: the
    /// zone's offsets, not a fixed offset, decide where a 23 h or 25 h day begins).
    private func startOfLocalDay(_ instant: Instant, zone: LocalCalendar) -> Instant {
        let us = instant.unixMicroseconds
        let seconds = us >= 0 ? us / 1_000_000 : -((-us + 999_999) / 1_000_000)
        if variants.contains(.localDayIgnoresDST) {
            let standard = zone.standardOffset(atUnix: seconds), local = seconds + standard
            let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
            return Instant(unixSeconds: day * 86_400 - standard)
        }
        return Instant(unixSeconds: zone.startOfDay(containing: seconds))
    }

    // MARK: - Ending

    /// Rule 5.
    private func succeed(state: inout StepSyncState, now: DeviceTime, into effects: inout [StepSyncEffect]) {
        guard let sync = state.sync else { return }
        state.sync = nil
        state.stored = StepSyncStored(lastSyncAt: sync.readTo, lastStatus: .success, failedAttempts: 0)
        effects.append(.store(state.stored))
        effects.append(.synchronize)
        let stale = variants.contains(.staleNoticeMinutes) ? Interval(microseconds: config.staleNotificationAge.microseconds / 60) : config.staleNotificationAge
        effects.append(.scheduleNotification(LocalNotification(kind: .stepSyncStale, badge: nil), after: stale))
        finishWork(sync.trigger, success: true, into: &effects)
    }

    /// Rule 6.
    private func fail(retry: Bool, state: inout StepSyncState, into effects: inout [StepSyncEffect]) {
        guard let sync = state.sync else { return }
        state.sync = nil
        if variants.contains(.advanceCursorOnFailure) { state.stored.lastSyncAt = sync.readTo }
        state.stored.lastStatus = .failed
        state.stored.failedAttempts &+= 1
        effects.append(.store(state.stored))
        effects.append(.synchronize)
        let attempts = Int(state.stored.failedAttempts)
        if retry, attempts <= config.retryDelays.count {
            state.retryArmed = true
            let delay = config.retryDelays[attempts - 1]
            effects.append(.startRetryTimer(after: variants.contains(.retryDelaysSeconds) ? Interval(microseconds: delay.microseconds / 60) : delay))
        }
        finishWork(sync.trigger, success: false, into: &effects)
    }

    /// Only background work items have an OS completion to call.
    private func finishWork(_ trigger: StepSyncState.Trigger, success: Bool, into effects: inout [StepSyncEffect]) {
        switch trigger {
        case .periodicWork, .healthDelivery: effects.append(.finishWork(success: success))
        case .open, .refresh, .retry: break
        }
    }
}
