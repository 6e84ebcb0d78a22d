import SimKernel
import AppLogic
import Platform

// Background work by id (docs/architecture.md): a feature declares its work as a case of ``WorkID``
// (Features/Features.swift) with its request (``PeriodicWork``) and its line in the work
// fan-outs there (``World/featureWorkRuns(_:_:_:)``, ``World/featureWorkStopped(_:_:serial:)``).
// The OS's mechanisms (WorkManager, Doze, charging, Battery Saver, a force-stop's end)
// handle "work k" by its id without knowing whose it is, and hand it back there: "run
// work k on device d", "work k was stopped".

extension WorkID {
    /// Every declared work, in id order: the order the OS tries them in when something
    /// lets due work run (a Doze window, a charger, the network, Battery Saver's end).
    /// A loop over the raw values, with no array built per call.
    @inline(__always) static func forEach(_ body: (WorkID) -> Void) {
        var raw: UInt8 = 0
        while let work = WorkID(rawValue: raw) {
            body(work)
            raw += 1
        }
    }
}

/// A periodic work's request as its feature asks for it: a run every `interval` (no flex),
/// under `constraints`. iOS has no periodic work (OS/OSSeam.swift): there each run is one
/// task request under the work's own identifier, of class `iosKind` (BGTaskScheduler
/// keeps at most one pending `BGAppRefreshTask` request across identifiers,
/// docs/platform-facts.md F);
/// Android runs it as WorkManager unique periodic work.
struct PeriodicWork {
    let interval: SimDuration
    /// WorkManager's constraints on Android; on iOS a processing request's requirements
    /// (`.charging`: `requiresExternalPower`, `.networkConnected`:
    /// `requiresNetworkConnectivity`), which a `BGAppRefreshTaskRequest` does not have.
    let constraints: AppLogic.WorkConstraints
    /// **Assumption**: a `BGProcessingTask` request is launched and expires as a
    /// `BGAppRefreshTask` request is (the launch policy, the scheduler's run limit), once
    /// the device meets its requirements (docs/platform-facts.md F).
    var iosKind: BGTaskKind = .bgAppRefreshTask
}

/// How a work's run ended, for WorkManager's next run time.
enum WorkRunEnd {
    /// The Worker returned this `Result`.
    case returned(WorkResult)
    /// JobScheduler stopped the job (its run-time limit or the bucket's quota at the stop
    /// deadline): ``WorkManagerModel/runStoppedBySystem(_:)``, due again from the original
    /// enqueue time (androidx `WorkerWrapper.resetWorkerStatus`).
    case stoppedBySystem
    /// The process died with the job running (an OEM force-stop, a termination).
    /// **Assumption**: retried with backoff from now, as WorkManager counts the attempt at
    /// its start.
    case killed

    /// For the trace: `success`, `retry`, `failure`, `stopped by the system`, `killed`.
    var traceName: String {
        switch self {
        case .returned(let result): "\(result)"
        case .stoppedBySystem: "stopped by the system"
        case .killed: "killed"
        }
    }
}

/// A work's run as JobScheduler starts it (AndroidHost+WorkManager), handed to the feature that
/// declared the work (``World/featureWorkRuns(_:_:_:)``).
struct AndroidJobStart {
    /// The app's standby bucket when the job started.
    let bucket: StandbyBucket
    /// When WorkManager had the work due.
    let due: SimTime
    /// JobScheduler's stop deadline (10 min, or less when the bucket's quota runs out).
    let stopsAt: SimTime
}
