import SimKernel
import AppLogic
import Scenario
import Platform

/// The core's fields and services as the world's own, for the parts not yet hosted:
/// network and backend, faults, users, lifecycle, the OS models, refresh, step sync and
/// push still reach them through `self` (docs/architecture.md, "Still to do"). A hosted
/// feature gets `&core` instead.
extension World {
    public var scenario: Scenario { _read { yield core.scenario } }
    /// Which devices of the fleet this world holds (``ShardPlan``); `.whole` unless sharded.
    public var shard: ShardPlan { _read { yield core.shard } }
    public var end: SimTime { _read { yield core.end } }
    var startUnixSeconds: Int64 { _read { yield core.startUnixSeconds } }
    var cohorts: [CohortModels] { _read { yield core.cohorts } }
    var timeZones: [String] { _read { yield core.timeZones } }
    var calendars: [LocalCalendar] { _read { yield core.calendars } }
    var traceRecorder: Trace? { _read { yield core.traceRecorder } }

    var clock: SimClock<WorldEvent> {
        _read { yield core.clock }
        _modify { yield &core.clock }
    }
    var devices: [Device] {
        _read { yield core.devices }
        _modify { yield &core.devices }
    }
    var jobs: [Job] {
        _read { yield core.jobs }
        _modify { yield &core.jobs }
    }
    var freeJobs: [UInt32] {
        _read { yield core.freeJobs }
        _modify { yield &core.freeJobs }
    }
    var metrics: Metrics {
        _read { yield core.metrics }
        _modify { yield &core.metrics }
    }
    var oracle: Oracle {
        _read { yield core.oracle }
        _modify { yield &core.oracle }
    }

    @inline(__always) func globalID(_ d: Int) -> UInt64 { core.globalID(d) }
    @inline(__always) func note(_ d: UInt32, _ text: @autoclosure () -> String) { core.note(d, text()) }
    func format(_ t: SimTime) -> String { core.format(t) }
    func human(_ d: SimDuration) -> String { core.human(d) }
    func hours(_ d: SimDuration) -> String { core.hours(d) }
    func wallInstant(_ i: Int, at t: SimTime) -> Instant { core.wallInstant(i, at: t) }
    func deviceTime(_ i: Int, at t: SimTime) -> DeviceTime { core.deviceTime(i, at: t) }
    @inline(__always) func localTime(_ i: Int, at t: SimTime) -> (day: Int32, secondOfDay: Int) { core.localTime(i, at: t) }
    mutating func verify(_ holds: Bool, _ kind: ViolationKind, device: Int, time: SimTime, detail: String?) {
        core.verify(holds, kind, device: device, time: time, detail: detail)
    }
    mutating func armTimer(_ d: UInt32, _ timer: DeviceTimer, at: SimTime) { core.armTimer(d, timer, at: at) }
    mutating func armTimer(_ d: UInt32, _ timer: DeviceTimer, after delay: SimDuration) { core.armTimer(d, timer, after: delay) }
    mutating func cancelTimer(_ d: UInt32, _ timer: DeviceTimer) { core.cancelTimer(d, timer) }
    mutating func armFlush(_ d: UInt32) { core.armFlush(d) }
    mutating func releaseIfDone(_ job: UInt32) { core.releaseIfDone(job) }
}
