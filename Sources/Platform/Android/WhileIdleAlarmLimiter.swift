import SimKernel

/// AlarmManager's limits on `setAndAllowWhileIdle` / `setExactAndAllowWhileIdle` alarms
/// while the device dozes (`docs/platform-facts.md` C), keyed by OS version.
public enum WhileIdleAlarmPolicy: Sendable, Equatable {
    /// Before Android 12 [AMS11]: 9 min apart while idle (`ALLOW_WHILE_IDLE_LONG_TIME`),
    /// 5 s apart otherwise.
    case beforeAndroid12
    /// Android 12 and later [AMS15]: 72 per hour (`ALLOW_WHILE_IDLE_QUOTA`).
    case android12
    /// Android 12 and later, app targeting below 12: 7 per hour, "a slot once every … 9 minutes".
    case android12CompatTarget
}

/// When a while-idle alarm may fire (`docs/platform-facts.md` C).
public struct WhileIdleAlarmLimiter: Sendable {
    public var policy: WhileIdleAlarmPolicy
    public var longGap = SimDuration.minutes(9)
    public var shortGap = SimDuration.seconds(5)
    public var quotaPerHour = 72
    public var compatQuotaPerHour = 7

    public init(policy: WhileIdleAlarmPolicy) { self.policy = policy }

    public func makeLog() -> DeliveryLog { DeliveryLog(capacity: max(quotaPerHour, compatQuotaPerHour)) }

    /// The earliest moment at or after `due` at which the alarm may fire, given the
    /// app's earlier while-idle deliveries. `deviceIdle`: Doze deep idle.
    public func fireTime(due: SimTime, deviceIdle: Bool, log: DeliveryLog) -> SimTime {
        switch policy {
        case .beforeAndroid12:
            guard let last = log.last else { return due }
            return max(due, last + (deviceIdle ? longGap : shortGap))
        case .android12:
            return max(due, log.nextSlot(limit: quotaPerHour, window: .hours(1), now: due))
        case .android12CompatTarget:
            return max(due, log.nextSlot(limit: compatQuotaPerHour, window: .hours(1), now: due))
        }
    }
}
