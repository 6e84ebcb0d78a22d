import SimKernel
import AppLogic
import Platform

/// One simulated phone and its user: a few hundred bytes of plain values, kept in
/// one contiguous array indexed by the dense device id.
struct Device {
    // Each part is followed by the small fields that fit its tail padding (a million
    // devices: every 8 bytes here is 8 MB; `DeviceLayoutTests` keeps the total). The
    // battery's capacity is the cohort's (``CohortModels/capacityMah``) and the
    // notification permission the notification centre's.
    //
    // Hot fields first (docs/performance.md#state-grouped-by-event-kind): the first
    // ``hotBytes`` hold what most event kinds read (the process, its clock and task, the
    // cohort, the battery and connectivity, the timers), so that the next event's
    // prefetch (Core/Prefetch) asks for 3 lines, not all 6; energy, the launch
    // counts and the random streams follow, for the kinds that read them.

    /// The chain of its delivered events' hashes (Core/EventHashes), written at every
    /// event: here, in a line the event reads anyway, rather than in an array of its own
    /// whose line each event fetched and dirtied (docs/performance.md#state-grouped-by-event-kind).
    var eventHash: UInt64 = 0

    // The app's process and its clock
    var foregroundUntil = SimTime.never
    var clock: DeviceClock
    var process: AppProcessState = .terminated
    var lowPowerModeSetting: Bool
    var signedIn: Bool

    // The OS's view of the app's background task
    var task = BackgroundTaskSlot()
    /// Bumped at every termination; events of an earlier incarnation are stale.
    var incarnation: UInt32 = 0
    var cohort: UInt16
    /// The user has Wi-Fi at home (`network.homeWiFi`; Core/Battery).
    var homeWiFi: Bool
    /// Android: Battery Saver turned on by its automatic schedule (AndroidHost+BatterySaver).
    var autoBatterySaver = false
    /// Where its platform's own state is kept: on iOS the launch policy's view of this
    /// app's use (its slot in ``WorldCore/launchPolicies``, WorldCore+LaunchPolicy); on Android
    /// ``androidFlag`` and its index in `World.androids` (OS/Android). In the `Device`, whose
    /// line the event reads anyway, rather than an index array of its own: one line fewer
    /// for the events that ask which platform a device runs (docs/performance.md#prefetch).
    var platformSlot: UInt32
    /// The top bit of an Android device's ``platformSlot``.
    static var androidFlag: UInt32 { 1 << 31 }
    var isAndroid: Bool { platformSlot & Device.androidFlag != 0 }
    /// Its index in `World.androids`, or -1 on iOS.
    var androidIndex: Int { isAndroid ? Int(platformSlot & ~Device.androidFlag) : -1 }
    /// Its launch policy's slot, or -1 on Android.
    var launchPolicySlot: Int { isAndroid ? -1 : Int(platformSlot) }

    // The battery, the time zone, and the faults and connectivity in force
    var battery = BatteryState(percent: 100, since: .zero, charging: false)
    /// The time zone drawn at set-up (a `timeZoneChange` with a duration returns here).
    var homeTimeZone: UInt16
    // Counters, so overlapping faults each undo only themselves (the decoder caps
    // a scenario at 1,000 faults).
    var lowPowerFaults: UInt16 = 0
    var offlineSpells: UInt16 = 0
    var lowPowerMode: Bool { lowPowerModeSetting || lowPowerFaults > 0 || autoBatterySaver }
    var online: Bool { offlineSpells == 0 && outageFaults == 0 }

    /// The features' timers (``DeviceTimer``).
    var timers = DeviceTimers()
    // The notification centre (every feature posts; the app sets its icon's number)
    var notificationCenter: NotificationCenterModel
    var permission: NotificationAuthorization { notificationCenter.authorization }

    // The app's durable storage
    var keyValue = KeyValueDurability()
    var outageFaults: UInt16 = 0
    /// Where its task's and wake's entries went (``TimerEntries``): here, not in an
    /// array of their own, so that a retraction reads no other line of the device.
    var timerEntries = TimerEntries()

    // The end of the hot part (``hotBytes``).
    /// Where its pending flush went in the queue (``WorldCore/cancelFlush(_:)``).
    var pendingFlush = EventQueue<WorldEvent>.Placement.near
    /// (Where the radio's alignment would leave 4 bytes.)
    var launches: UInt32 = 0

    // Energy and counts
    var radio = RadioState()
    /// The app's energy per operation (a task, a sync, ...) and outside them.
    var ledger = EnergyLedger()
    var backgroundAppRefresh: Bool
    /// The user's usual wake-up, seconds after local midnight (``DailyRhythm/user(_:)``,
    /// drawn at set-up): kept, as its draw is most of the cost of a day's wake-up and
    /// bedtime (``WorldCore/rhythmUser(_:)``).
    var usualWakeUp: UInt16

    // Random streams, one per purpose, as positions (``DeviceStreams``; drawn through
    // ``WorldCore/withStream(_:of:_:)``), here, in the ledger's tail. A use rebuilds
    // its stream: draws that go together (a request's round trip and loss) share one
    // rebuild (docs/performance.md#streams-as-positions).
    var streams = DeviceStreams()
}
