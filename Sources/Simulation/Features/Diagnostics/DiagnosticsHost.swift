import SimKernel
import AppLogic
import Platform
import Scenario
import Reports

/// One device's diagnostics bookkeeping in the world: the upload in flight and, on
/// Android, the run its Worker is in (its start, the radio energy it spent so far).
struct DiagnosticsSlot {
    /// The upload's job in flight, or -1.
    var job: Int32 = -1
    /// When the Android job of the current run started (its CPU time is the run's).
    var runStartedAt = SimTime.never
    /// The radio energy (J) of the current Android run's upload.
    var runRadioJoules = 0.0
}

/// What the diagnostics upload measured (report.json's `diagnostics`, and its energy per
/// run in `battery.<cohort>.energyPerDiagnosticsRun`).
struct DiagnosticsMetrics {
    var runs: UInt64 = 0
    var uploads: UInt64 = 0
    var accepted: UInt64 = 0
    var failed: UInt64 = 0
    var expired: UInt64 = 0
    var energy: [EventEnergy]
}

/// The nightly diagnostics upload, hosted (docs/architecture.md, "Adding a feature,
/// counted again"): an opt-in feature whose work runs on external power and an unmetered
/// network. iOS runs it as a `BGProcessingTask` under its own identifier, launched once the
/// device meets the request's requirements; Android as WorkManager periodic work with
/// its constraints. Its effects are carried out by ``deliver(_:_:in:)``, its own loop:
/// the request the logic asks for carries the logic's own constraints to the OS.
struct DiagnosticsHost<Logics: LogicSet> {
    let logic: Logics.Diagnostics
    var effects: [DiagnosticsEffect] = []
    /// Per device (indexed by the dense device id); in memory only.
    var states: [Logics.Diagnostics.State]
    var slots: [DiagnosticsSlot]
    var metrics: DiagnosticsMetrics

    init(logic: Logics.Diagnostics, core: WorldCore) {
        self.logic = logic
        // Only a fleet where a cohort runs it keeps per-device rows.
        let n = core.cohorts.contains { $0.runs(.diagnostics) } ? core.devices.count : 0
        states = Array(repeating: Logics.Diagnostics.State(), count: n)
        slots = Array(repeating: DiagnosticsSlot(), count: n)
        metrics = DiagnosticsMetrics(energy: core.cohorts.map { EventEnergy(capacityMah: $0.capacityMah) })
    }

    /// The logic handles `input` with the device's clock, into ``effects``.
    mutating func handle(_ d: UInt32, _ input: DiagnosticsInput, core: inout WorldCore) {
        let i = Int(d)
        while effects.popLast() != nil {}
        logic.handle(input, state: &states[i], now: core.deviceTime(i, at: core.now), into: &effects)
    }

    /// The upload went out as `job`.
    mutating func requestSent(_ d: UInt32, job: UInt32) {
        slots[Int(d)].job = Int32(job)
    }

    /// The process died: the state in memory is gone, and the upload in flight with it.
    mutating func terminate(_ d: UInt32, core: inout WorldCore) {
        let i = Int(d)
        states[i] = Logics.Diagnostics.State()
        let job = slots[i].job
        slots[i].job = -1
        if job >= 0, !core.jobs[Int(job)].clientDone { core.abandonRequest(job) }
    }
}

/// The name a cohort's `features` runs the diagnostics upload by (``FeatureList/features``):
/// opt-in, so a cohort that lists no `features` does not run it.
extension Feature {
    static var diagnostics: Feature { Feature("diagnostics", bit: 16, byDefault: false) }
}

/// What the diagnostics upload declares whatever logic runs it: its endpoint (the table:
/// Features/FeatureDeclarations.swift), its report's keys and merge rules (DiagnosticsReport).
enum DiagnosticsFeature {
    /// `POST /v1/diagnostics`, an app's own path; its service time is the scenario's
    /// `backend.endpoints` entry for it, or the API's.
    static let endpoints = [EndpointRow(path: Endpoint.diagnostics.path, hashCode: 5)]
}

// MARK: - The world's side: its own loop, its work on both OSes, its requests

extension DiagnosticsHost {
    /// Hands one input to device `d`'s logic and carries out its effects in order. A
    /// cohort without the feature hears nothing.
    static func deliver(_ d: UInt32, _ input: DiagnosticsInput, in world: inout World<Logics>) {
        guard world.core.cohorts[Int(world.core.devices[Int(d)].cohort)].runs(.diagnostics) else { return }
        world.core.note(d, "diagnostics <- \(input)")
        world.features.diagnostics.handle(d, input, core: &world.core)
        var k = 0
        while k < world.features.diagnostics.effects.count {
            let effect = world.features.diagnostics.effects[k]
            k += 1
            world.core.note(d, "diagnostics -> \(effect)")
            carryOut(effect, d, in: &world)
        }
    }

    /// One effect: the next run's request with the constraints the logic asked for
    /// (iOS: a processing request under the work's identifier, `earliestBeginDate` now +
    /// `after`; Android: unique periodic work every `after`, KEEP), the upload, the run's end.
    static func carryOut(_ effect: DiagnosticsEffect, _ d: UInt32, in world: inout World<Logics>) {
        let i = Int(d)
        switch effect {
        case .schedule(let after, let constraints):
            let request = PeriodicWork(interval: SimDuration(microseconds: after.microseconds), constraints: constraints, iosKind: .bgProcessingTask)
            if world.runsPeriodicWork(i) {
                world.enqueuePeriodicWork(d, .diagnostics, request)
            } else {
                world.submitTask(d, .diagnostics, request, earliestBegin: world.now + request.interval)
            }
        case .upload(let id):
            world.features.diagnostics.metrics.uploads += 1
            world.features.diagnostics.observeUploadSent(i, core: world.core)
            let job = world.send(d, id, .diagnostics, owner: .diagnostics)
            world.featureSent(job)
        case .finish(let success):
            if world.runsPeriodicWork(i) {
                world.featureWorkFinished(.diagnostics, d, success: success)
            } else {
                world.completeTask(d, success: success)
            }
        }
    }

    /// Set-up (``World/featuresStart(_:)``): the app's first run on the device.
    static func start(_ d: UInt32, in world: inout World<Logics>) {
        deliver(d, .installed, in: &world)
    }

    /// iOS launched the work's processing task (the world began it as the work's).
    static func taskLaunched(_ d: UInt32, in world: inout World<Logics>) {
        world.features.diagnostics.metrics.runs += 1
        deliver(d, .workLaunched, in: &world)
    }

    /// iOS's expiration handler runs.
    static func taskExpired(_ d: UInt32, in world: inout World<Logics>) {
        world.features.diagnostics.metrics.expired += 1
        deliver(d, .workExpired, in: &world)
    }

    /// The processing task ended after `duration`, costing `mAh` (the task's energy
    /// operation, its radio included): one run's energy.
    static func taskEnded(_ i: Int, mAh: Double, in world: inout World<Logics>) {
        world.features.diagnostics.metrics.energy[Int(world.core.devices[i].cohort)].add(mAh)
    }

    /// JobScheduler started the work's job (Android): a Worker of its own, with its own
    /// stop deadline; the process runs and the logic hears the launch.
    static func runsAsJob(_ d: UInt32, _ job: AndroidJobStart, in world: inout World<Logics>) {
        let i = Int(d)
        world.features.diagnostics.metrics.runs += 1
        let serial = world.runWorker(d, .diagnostics, job)
        world.features.diagnostics.slots[i].runStartedAt = world.now
        world.features.diagnostics.slots[i].runRadioJoules = 0
        world.core.note(d) { c in "WorkManager: diagnostics runs as job \(serial) (\(c.human(c.now - job.due)) after due); JobScheduler stops it at \(c.format(job.stopsAt))" }
        world.backgroundLaunch(d)
        deliver(d, .workLaunched, in: &world)
    }

    /// JobScheduler stopped the job at its deadline: the logic hears it as its expiration.
    static func jobStopped(_ d: UInt32, serial: UInt32, in world: inout World<Logics>) {
        world.core.note(d, "JobScheduler: diagnostics job \(serial) stopped at its deadline")
        world.features.diagnostics.metrics.expired += 1
        deliver(d, .workExpired, in: &world)
    }

    /// The Worker returned and its job ended (Android): the run's CPU time and radio are
    /// its energy, and the process is cached once nothing else holds it.
    static func workFinished(_ d: UInt32, in world: inout World<Logics>) {
        let i = Int(d)
        let slot = world.features.diagnostics.slots[i]
        let cpu = world.core.cohorts[Int(world.core.devices[i].cohort)].energy.cpuJoules(seconds: (world.now - slot.runStartedAt).seconds)
        world.core.devices[i].ledger.chargeApp(joules: cpu)
        world.features.diagnostics.metrics.energy[Int(world.core.devices[i].cohort)].add(DeviceEnergyModel.milliampHours(joules: cpu + slot.runRadioJoules))
        world.core.schedule(.suspendAfterTask(device: d, serial: world.core.devices[i].task.serial), after: world.core.suspensionDelay(i))
    }

    /// The server's answer to the upload: it takes the logs.
    static func serve() -> HTTPResult { .ok(.custom("accepted")) }

    /// The upload's answer reached the device (its radio energy `radioJoules`): the
    /// running app's logic hears it.
    static func receives(_ job: UInt32, _ result: HTTPResult, radioJoules: Double, in world: inout World<Logics>) {
        let j = Int(job), d = world.core.jobs[j].device, i = Int(d)
        world.core.devices[i].ledger.chargeApp(joules: radioJoules)
        world.features.diagnostics.slots[i].runRadioJoules += radioJoules
        if world.features.diagnostics.slots[i].job == Int32(job) { world.features.diagnostics.slots[i].job = -1 }
        if case .ok = result { world.features.diagnostics.metrics.accepted += 1 } else { world.features.diagnostics.metrics.failed += 1 }
        guard world.appHearsAnswer(job) else { return }
        deliver(d, .httpResponse(world.core.jobs[j].request, result), in: &world)
    }

    /// The process was terminated: the state in memory and the upload in flight are
    /// gone, and a running Worker is killed with the process (Android).
    static func terminated(_ d: UInt32, in world: inout World<Logics>) {
        guard world.core.cohorts[Int(world.core.devices[Int(d)].cohort)].runs(.diagnostics) else { return }
        world.features.diagnostics.terminate(d, core: &world.core)
        world.workKilled(d, .diagnostics)
    }

    /// What the work asks of the OS before any run of the logic: the spec's cadence on an
    /// unmetered network, on external power when the spec requires it (a request the
    /// logic submits carries its own constraints: ``carryOut(_:_:in:)``).
    static func work(in world: borrowing World<Logics>) -> PeriodicWork {
        let spec = world.features.diagnostics.logic.spec
        return PeriodicWork(interval: SimDuration(microseconds: spec.interval.microseconds),
                            constraints: spec.requiresExternalPower ? [.networkConnected, .unmetered, .charging] : [.networkConnected, .unmetered],
                            iosKind: .bgProcessingTask)
    }
}

// MARK: - What it hears as a feature (Features/FeatureHooks.swift)

extension DiagnosticsHost: FeatureHooks {
    static func report(into parts: inout ReportParts, world: borrowing World<Logics>) { world.features.diagnostics.report(into: &parts, core: world.core) }
}
