import Foundation
import SimKernel
import AppLogic
import Backend

/// The step sync's judge-only ground truth (seed `003`), one entry per device.
struct StepsChecker {
    /// Local days from `firstJudgedDay` on are judged, each once, up to `judgedThrough`.
    var firstJudgedDay: [Int32]
    var judgedThrough: [Int32]
    /// A clock skew or time-zone change moved the local days: the days are not judged.
    var calendarDisturbed: [Bool]

    init(devices n: Int) {
        firstJudgedDay = Array(repeating: 0, count: n)
        judgedThrough = Array(repeating: 0, count: n)
        calendarDisturbed = Array(repeating: false, count: n)
    }
}

extension World {
    /// Set-up: the sync before the run brought local day `day` (in part) to the server;
    /// judging starts there.
    mutating func observeStepSyncStarted(_ i: Int, firstDay day: Int32) {
        oracle.steps.firstJudgedDay[i] = day
        oracle.steps.judgedThrough[i] = day - 1
    }

    /// A clock skew or time-zone change moved the device's local days.
    mutating func observeCalendarMoved(_ i: Int) { oracle.steps.calendarDisturbed[i] = true }

    /// The app sends a step upload: never while the battery is truly low (seed `003`:
    /// "mandatory"; `docs/platform-facts.md` section E).
    mutating func observeStepUploadSent(_ i: Int) {
        let battery = cohorts[Int(devices[i].cohort)].battery
        let low = battery.isLow(devices[i].battery, at: now)
        verify(!low, .syncedOnLowBattery, device: i, time: now,
               detail: low ? "step upload at \(String(format: "%.1f", battery.percent(devices[i].battery, at: now))) % battery, unplugged" : nil)
    }

    /// The server inserted (the buggy `POST`) a day's row: one row per (user, date, source).
    mutating func observeStepRowInserted(user: Int, rows: Int, date: LocalDate, source: String) {
        verify(rows <= 1, .duplicateStepRows, device: user, time: now,
               detail: rows <= 1 ? nil : "\(rows) rows for (user \(user), \(date), \(source))")
    }

    /// `stepsNeverSynced`: once the server holds a read that ended at `readTo`, every
    /// local day that ended before it and began within the 30 days before it must hold its
    /// whole true total. Each day is judged once, at the first upload after it ended.
    /// Devices whose clock or zone was moved by a fault are not judged (their local days
    /// no longer match the truth's).
    mutating func observeStepsReceived(user: Int, readTo: SimTime) {
        guard !oracle.steps.calendarDisturbed[user] else { return }
        let end = localTime(user, at: readTo).day
        let windowStart = localTime(user, at: readTo - scenario.logic.stepSync.backfillLimit).day + 1
        var day = max(windowStart, oracle.steps.judgedThrough[user] + 1, oracle.steps.firstJudgedDay[user])
        while day < end {
            let truth = health.dailyTotal(user: Int(globalID(user)), day: day)
            let stored = stepStore.steps(user: user, day: day)
            let holds = stored.map { $0 >= truth } ?? false
            verify(holds, .stepsNeverSynced, device: user, time: now,
                   detail: holds ? nil : "\(LocalDate(daysSince1970: day)): \(truth) true steps, the server has \(stored.map(String.init) ?? "no row"), although a read up to \(format(readTo)) reached it")
            day += 1
        }
        if end - 1 > oracle.steps.judgedThrough[user] { oracle.steps.judgedThrough[user] = end - 1 }
    }
}
