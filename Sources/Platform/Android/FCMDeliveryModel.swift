import SimKernel

/// FCM message priority (`docs/platform-facts.md` H).
public enum FCMPriority: UInt8, Sendable, Equatable { case normal, high }

/// What happens to one FCM message reaching a device.
public enum FCMDelivery: Sendable, Equatable {
    /// Delivered now. A high-priority one wakes the app and temp-allow-lists it for 5 min
    /// (`DozeInput.highPriorityMessage`, docs/platform-facts.md A).
    case now(asHighPriority: Bool)
    /// Held until Doze lets background work run (a maintenance window or leaving idle);
    /// then delivered as normal priority.
    case whenDozeAllows
}

/// FCM delivery on Android under Doze and App Standby (`docs/platform-facts.md` H, B).
///
/// - Normal priority "may be delayed in Doze": held while Doze restricts background work.
/// - High priority is delivered at once, Doze or not, within the app's per-bucket daily
///   limit ([PD], Android 12 and lower): FREQUENT 10, RARE 5, RESTRICTED 5, ACTIVE and
///   WORKING_SET unlimited. Over the limit, it is treated as normal priority.
/// - **Assumption**: "per day" is a sliding 24 h. **Assumption**: light idle holds normal
///   messages as deep idle does. Not modelled: the deprioritisation of high-priority
///   messages that show no notification (H, judged on 7 days).
public struct FCMDeliveryModel: Sendable {
    /// High-priority messages per day by bucket; nil: no limit.
    public var highPriorityPerDay: [Int?] = [nil, nil, 10, 5, 5]
    public var window = SimDuration.hours(24)
    public init() {}

    /// A log big enough for the largest limit.
    public func makeLog() -> DeliveryLog { DeliveryLog(capacity: highPriorityPerDay.compactMap { $0 }.max() ?? 1) }

    /// Decides one message's delivery and records a high-priority one in `log`.
    public func deliver(_ priority: FCMPriority, bucket: StandbyBucket, doze: DozeState, log: inout DeliveryLog, now: SimTime) -> FCMDelivery {
        if priority == .high {
            let limit = highPriorityPerDay[bucket.rawValue]
            if limit.map({ log.count(in: window, now: now) < $0 }) ?? true {
                log.record(now)
                return .now(asHighPriority: true)
            }
        }
        return doze.restrictsBackgroundWork ? .whenDozeAllows : .now(asHighPriority: false)
    }
}
