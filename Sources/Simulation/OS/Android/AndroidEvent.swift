import SimKernel

/// Android events, dispatched by ``World/androidEvent(_:)``.
enum AndroidEvent {
    case screenSessionStarts(device: UInt32)
    case screenOff(device: UInt32, generation: UInt32)
    case motion(device: UInt32)
    /// One of the device's ``AndroidTimer``s.
    case timer(device: UInt32, generation: UInt32, timer: AndroidTimer)
    /// JobScheduler's stop deadline of `work`'s job `serial` (a work run as the app's
    /// background task stops at the task's deadline instead: ``World/featureWorkRuns(_:_:_:)``).
    case jobStops(device: UInt32, serial: UInt32, work: WorkID)
}

