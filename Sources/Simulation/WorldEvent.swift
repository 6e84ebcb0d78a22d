/// Everything that can happen in a world, as small values dispatched by one `switch`
/// in ``World/step(_:)``. Payloads are dense ids (device, job, fault) and the
/// generation or serial that makes a superseded event a no-op (cancellation without
/// searching the heap).
///
/// Size: at most two 32-bit ids and a one-byte timer, the timer last so that the tag
/// fits in its spare bits: 10 bytes, so a queue entry is 24 (`EventQueue.Entry`).
enum WorldEvent {
    // User
    case userOpensApp(device: UInt32)
    case notificationTapped(device: UInt32)
    case foregroundSessionEnds(device: UInt32, incarnation: UInt32)
    // The app's one background task (iOS `BGAppRefreshTask`, OS/iOS): the launch policy's look, the expiration, the watchdog, the suspension after it
    case taskLaunch(device: UInt32, generation: UInt32)
    case taskExpires(device: UInt32, serial: UInt32)
    case taskWatchdog(device: UInt32, serial: UInt32)
    case suspendAfterTask(device: UInt32, serial: UInt32)
    case keyValueFlush(device: UInt32, generation: UInt32)
    // Network and backend
    case requestReachesServer(job: UInt32, generation: UInt32)
    case serviceCompletes(job: UInt32, generation: UInt32)
    case responseReachesDevice(job: UInt32, generation: UInt32)
    case requestTimesOut(job: UInt32, generation: UInt32)
    case offlineSpellStarts(device: UInt32)
    case offlineSpellEnds(device: UInt32)
    // The battery (Core/Battery)
    /// The user plugs the phone in or unplugs it (``BatteryModel``).
    case batterySwitch(device: UInt32)
    // Faults
    case faultStarts(index: UInt16)
    case faultEnds(index: UInt16)
    case jetsam(device: UInt32, fault: UInt16)
    // Every per-device timer the features arm (Core/DeviceTimers)
    case deviceTimer(device: UInt32, generation: UInt32, timer: DeviceTimer)
    // Android (World+Android)
    case android(AndroidEvent)
    // A feature's own (Features/Features.swift)
    case feature(FeatureEvent)
}
