import SimKernel
import Platform
import AppLogic

// What the features declare to the core and the OS, beside their list (Features.swift):
// their background works and the OS's room for them, their events, their per-device
// timers, their load causes and the owners of their requests. A new feature adds its case
// to each it takes part in (docs/architecture.md, "Where each kind of change goes").

/// The features' background works, one case per declared work (OS/BackgroundWork.swift):
/// the OS models handle a work by its id (its raw value) and never name one; the feature
/// that declared it runs it (``World/featureWorkRuns(_:_:_:)``). The OS keeps one slot,
/// one request id, one job serial and stop and one WorkManager timer per id, in arrays of
/// ``PerWork`` room: a new work is a case here and one more in ``PerWork``'s count.
enum WorkID: UInt8, CaseIterable {
    /// Seed `000`'s refresh (Features/Refresh/World+Refresh).
    case refresh
    /// Seed `003`'s step sync (Features/StepSync/World+StepSync).
    case stepSync
    /// The nightly diagnostics upload (Features/Diagnostics), opt-in.
    case diagnostics

    /// Its name in the trace's prose (`periodic step-sync work enqueued`); the trace's
    /// other lines print the case's name (`WorkManager: stepSync due`).
    var proseName: String {
        switch self {
        case .refresh: "refresh"
        case .stepSync: "step-sync"
        case .diagnostics: "diagnostics"
        }
    }

    /// The energy operation a task this work holds opens on the device's books
    /// (``EnergyLedger``): the task's time and energy are the work's. The ledger's kinds
    /// are buckets of the device's total; a run's own energy is what the operation's end
    /// returns, which the work's feature books (the diagnostics upload, an upload, in `sync`'s).
    var energyOperation: EnergyOperation {
        switch self {
        case .refresh: .refresh
        case .stepSync, .diagnostics: .sync
        }
    }
}

/// The OS's room for each declared work, inline in every Android device
/// (``AndroidDevice/works``): its count is the number of ``WorkID`` cases
/// (DeviceLayoutTests checks), so a feature's new work grows the per-device state by what
/// it needs and no OS file changes.
typealias PerWork<Element> = InlineArray<3, Element>

/// A feature's own events, one case per feature, each a small enum in the feature's
/// folder that knows its identity for the event hashes, its device for the prefetch,
/// its staleness and its load cause (as ``PushEvent`` does). Nested, ``WorldEvent``
/// stays 10 bytes (``DeviceLayoutTests``).
enum FeatureEvent {
    case refresh(RefreshEvent)
    case push(PushEvent)
    case stepSync(StepSyncEvent)
    case continuation(ContinuationEvent)

    /// What a request sent while it is handled was caused by (``LoadCause``).
    var loadCause: LoadCause {
        switch self {
        case .refresh(let e): return e.loadCause
        case .push(let e): return e.loadCause
        case .stepSync(let e): return e.loadCause
        case .continuation(let e): return e.loadCause
        }
    }
}

/// Every per-device timer a feature arms, in one small enum, part of the list of
/// features: each case is one feature's timer, which its handler in
/// ``World/featureTimerFires(_:_:)`` hands to that feature. One enum of one byte whose
/// unused values are spare bits `WorldEvent`'s tag fits in, so the event stays 10 bytes
/// (``DeviceLayoutTests``; a byte-sized struct has no spare bits, and nested
/// per-feature enums add a tag byte), and every switch over it is exhaustive. The raw
/// values are the timers' codes in the event hashes (Core/EventHashes) and their places
/// in the generation table (Core/DeviceTimers): a new feature adds its timers at the end.
enum DeviceTimer: UInt8, CaseIterable {
    /// The refresh logic's hard stop (`startHardStopTimer`).
    case hardStop
    /// The step sync's retry backoff (`startRetryTimer`).
    case stepRetry
    /// The "steps not synced for 24 h" notification's trigger (Android: a while-idle alarm).
    case staleNotification
    /// The end of a HealthKit wake or of the work's background time.
    case stepWake
    /// The continuation's offer and deadline timers (seed `004`).
    case continuationOffer
    case continuationDeadline
    /// The background time `beginBackgroundTask` granted runs out.
    case backgroundTask

    /// Re-armed later far more often than it fires: a re-arm keeps its pending entry
    /// (``DeferredTimer``).
    var defersLaterArms: Bool { self == .staleNotification }

    /// Which of a device's kept placements (``TimerEntries``) its pending entry keeps, so
    /// that it leaves the queue when it becomes moot; nil for a timer that keeps none.
    /// Measured worth it for the two whose entries were mostly popped as no-ops: the
    /// hard stop, which the logic cancels, and the wake's budget, which the work's end
    /// replaces by the suspension delay.
    @inline(__always) var keptEntry: Int? {
        switch self {
        case .hardStop: return 0
        case .stepWake: return 1
        default: return nil
        }
    }

    /// What a request sent when it fires was caused by (``LoadCause``).
    var loadCause: LoadCause { self == .stepRetry ? .retryBackoff : .appTimer }
}

/// The features' own load causes, each declared beside its host, joined with the
/// core's in ``LoadCause/names``.
let featureLoadCauses = PushFeature.loadCauses

/// The feature a request belongs to (``Job/owner``), set by the host that sends it: it
/// serves the request through the backend model and hears the answer.
enum RequestOwner: UInt8 {
    case refresh
    case continuation
    case stepSync
    case diagnostics

    /// The endpoint table: every feature's endpoints (each declared beside its host), in
    /// the order `backend.requests.byEndpoint` and the load series list them.
    static let endpoints = RefreshFeature.endpoints + ContinuationFeature.endpoints + StepSyncFeature.endpoints + DiagnosticsFeature.endpoints

    /// The row in ``endpoints`` of `endpoint`, one of this feature's.
    @inline(__always) func row(_ endpoint: Endpoint) -> Int {
        switch self {
        case .refresh: return RefreshFeature.endpointRow(endpoint)
        case .continuation: return RefreshFeature.endpoints.count
        case .stepSync: return RefreshFeature.endpoints.count + ContinuationFeature.endpoints.count + StepSyncFeature.endpointRow(endpoint)
        case .diagnostics: return RefreshFeature.endpoints.count + ContinuationFeature.endpoints.count + StepSyncFeature.endpoints.count
        }
    }
}
