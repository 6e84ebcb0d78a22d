import SimKernel
import Platform

/// Users' daily alarm clocks on Android (``AlarmClockModel``, `android.alarmClock`):
/// `AlarmManager.setAlarmClock`, a wake-from-idle alarm. Doze is told each next ring
/// (`DozeInput.nextWakeFromIdleAlarm`: AOSP `AlarmManager.getNextWakeFromIdleTime`, read by
/// `DeviceIdleController.isUpcomingAlarmClock`), so deep Doze holds back within 30 min of
/// it; the ring wakes the device (`DozeInput.deviceAwake`, an `RTC_WAKEUP` alarm) and the
/// next day's ring is set (docs/platform-facts.md section A; Doze hears both through
/// ``World/setNextAlarmClockRing(_:)`` and ``World/alarmClockRings(_:)``).
///
/// The ring follows the device's own clock: its zone setting and its skew, as an
/// `RTC_WAKEUP` alarm does (`AlarmClockModel.nextRing` keeps the local time across a
/// DST change). **Simplification**: a ring already set does not move when the device's
/// clock or zone changes before it (AOSP `AlarmManagerService.reevaluateRtcAlarms` moves
/// RTC alarms, and deep idle's end with them, when the wall clock is set); the next one
/// uses the new clock.
extension AndroidHost {
    /// Set-up: the user's alarm clock, drawn from its own stream (`user.alarmClock`) so
    /// no other draw shifts. Returns whether the user has one (its first ring is set next).
    mutating func setUpAlarmClock(_ d: UInt32, core: inout WorldCore) -> Bool {
        var rng = RandomStream(seed: core.scenario.seed, entity: core.globalID(Int(d)), purpose: "user.alarmClock")
        guard let timeOfDay = core.androidModels(d).alarmClock.draw(rng: &rng) else { return false }
        devices[core.androidIndex(d)].alarmClock = timeOfDay
        return true
    }

    /// The next ring strictly after now, on the device's clock, set as the timer; nil for
    /// a user without an alarm clock.
    mutating func setNextAlarmClockRing(_ d: UInt32, core: inout WorldCore) -> SimTime? {
        let i = Int(d), a = core.androidIndex(d)
        guard let timeOfDay = devices[a].alarmClock else { return nil }
        let skew = core.devices[i].clock.skew
        let ringOnDevice = AlarmClockModel.nextRing(after: core.now + skew, timeOfDay: timeOfDay,
                                                    zone: &core.localZones[Int(core.devices[i].clock.timeZone)],
                                                    startUnixSeconds: core.startUnixSeconds)
        let ring = ringOnDevice - skew
        let generation = devices[a].timers.arm(.alarmClock)
        core.schedule(.android(.timer(device: d, generation: generation, timer: .alarmClock)), at: ring)
        return ring
    }
}
