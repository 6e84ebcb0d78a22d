import SimKernel
import Platform
import Backend

/// How FCM reaches one Android phone for a message it accepts.
struct FCMRoute {
    var reach: FCMGatewayModel.Reach
    /// Delivered as high priority (the gateway hands it over even while idle).
    var highPriority: Bool
    /// It will temp-allow-list the app on arrival (`DozeInput.highPriorityPush`).
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
///   delivered; its wait is the report's `scheduling.fcm.dozeDelay`;
/// - stored while offline: handed over once the device is online and neither Doze nor a
///   force-stop holds it (World+Push's `pushDeviceReachable`);
/// - the app force-stopped by its manufacturer's policy: held until the user opens it
///   (**assumption**: Android drops messages for a stopped app; FleetSim keeps them at
///   FCM, under their TTL, so the ledger still accounts each one).
extension World {
    mutating func fcmRoute(_ d: Int, highPriority: Bool) -> FCMRoute {
        let a = core.devices[d].androidIndex
        guard core.devices[d].online else {
            if a >= 0 { androids[a].fcmWaiting = true }
            return FCMRoute(reach: .offline, highPriority: highPriority, wakesApp: false, held: false)
        }
        guard a >= 0 else { return FCMRoute(reach: .active, highPriority: highPriority, wakesApp: false, held: false) }
        settleScreen(UInt32(d), a, before: now)
        if androids[a].forceStopped {
            androids[a].fcmWaiting = true
            return FCMRoute(reach: .idle, highPriority: false, wakesApp: false, held: true)
        }
        let bucket = models(UInt32(d)).buckets.bucket(androids[a].bucket, at: now)
        switch models(UInt32(d)).fcm.deliver(highPriority ? .high : .normal, bucket: bucket, doze: dozeNow(UInt32(d)),
                                             log: &androids[a].fcmHighPriority, now: now) {
        case .now(let asHigh):
            return FCMRoute(reach: .active, highPriority: asHigh, wakesApp: asHigh, held: false)
        case .whenDozeAllows:
            androids[a].fcmWaiting = true
            watchDoze(UInt32(d))
            core.note(UInt32(d), "FCM: message held by Doze until a maintenance window")
            return FCMRoute(reach: .idle, highPriority: false, wakesApp: false, held: true)
        }
    }

    /// Doze stopped restricting or the app was opened: FCM hands over what it holds, if
    /// anything (a flag, so the push world is not looked at on every Doze transition).
    mutating func flushFCM(_ d: UInt32) {
        let i = Int(d), a = core.devices[i].androidIndex
        guard androids[a].fcmWaiting, core.devices[i].online, !androids[a].forceStopped else { return }
        androids[a].fcmWaiting = false
        pushDeviceReachable(d)
    }

    /// Whether stored FCM messages may reach the device now: an Android app neither
    /// force-stopped nor under Doze's restrictions (iOS devices: always).
    @inline(__always) mutating func fcmReachable(_ d: Int) -> Bool {
        let a = core.devices[d].androidIndex
        guard a >= 0 else { return true }
        return !androids[a].forceStopped && !dozeNow(UInt32(d)).restrictsBackgroundWork
    }

    /// An FCM message reached the phone: a high-priority one temp-allow-lists the app;
    /// a held one's wait is measured.
    mutating func fcmMessageArrived(_ d: UInt32, wakesApp: Bool, heldSince: SimTime) {
        if wakesApp {
            core.metrics.platform.fcmHighPriorityNow += 1
            core.note(d, "FCM: high-priority message; the app is temp-allow-listed")
            applyDoze(d, .highPriorityPush)
        }
        if heldSince != World.never { core.metrics.platform.fcmDeferral.record((now - heldSince).microseconds) }
    }
}
