import SimKernel
import AppLogic
import Platform
import Scenario

/// Expands a scenario's cohorts into devices with dense ids in file order.
///
/// Every draw of a device comes from streams keyed by (seed, device id, purpose), and
/// its set-up draws are made in a fixed order from its own `setup` stream, so adding
/// a cohort (or a device) never changes another device's draws. A shard
/// (``ShardPlan``) builds only its devices, densely, each with its global id's draws.
enum FleetBuilder {
    struct Fleet {
        var devices: [Device] = []
        var cohorts: [CohortModels] = []
        var timeZones: [String] = []
        /// True time of each user's last completed test.
        var lastCompleted: [SimTime] = []
        /// The iOS devices' launch-policy states, in fleet order (``Device/launchPolicySlot``).
        var launchPolicies: [LaunchPolicyState] = []
    }

    static func build(_ scenario: Scenario, shard: ShardPlan = .whole) -> Fleet {
        var fleet = Fleet()
        let total = scenario.fleet.reduce(0) { $0 + $1.count }
        let held = (total - shard.index + shard.count - 1) / shard.count
        fleet.devices = [Device](hugePagesCapacity: held)
        fleet.lastCompleted = [SimTime](hugePagesCapacity: held)
        var global = 0
        // Exactly the iOS devices' room, not a doubled capacity reached by copying.
        var iOSHeld = 0
        for cohort in scenario.fleet {
            if cohort.platform != .android { iOSHeld += (global ..< global + cohort.count).count { shard.holds($0) } }
            global += cohort.count
        }
        global = 0
        let rhythm = DailyRhythm(seed: scenario.seed)
        fleet.launchPolicies = [LaunchPolicyState](hugePagesCapacity: iOSHeld)
        var androidHeld = 0
        for cohort in scenario.fleet {
            for option in cohort.timeZones.options where !fleet.timeZones.contains(option.value) {
                fleet.timeZones.append(option.value)
            }
        }
        for fault in scenario.faults {
            if case .timeZoneChange(let to) = fault.kind, !fleet.timeZones.contains(to) { fleet.timeZones.append(to) }
        }
        for (c, cohort) in scenario.fleet.enumerated() {
            let firstDevice = fleet.devices.count
            let zoneIndex = cohort.timeZones.options.map { UInt16(fleet.timeZones.firstIndex(of: $0.value)!) }
            let permissions = cohort.settings.notificationPermission
            for _ in 0..<cohort.count {
                defer { global += 1 }
                guard shard.holds(global) else { continue }
                let id = UInt64(global)
                var setup = RandomStream(seed: scenario.seed, entity: id, purpose: "setup")
                let zone = zoneIndex[setup.weightedChoice(cohort.timeZones.options.lazy.map { $0.weight })]
                let bar = setup.chance(cohort.settings.backgroundAppRefresh)
                let lpm = setup.chance(cohort.settings.lowPowerMode)
                let permission = permissions.pick(&setup)
                let signedIn = setup.chance(cohort.signedIn)
                // Clamped to a century: a distribution's tail must not overflow the clock.
                let daysAgo = min(max(0, cohort.lastTestDaysAgo.sample(&setup)), 36_500)
                let homeWiFi = setup.chance(cohort.network.homeWiFi)
                fleet.lastCompleted.append(SimTime(microseconds: -Int64((daysAgo * 86_400_000_000).rounded())))
                let platformSlot: UInt32
                if cohort.platform == .android {
                    platformSlot = Device.androidFlag | UInt32(androidHeld)
                    androidHeld += 1
                } else {
                    platformSlot = UInt32(fleet.launchPolicies.count)
                    fleet.launchPolicies.append(LaunchPolicyState(opensPerDay: cohort.usage.appOpensPerDay, curve: .phoneUse, now: .zero))
                }
                fleet.devices.append(Device(
                    clock: DeviceClock(timeZone: zone),
                    lowPowerModeSetting: lpm,
                    signedIn: signedIn,
                    cohort: UInt16(c),
                    homeWiFi: homeWiFi,
                    platformSlot: platformSlot,
                    homeTimeZone: zone,
                    notificationCenter: NotificationCenterModel(authorization: permission.authorization),
                    backgroundAppRefresh: bar,
                    usualWakeUp: UInt16(rhythm.usualWakeUp(user: global))))
            }
            fleet.cohorts.append(CohortModels(cohort, firstDevice: firstDevice, count: fleet.devices.count - firstDevice))
        }
        return fleet
    }
}

extension NotificationPermission {
    var authorization: NotificationAuthorization {
        switch self {
        case .notDetermined: return .notDetermined
        case .denied: return .denied
        case .authorized: return .authorized
        case .provisional: return .provisional
        }
    }
}
