import SimKernel
import AppLogic

/// The step sync's cadence (seed `003`): how soon after the last success each trigger may
/// start a sync, judged from what the world delivered and the app truly heard, with the
/// numbers of `logic.stepSync`.
extension StepsChecker {
    /// One device's truth for the cadence, 16 bytes (``DeviceLayoutTests``).
    struct CadenceTruth {
        /// When the sync under way started: its health-data read, the trigger's instant.
        var syncStartedAt = SimTime.never
        /// When the last sync the app heard succeed started (the logic's last-sync stamp
        /// is that sync's trigger); at first the drawn sync before the run.
        var lastSuccessStartedAt = SimTime.never
    }
}

extension StepSyncHost {
    /// A sync starts (its health-data read) in the delivery of a trigger: `stepSyncTooSoon`
    /// when a refresh launch or a HealthKit delivery starts it less than `syncInterval`
    /// after the start of the last sync the app heard succeed, or an open less than
    /// `openSyncAge` after; periodic work and the retry timer sync whatever the age (seed
    /// `003`, "Configuration", §6). Elapsed time: no reboots are modelled, so it is the
    /// logic's boot clock too.
    @inline(__always) func observeSyncCadence(_ i: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let config = core.oracle.judged.stepSync
        let minimum: SimDuration, trigger: String
        switch core.oracle.steps.devices[i].sync.delivering {
        case .refreshLaunch: (minimum, trigger) = (config.syncInterval, "a refresh launch")
        case .healthDelivery: (minimum, trigger) = (config.syncInterval, "a HealthKit delivery")
        case .open: (minimum, trigger) = (config.openSyncAge, "an open")
        case .other, .retryTimer, .retryableFailure, .finalFailure, .periodicWork: (minimum, trigger) = (.zero, "")
        }
        let last = core.oracle.steps.devices[i].cadence.lastSuccessStartedAt
        core.oracle.steps.devices[i].cadence.syncStartedAt = core.now
        core.oracle.steps.devices[i].sync.openSyncDue = false
        guard minimum > .zero else { return }
        let age = core.now - last
        core.verify(age >= minimum, .stepSyncTooSoon, device: i, time: core.now,
                    detail: age >= minimum ? nil : "step sync started by \(trigger) \(core.human(age)) after the last successful one started (at least \(core.human(minimum)))")
    }

    /// The app asks for its periodic work every `interval`: `stepSyncTooSoon` unless it is
    /// `logic.stepSync.syncInterval` (seed `003`, "Configuration": 120 minutes).
    @inline(__always) func observePeriodicWorkInterval(_ i: Int, _ interval: SimDuration, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let expected = core.oracle.judged.stepSync.syncInterval
        core.verify(interval == expected, .stepSyncTooSoon, device: i, time: core.now,
                    detail: interval == expected ? nil : "periodic step sync asked for every \(core.human(interval)), not \(core.human(expected))")
    }

    /// Whether an open now must start a sync (seed `003`, §6): the last sync the app heard
    /// succeed started at least `openSyncAge` ago, no upload of the device is in flight
    /// (the world's job slot: a sync under way covers the open), and the device allows a
    /// sync: signed in, online, not in low-power mode, and the battery not low, read as
    /// the OS reports it to the app (whole percent, above `lowBatteryPercent`, or charging).
    @inline(__always) func openSyncIsDue(_ i: Int, core: borrowing WorldCore) -> Bool {
        let config = core.oracle.judged.stepSync
        guard core.now - core.oracle.steps.devices[i].cadence.lastSuccessStartedAt >= config.openSyncAge, slots[i].job < 0 else { return false }
        let level = Int(core.cohorts[Int(core.devices[i].cohort)].battery.percent(core.devices[i].battery, at: core.now).rounded(.down))
        let batteryLow = !core.devices[i].battery.charging && level <= config.lowBatteryPercent
        return core.devices[i].signedIn && core.devices[i].online && !core.devices[i].lowPowerMode && !batteryLow
    }

    /// The open's delivery is over: `openSyncMissed` if it was due to start a sync
    /// (``openSyncIsDue(_:core:)``) and none started.
    @inline(__always) func observeOpenDelivered(_ i: Int, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let missed = core.oracle.steps.devices[i].sync.openSyncDue
        core.oracle.steps.devices[i].sync.openSyncDue = false
        core.verify(!missed, .openSyncMissed, device: i, time: core.now,
                    detail: missed ? "app opened \(core.human(core.now - core.oracle.steps.devices[i].cadence.lastSuccessStartedAt)) after the last successful step sync started, with nothing in flight, and no sync started" : nil)
    }

    /// The app sends a step upload: `stepsBackfilledTooFar` if one of its dates is before
    /// the device's date at its wall clock now less `logic.stepSync.backfillLimit` (its zone
    /// and skew, read with the oracle's own ``OracleZone``: the calendar the health store
    /// buckets by). The upload leaves in its read's instant.
    @inline(__always) func observeUploadReach(_ i: Int, _ upload: StepUpload, core: borrowing WorldCore) {
        guard core.oracle.watching else { return }
        let limit = core.oracle.judged.stepSync.backfillLimit
        let first = core.oracleDeviceDay(i, at: core.now - limit)
        var earliest = Int32.max
        for entry in upload.days { earliest = min(earliest, entry.date.daysSince1970) }
        let holds = earliest >= first
        core.verify(holds, .stepsBackfilledTooFar, device: i, time: core.now,
                    detail: holds ? nil : "step upload reaches back to \(LocalDate(daysSince1970: earliest)), before \(LocalDate(daysSince1970: first)), the device's date \(core.human(limit)) ago")
    }
}
