import SimKernel
import Platform

/// A notification the app schedules for later on Android (`docs/platform-facts.md` C; the
/// stale-sync notification, through the OS seam's `staleNotificationTriggerSet`): the
/// logic's `scheduleNotification(after:)` is an AlarmManager `setAndAllowWhileIdle` alarm.
///
/// - Outside deep idle it fires at its time.
/// - In deep idle (AlarmManager's pending idle-until) it fires when ``WhileIdleAlarmLimiter``
///   allows (Android 12: 72 while-idle alarms an hour) or at the idle's end, the next
///   maintenance window, whichever comes first ([AMS15] `adjustDeliveryTimeBasedOnDeviceIdle`:
///   `min(whenInQuota, mPendingIdleUntil)`); a held alarm fires at once when deep idle ends
///   early (screen, motion, charging).
/// - Every delivery is recorded in the app's log (one alarm a day never nears the quota).
/// - A force-stop removes it (AndroidHost+OEMPolicy).
///
/// It is not a wake-from-idle alarm: `setAndAllowWhileIdle` passes `FLAG_ALLOW_WHILE_IDLE`
/// only, and `getNextWakeFromIdleTime` answers `FLAG_WAKE_FROM_IDLE` alarms (alarm clocks),
/// so it never holds deep Doze back (`MIN_TIME_TO_ALARM`, A) and is not fed to
/// `DozeInput.nextWakeFromIdleAlarm`. It is a wakeup alarm (**assumption**: the app sets it
/// as `RTC_WAKEUP`, as a notification due at its time must be), so its delivery wakes
/// the device: Doze hears `DozeInput.deviceAwake`, and a non-waking light alarm whose
/// window has opened fires with it (AOSP `AlarmManagerService` delivers non-wakeup alarms
/// once the device is awake).
extension AndroidHost {
    /// The stale-sync notification's while-idle alarm is set for `at`, replacing a pending one.
    mutating func armWhileIdleAlarm(_ d: UInt32, at: SimTime, core: inout WorldCore) {
        let a = core.androidIndex(d)
        devices[a].alarmDue = at
        devices[a].alarmHeld = false
    }

    /// The alarm's time, or a later look while Doze held it: whether it fires now (then
    /// the device is awake, and Doze hears it: ``World/staleNotificationMayFire(_:)``).
    /// When deep idle holds it, it looks again at the limiter's time or the idle's end.
    mutating func whileIdleAlarmFires(_ d: UInt32, core: inout WorldCore) -> Bool {
        let a = core.androidIndex(d)
        guard let due = devices[a].alarmDue else { return false }
        let now = core.now
        if let idleUntil = dozeNow(d, core: &core).deepIdleUntil {
            let limiter = core.androidModels(d).whileIdleAlarms
            let allowed = devices[a].whileIdleLog.map { limiter.fireTime(due: now, deviceIdle: true, log: $0) } ?? now
            let at = min(allowed, idleUntil)
            if at > now {
                if !devices[a].alarmHeld {
                    devices[a].alarmHeld = true
                    core.metrics.platform.alarmsDelayedByDoze += 1
                    watchDoze(d, core: &core)
                }
                core.note(d) { c in "AlarmManager: while-idle alarm due; held by Doze until \(c.format(at))" }
                core.armTimer(d, .staleNotification, at: at)
                return false
            }
        }
        if devices[a].whileIdleLog == nil { devices[a].whileIdleLog = core.androidModels(d).whileIdleAlarms.makeLog() }
        devices[a].whileIdleLog!.record(now)
        core.metrics.platform.alarmsFired += 1
        if devices[a].alarmHeld { core.metrics.platform.alarmDozeDelay.record((now - due).microseconds) }
        core.note(d) { c in "AlarmManager: while-idle alarm fires (\(c.human(now - due)) after its time)" }
        devices[a].alarmDue = nil
        devices[a].alarmHeld = false
        return true
    }

    /// Deep idle ended (``feedDoze(_:_:core:)``): a held alarm fires now.
    mutating func releaseHeldAlarm(_ d: UInt32, core: inout WorldCore) {
        core.armTimer(d, .staleNotification, at: core.now)
    }

    /// A force-stop removes the app's alarms.
    mutating func cancelWhileIdleAlarm(_ d: UInt32, core: inout WorldCore) {
        let a = core.androidIndex(d)
        guard devices[a].alarmDue != nil else { return }
        core.cancelTimer(d, .staleNotification)
        devices[a].alarmDue = nil
        devices[a].alarmHeld = false
        core.note(d, "AlarmManager: the stale-sync alarm is removed with the stopped app")
    }
}
