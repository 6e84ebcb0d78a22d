import SimKernel
import Platform
import Backend

/// How FCM reaches one Android phone for a message it accepts.
struct FCMRoute {
    var reach: FCMGatewayModel.Reach
    /// Delivered as high priority (the gateway hands it over even while idle).
    var highPriority: Bool
    /// It will temp-allow-list the app on arrival (`DozeInput.highPriorityMessage`).
    var wakesApp: Bool
    /// Held by Doze or a force-stop (counted as a deferral), not by being offline.
    var held: Bool

    /// APNs, or an FCM device as reachable as the gateway alone says.
    static let direct = FCMRoute(reach: .active, highPriority: false, wakesApp: false, held: false)
}

/// FCM delivery on the phone under Doze and App Standby (``FCMDeliveryModel``,
/// `docs/platform-facts.md` H, B, A), decided when FCM accepts the message:
/// - offline: FCM stores it (its own rules) until the device is back;
/// - high priority within the bucket's daily limit (FREQUENT 10, RARE 5, RESTRICTED 5):
///   delivered now, Doze or not, and on arrival the app is temp-allow-listed for 5 min;
/// - normal priority, or high over the limit, while Doze restricts background work: held
///   until Doze stops restricting (a maintenance window, the screen on, charging), then
///   handed over (``World/flushFCM(_:)``); its wait is the report's `scheduling.fcm.dozeDelay`;
/// - stored while offline: handed over once the device is online and neither Doze nor a
///   force-stop holds it (the OS seam's `fcmReachable`);
/// - the app force-stopped by its manufacturer's policy: held until the user opens it
///   (**assumption**: Android drops messages for a stopped app; FleetSim keeps them at
///   FCM, under their TTL, so every message is still accounted for).
extension AndroidHost {
    /// The route of a message of `highPriority` to device `d` (any platform: an iOS
    /// device online is reached as the gateway says).
    mutating func fcmRoute(_ d: Int, highPriority: Bool, core: inout WorldCore) -> FCMRoute {
        let a = core.devices[d].androidIndex
        guard core.devices[d].online else {
            if a >= 0 { devices[a].fcmWaiting = true }
            return FCMRoute(reach: .offline, highPriority: highPriority, wakesApp: false, held: false)
        }
        guard a >= 0 else { return FCMRoute(reach: .active, highPriority: highPriority, wakesApp: false, held: false) }
        let d = UInt32(d)
        settleScreen(d, a, before: core.now, core: &core)
        if devices[a].forceStopped {
            devices[a].fcmWaiting = true
            return FCMRoute(reach: .idle, highPriority: false, wakesApp: false, held: true)
        }
        let m = core.androidModels(d)
        let bucket = m.buckets.bucket(devices[a].bucket, at: core.now)
        switch m.fcm.deliver(highPriority ? .high : .normal, bucket: bucket, doze: dozeNow(d, core: &core),
                             log: &devices[a].fcmHighPriority, now: core.now) {
        case .now(let asHigh):
            return FCMRoute(reach: .active, highPriority: asHigh, wakesApp: asHigh, held: false)
        case .whenDozeAllows:
            devices[a].fcmWaiting = true
            watchDoze(d, core: &core)
            core.note(d, "FCM: message held by Doze until a maintenance window")
            return FCMRoute(reach: .idle, highPriority: false, wakesApp: false, held: true)
        }
    }

    /// Whether FCM holds messages it may hand over now (Doze stopped restricting or the
    /// app was opened): a flag, so the app's side is not looked at on every Doze
    /// transition. Clears it when so.
    mutating func fcmMayHandOver(_ d: UInt32, core: inout WorldCore) -> Bool {
        let a = core.androidIndex(d)
        guard devices[a].fcmWaiting, core.devices[Int(d)].online, !devices[a].forceStopped else { return false }
        devices[a].fcmWaiting = false
        return true
    }

    /// Whether stored FCM messages may reach device `d` now: an Android app neither
    /// force-stopped nor under Doze's restrictions (iOS devices: always).
    @inline(__always) mutating func fcmReachable(_ d: Int, core: inout WorldCore) -> Bool {
        let a = core.devices[d].androidIndex
        guard a >= 0 else { return true }
        return !devices[a].forceStopped && !dozeNow(UInt32(d), core: &core).restrictsBackgroundWork
    }
}
