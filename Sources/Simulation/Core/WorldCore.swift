import SimKernel
import AppLogic
import Platform
import Scenario
import Reports

/// What every feature shares (docs/architecture.md, "The core and the feature hosts"):
/// the clock and its queue, the devices' shared state (identity, process, connectivity,
/// streams, timers), the cohorts, the zones, the requests in flight (`jobs`), the trace,
/// the metrics and the oracle. `World` passes it `inout` to a feature host
/// (`host.deliver(d, input, core: &core)`); a host never sees `World`, and asks it for
/// what belongs to another part (the OS seam, the process lifecycle, a request) with a
/// ``HostRequest``.
///
/// The oracle is not stored in the core but in an ``OracleCell`` it holds, so that a
/// checker takes the core `borrowing` (the model read-only, by type) and still writes the
/// oracle's own state through ``oracle`` (docs/architecture.md, "The oracle").
struct WorldCore {
    let scenario: Scenario
    /// Which devices of the fleet this world holds (``ShardPlan``).
    let shard: ShardPlan
    /// The scenario seed's streams, rebuilt from positions where they are used
    /// (``withStream(_:of:_:)``, Core/DeviceStreams.swift).
    let streamKeys: StreamKeys
    var clock: SimClock<WorldEvent>
    var devices: [Device]
    /// The iOS devices' launch-policy states (``Device/launchPolicySlot``): Android devices
    /// have none, so they are not in `Device`.
    var launchPolicies: [LaunchPolicyState]
    /// The iOS devices' pending task requests, one per work id, at the same slots
    /// (OS/iOS/WorldCore+BGTaskScheduler.swift).
    var bgTaskRequests: [BGTaskRequests] = []
    let cohorts: [CohortModels]
    let timeZones: [String]
    /// One per entry of `timeZones`.
    let calendars: [LocalCalendar]
    /// One per entry of `timeZones`, caching each zone's UTC offset between DST changes
    /// (Core/LocalTime.swift).
    var localZones: [LocalTimeZone]
    /// The scenario's faults: which devices each touches, the latency faults in force (Core/Faults.swift).
    var faults: FaultState
    /// Requests on their way (Core/World+Network), and the free slots. The pool's room for
    /// one request in four devices (``World/jobsReserved(devices:)``) is asked for on huge
    /// pages: its slots are reused in any order, so at a million devices its 28 MB were
    /// read at random through 4 KiB pages.
    var jobs: [Job] = []
    /// The radios' profiles (``RadioEnergyModel``: documented constants, one for the fleet).
    let radios = RadioEnergyModel()
    var freeJobs: [UInt32] = []
    /// The same-instant order of `"tieBreak": "shuffle"` (``TieKeys``); fifo by default.
    var ties = TieKeys.fifo
    /// Each device's stale-sync notification trigger's entry and deadline (``DeferredTimer``).
    var staleTriggers: [DeferredTimer]
    var metrics: Metrics
    /// The oracle's state, written by the checkers through ``oracle``. A copied world
    /// gets a cell of its own before it runs (``ownOracle()``).
    private(set) var oracleCell: OracleCell
    /// Trace of one device for `replay`, when asked for.
    let traceRecorder: Trace?
    /// Records every request and provider's send for a pooled replay (``RequestRecorder``);
    /// nil (the default) costs one check per request.
    var requestRecorder: RequestRecorder?
    let end: SimTime
    let startUnixSeconds: Int64
    /// When each user is up (wake-up and bedtime per user and local date): the battery's
    /// overnight charging and the health data follow it.
    let rhythm: DailyRhythm

    var now: SimTime { clock.now }

    /// iOS device `i`'s entry in ``launchPolicies``.
    @inline(__always) func launchPolicySlot(_ i: Int) -> Int { devices[i].launchPolicySlot }

    /// The global id of local device `d` (the id streams, traces, samples and replay
    /// commands use): `d` itself unless the world is a shard.
    @inline(__always) func globalID(_ d: Int) -> UInt64 { UInt64(shard.global(d)) }

    // MARK: - Trace

    /// Records a line of the traced device's story (no cost for other devices).
    @inline(__always) func note(_ d: UInt32, _ text: @autoclosure () -> String) {
        guard let traceRecorder, traceRecorder.device == Int(d) else { return }
        traceRecorder.append(time: now, wallMicroseconds: devices[Int(d)].clock.wallMicroseconds(at: now, startUnixSeconds: startUnixSeconds),
                             timeZone: timeZones[Int(devices[Int(d)].clock.timeZone)], startUnixSeconds: startUnixSeconds, text())
    }

    /// ``note(_:_:)`` for a line that reads the core (a time, a span, a device's field):
    /// the core is handed to `text`, not captured. An autoclosure that captures `core`,
    /// or a non-mutating method that hands `self` on, makes the caller copy the whole
    /// core (about 1.5 KB) before the call, traced device or not; `mutating` takes the
    /// core by address, and only a traced device's line reads it.
    @inline(__always) mutating func note(_ d: UInt32, reading text: (borrowing WorldCore) -> String) {
        guard let traceRecorder, traceRecorder.device == Int(d) else { return }
        note(d, text(self))
    }

    func format(_ t: SimTime) -> String { Trace.utc(startUnixSeconds * 1_000_000 + t.microseconds) }

    /// A span as a person reads it in a replay: `254 ms`, `30 s`, `4.0 h`.
    func human(_ d: SimDuration) -> String { HumanUnits.duration(microseconds: d.microseconds) }

    /// A span for oracle details, e.g. `13.9 h`.
    func hours(_ d: SimDuration) -> String { "\((d.seconds / 360).rounded() / 10) h" }

    // MARK: - The oracle

    /// The oracle's state: readable and writable from a core the caller only borrows
    /// (a checker's view: ``Oracle``), since it lives in the cell, not in the model.
    var oracle: Oracle {
        @inline(__always) _read { yield oracleCell.oracle }
        @inline(__always) nonmutating _modify { yield &oracleCell.oracle }
    }

    /// Gives this core an oracle cell of its own if a copy of the world shares it: a
    /// world is a value, and its copies must judge apart. Called where a run starts.
    mutating func ownOracle() {
        if !isKnownUniquelyReferenced(&oracleCell) { oracleCell = OracleCell(oracleCell.oracle) }
    }

    /// One oracle check; a violation also goes into the device's trace, at its instant.
    @inline(__always) func verify(_ holds: Bool, _ kind: ViolationKind, device: Int, time: SimTime, detail: String?) {
        if !oracle.check(holds, kind, device: device, time: time, detail: detail) {
            note(UInt32(device), "ORACLE: violation \(kind.rawValue): \(detail ?? "")")
        }
    }

    // MARK: - Time

    /// The device's wall clock as the app reads it.
    func wallInstant(_ i: Int, at t: SimTime) -> Instant {
        Instant(unixMicroseconds: devices[i].clock.wallMicroseconds(at: t, startUnixSeconds: startUnixSeconds))
    }

    /// **Assumption**: how long every phone has been up when the run starts (a week: longer
    /// than any stamp set before the run, so each is on this boot's clock).
    static let bootedBeforeStart = SimDuration.days(7)

    /// The device's clocks as the app reads them at true time `t`: the wall clock
    /// (skew included) and the boot clock, which counts true time since the boot.
    /// **Assumption**: every device booted `WorldCore.bootedBeforeStart` before the run and
    /// none reboots during it (the simulator models no reboots), so the boot is 1.
    func deviceTime(_ i: Int, at t: SimTime) -> DeviceTime {
        DeviceTime(wall: wallInstant(i, at: t),
                   sinceBoot: Interval(microseconds: t.microseconds + WorldCore.bootedBeforeStart.microseconds), boot: 1)
    }

    // MARK: - Device timers (Core/DeviceTimers)

    /// Arms `timer` of device `d` to fire at `at`, replacing a pending one.
    mutating func armTimer(_ d: UInt32, _ timer: DeviceTimer, at: SimTime) {
        if timer.defersLaterArms { return armDeferred(d, timer, at: at) }
        let generation = newGeneration(d, timer)
        scheduleTimer(d, timer, generation: generation, at: at)
    }

    mutating func armTimer(_ d: UInt32, _ timer: DeviceTimer, after delay: SimDuration) {
        armTimer(d, timer, at: now + delay)
    }

    mutating func cancelTimer(_ d: UInt32, _ timer: DeviceTimer) {
        if timer.defersLaterArms { return cancelDeferred(d, timer) }
        let generation = devices[Int(d)].timers.cancel(timer)
        retractTimer(d, timer, generation: generation)
    }

    // MARK: - The app in the foreground

    /// The app stays in the foreground until `until` (its end is checked then).
    mutating func keepForeground(_ d: UInt32, until: SimTime) {
        devices[Int(d)].foregroundUntil = until
        schedule(.foregroundSessionEnds(device: d, incarnation: devices[Int(d)].incarnation), at: until)
    }

    /// The app leaves the foreground or ends a background task: suspended `after` unless it
    /// still has work (a feature's background work, the app's background task), which
    /// checks again when it ends.
    mutating func scheduleSuspensionCheck(_ d: UInt32, after: SimDuration) {
        schedule(.foregroundSessionEnds(device: d, incarnation: devices[Int(d)].incarnation), after: after)
    }

    // MARK: - Key-value durability

    /// The persistence delay starts: UserDefaults writes the dirty state when it ends.
    mutating func armFlush(_ d: UInt32) {
        let i = Int(d)
        let generation = devices[i].keyValue.flush.arm()
        devices[i].pendingFlush = scheduleRetractably(.keyValueFlush(device: d, generation: generation),
                                                            at: now + cohorts[Int(devices[i].cohort)].kvPersistDelay)
    }

    /// The pending flush is moot (the state was written, or the process died): its
    /// generation moves on, and its entry leaves the queue if it still can, since it could
    /// only pop stale (in the default fleet every flush did: the app persists when it
    /// is suspended, before the delay ends).
    mutating func cancelFlush(_ d: UInt32) {
        let i = Int(d)
        let generation = devices[i].keyValue.flush.current
        devices[i].keyValue.flush.cancel()
        _ = clock.queue.retract(devices[i].pendingFlush) { event in
            if case .keyValueFlush(d, generation) = event { return true }
            return false
        }
    }

    /// A feature wrote to UserDefaults: the first unpersisted write starts the
    /// persistence delay; later ones ride along.
    mutating func keyValueWritten(_ d: UInt32) {
        let i = Int(d)
        let wasDirty = devices[i].keyValue.dirty
        devices[i].keyValue.dirty = true
        if !wasDirty, devices[i].process == .running { armFlush(d) }
    }

    // MARK: - Requests in flight

    /// A request's client side is over (answered, cancelled, abandoned): its slot is
    /// reused once the server is done with it too.
    mutating func releaseIfDone(_ job: UInt32) {
        let j = Int(job)
        guard jobs[j].clientDone, jobs[j].serverDone else { return }
        jobs[j].generation &+= 1
        freeJobs.append(job)
    }

    /// URLSession cancellation of request `job`: it answers `.cancelled` right away.
    mutating func cancelRequest(_ job: Int32) {
        guard job >= 0, !jobs[Int(job)].clientDone else { return }
        jobs[Int(job)].cancelled = true
        schedule(.responseReachesDevice(job: UInt32(job), generation: jobs[Int(job)].generation), at: now)
    }

    /// The app died with request `job` in flight: nobody waits for it any more; the
    /// server side runs its course.
    mutating func abandonRequest(_ job: Int32) {
        guard job >= 0, !jobs[Int(job)].clientDone else { return }
        jobs[Int(job)].clientDone = true
        // Its transfer ends with the app's: the radio's cost so far is the app's, outside
        // any operation (never a later task's).
        devices[Int(jobs[Int(job)].device)].ledger.appJoulesOutsideOperations += closeRadio(UInt32(job))
        retractTimeout(UInt32(job))
        releaseIfDone(UInt32(job))
    }

    /// The client side of `job` ends now: its transfer closes on the radio it opened at the
    /// send (``RadioState``) and its energy is returned (J); none for a request that failed
    /// at once offline, which never opened the radio.
    mutating func closeRadio(_ job: UInt32) -> Double {
        let j = Int(job), i = Int(jobs[j].device)
        if case .failed(.offline) = jobs[j].result { return 0 }
        return devices[i].radio.close(at: now, over: jobs[j].bearer, model: radios)
    }

    /// The client side of `job` ended before its timeout (answered, cancelled, abandoned):
    /// the timeout could only pop stale, so its entry leaves the queue if it still can.
    /// Call it before the job's slot is released (its generation identifies the entry).
    mutating func retractTimeout(_ job: UInt32) {
        let j = Int(job), generation = jobs[j].generation
        _ = clock.queue.retract(jobs[j].timeout) { event in
            if case .requestTimesOut(job, generation) = event { return true }
            return false
        }
    }
}
