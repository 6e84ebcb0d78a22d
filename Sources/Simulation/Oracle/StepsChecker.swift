import Foundation
import SimKernel
import AppLogic
import Backend

/// The step sync's judge-only ground truth (seed `003`), one entry per device.
struct StepsChecker {
    /// The device's dates from `firstJudgedDay` on are judged, each once, up to `judgedThrough`.
    var firstJudgedDay: [Int32]
    var judgedThrough: [Int32]
    /// When a clock skew or time-zone change last moved the device's dates
    /// (`World.never`: never).
    var calendarMovedAt: [SimTime]
    /// The dates moved since the last judged read: judging starts again at the new
    /// calendar's date of the move (the old dates now name other true days).
    var restartPending: [Bool]

    /// Starts loading device `i`'s entries, which a step upload's arrival reads.
    @inline(__always) func prefetch(_ i: Int) {
        firstJudgedDay.prefetch(i)
        judgedThrough.prefetch(i)
        calendarMovedAt.prefetch(i)
        restartPending.prefetch(i)
    }

    init(devices n: Int) {
        firstJudgedDay = Array(hugePagesRepeating: 0, count: n)
        judgedThrough = Array(hugePagesRepeating: 0, count: n)
        calendarMovedAt = Array(hugePagesRepeating: World.never, count: n)
        restartPending = Array(hugePagesRepeating: false, count: n)
    }
}

extension WorldCore {
    /// Device `i`'s date at true time `t`, on its clock as it is now (zone setting and
    /// skew): the calendar the health store buckets by, read with the oracle's own
    /// ``OracleZone``.
    mutating func oracleDeviceDay(_ i: Int, at t: SimTime) -> Int32 {
        let unix = OracleZone.unixSeconds(t + devices[i].clock.skew, startUnixSeconds: startUnixSeconds)
        return Int32(oracle.zones[Int(devices[i].clock.timeZone)].wall(unix).day)
    }

    /// The true time at which device `i`'s date `day` begins (its clock as it is now).
    mutating func oracleDeviceDayStart(_ i: Int, _ day: Int32) -> SimTime {
        let unix = oracle.zones[Int(devices[i].clock.timeZone)].dayStart(Int64(day))
        return SimTime(microseconds: (unix - startUnixSeconds) * 1_000_000) - devices[i].clock.skew
    }

    /// A clock skew or time-zone change moved the device's dates.
    mutating func observeCalendarMoved(_ i: Int) {
        guard oracle.watching else { return }
        oracle.steps.calendarMovedAt[i] = now
        oracle.steps.restartPending[i] = true
    }
}

extension StepSyncHost {
    /// Set-up: the sync before the run brought local day `day` (in part) to the server;
    /// judging starts there.
    func observeStepSyncStarted(_ i: Int, firstDay day: Int32, core: inout WorldCore) {
        guard core.oracle.watching else { return }
        core.oracle.steps.firstJudgedDay[i] = day
        core.oracle.steps.judgedThrough[i] = day - 1
    }

    /// The app sends a step upload: never while the battery is truly low (seed `003`:
    /// "mandatory"; `docs/platform-facts.md` section E).
    func observeStepUploadSent(_ i: Int, core: inout WorldCore) {
        guard core.oracle.watching else { return }
        let battery = core.cohorts[Int(core.devices[i].cohort)].battery
        let low = battery.isLow(core.devices[i].battery, at: core.now)
        core.verify(!low, .syncedOnLowBattery, device: i, time: core.now,
                    detail: low ? "step upload at \(String(format: "%.1f", battery.percent(core.devices[i].battery, at: core.now))) % battery, unplugged" : nil)
    }

    /// The server inserted (the buggy `POST`) a day's row: one row per (user, date, source).
    func observeStepRowInserted(user: Int, rows: Int, date: LocalDate, source: String, core: inout WorldCore) {
        guard core.oracle.watching else { return }
        core.verify(rows <= 1, .duplicateStepRows, device: user, time: core.now,
                    detail: rows <= 1 ? nil : "\(rows) rows for (user \(user), \(date), \(source))")
    }

    /// `stepsNeverSynced`: once the server holds a read that ended at `readTo`, every
    /// date of the device's calendar that ended before it and began within the 30 days
    /// before it must hold the whole true total of that date's span. Each date is judged
    /// once, at the first upload after it ended.
    ///
    /// The dates are the device's own (its zone and clock, as the health store buckets
    /// them), so a device whose clock or zone moved is judged too: the truth of a date is
    /// the steps truly recorded while the device's clock, as it reads now, showed that
    /// date. A move renames the true days, and the app cannot know which dates it has
    /// already sent under the old names, so judging restarts at the date of the move on
    /// the new calendar (the app's read after a move reaches back past it:
    /// `StepSyncLogic`'s read start). A read taken at or before the move is not judged:
    /// its dates follow the old calendar.
    func observeStepsReceived(user: Int, readTo: SimTime, core: inout WorldCore) {
        guard core.oracle.watching else { return }
        guard readTo > core.oracle.steps.calendarMovedAt[user] else { return }
        if core.oracle.steps.restartPending[user] {
            core.oracle.steps.restartPending[user] = false
            let moved = core.oracleDeviceDay(user, at: core.oracle.steps.calendarMovedAt[user])
            core.oracle.steps.firstJudgedDay[user] = moved
            core.oracle.steps.judgedThrough[user] = moved - 1
        }
        let end = core.oracleDeviceDay(user, at: readTo)
        let windowStart = core.oracleDeviceDay(user, at: readTo - core.scenario.logic.stepSync.backfillLimit) + 1
        let home = core.calendars[Int(core.devices[user].homeTimeZone)]
        var day = max(windowStart, core.oracle.steps.judgedThrough[user] + 1, core.oracle.steps.firstJudgedDay[user])
        while day < end {
            let from = core.oracleDeviceDayStart(user, day), to = core.oracleDeviceDayStart(user, day + 1)
            let truth = health.trueSteps(user: Int(core.globalID(user)), from: from, to: to,
                                  home: home, startUnixSeconds: core.startUnixSeconds)
            let stored = store.steps(user: user, day: day)
            let holds = stored.map { $0 >= truth } ?? false
            core.verify(holds, .stepsNeverSynced, device: user, time: core.now,
                        detail: holds ? nil : "\(LocalDate(daysSince1970: day)): \(truth) true steps, the server has \(stored.map(String.init) ?? "no row"), although a read up to \(core.format(readTo)) reached it")
            day += 1
        }
        if end - 1 > core.oracle.steps.judgedThrough[user] { core.oracle.steps.judgedThrough[user] = end - 1 }
    }
}
