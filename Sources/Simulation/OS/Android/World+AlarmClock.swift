import SimKernel
import Platform

/// Users' daily alarm clocks on Android (``AlarmClockModel``, `android.alarmClock`):
/// `AlarmManager.setAlarmClock`, a wake-from-idle alarm. Doze is told each next ring
/// (`DozeInput.nextWakeFromIdleAlarm`: AOSP `AlarmManager.getNextWakeFromIdleTime`, read by
/// `DeviceIdleController.isUpcomingAlarmClock`), so deep Doze holds back within 30 min of
/// it; the ring wakes the device (`DozeInput.deviceAwake`, an `RTC_WAKEUP` alarm) and the
/// next day's ring is set (docs/platform-facts.md section A).
///
/// The ring follows the device's own clock: its zone setting and its skew, as an
/// `RTC_WAKEUP` alarm does (`AlarmClockModel.nextRing` keeps the local time across a
/// DST change). **Simplification**: a ring already set does not move when the device's
/// clock or zone changes before it (AOSP `AlarmManagerService.reevaluateRtcAlarms` moves
/// RTC alarms, and deep idle's end with them, when the wall clock is set); the next one
/// uses the new clock.
extension World {
    /// Set-up: the user's alarm clock, drawn from its own stream (`user.alarmClock`) so
    /// no other draw shifts; a user with one gets its first ring set.
    mutating func setUpAlarmClock(_ d: UInt32) {
        var rng = RandomStream(seed: scenario.seed, entity: core.globalID(Int(d)), purpose: "user.alarmClock")
        guard let timeOfDay = models(d).alarmClock.draw(rng: &rng) else { return }
        androids[androidIndex(d)].alarmClock = timeOfDay
        setNextAlarmClockRing(d)
    }

    /// The next ring strictly after now, on the device's clock: set as the timer and
    /// told to Doze.
    mutating func setNextAlarmClockRing(_ d: UInt32) {
        let i = Int(d), a = androidIndex(d)
        guard let timeOfDay = androids[a].alarmClock else { return }
        let skew = core.devices[i].clock.skew
        let ringOnDevice = AlarmClockModel.nextRing(after: now + skew, timeOfDay: timeOfDay,
                                                    zone: &core.localZones[Int(core.devices[i].clock.timeZone)],
                                                    startUnixSeconds: core.startUnixSeconds)
        let ring = ringOnDevice - skew
        let generation = androids[a].timers.arm(.alarmClock)
        core.clock.schedule(.android(.timer(device: d, generation: generation, timer: .alarmClock)), at: ring)
        applyDoze(d, .nextWakeFromIdleAlarm(ring))
        core.note(d, "AlarmManager: alarm clock set for \(core.format(ring))")
    }

    /// The alarm clock rings: the next day's is set (Doze then sees that one), and the
    /// device is awake, so a non-waking light Doze alarm whose window has opened fires.
    mutating func alarmClockRings(_ d: UInt32) {
        core.note(d, "AlarmManager: the alarm clock rings")
        setNextAlarmClockRing(d)
        applyDoze(d, .deviceAwake)
    }
}
