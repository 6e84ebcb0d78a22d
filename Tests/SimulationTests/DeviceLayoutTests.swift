import Testing
@testable import Simulation
import Platform

/// Per-device state is most of a large fleet's memory (docs/performance.md#memory-per-device,
/// docs/performance.md#streams-as-positions): a field added in the wrong place, or
/// an optional time not packed, adds 8 bytes a device (8 MB a million). Upper bounds: shrinking is welcome, then lower them.
@Suite struct DeviceLayoutTests {
    @Test func deviceStateStaysWithinItsBudget() {
        // 280 bytes and the event hash's 8, which had an array of its own; 280
        // since the energy books lost their unused fourth kind, the radios
        // keeping 16 bytes each with the transfers in flight (``RadioBurst``).
        #expect(MemoryLayout<Device>.stride <= 280, "Device grew: see docs/performance.md#memory-per-device")
        // One radio's state machine with its transfers in flight (``RadioBurst``), two a device.
        #expect(MemoryLayout<RadioBurst>.stride <= 16, "RadioBurst grew: two in every Device")
        // 440 until each work's request became a 1-byte id in a table of the distinct ones
        // (the step sync's had taken 12 bytes; OS/BackgroundWork.swift); 440 again with the
        // owed screen session's start, which takes its queue entry's place; 488 with a third
        // declared work (the diagnostics upload's room: its slot, request id, job serial and due time).
        #expect(MemoryLayout<AndroidDevice>.stride <= 488, "AndroidDevice grew: see docs/performance.md#memory-per-device")
        #expect(MemoryLayout<AndroidWorkSlot>.stride <= 32, "AndroidWorkSlot grew: see docs/performance.md#memory-per-device")
        // One slot, one request id, one job serial, one stop placement and one WorkManager
        // timer per declared work (``PerWork``, OS/BackgroundWork.swift).
        func room<let n: Int, T, R>(_: KeyPath<R, InlineArray<n, T>>) -> Int { n }
        let works = WorkID.allCases.count
        #expect([room(\AndroidDevice.works), room(\AndroidDevice.requestIDs), room(\AndroidDevice.jobSerials)] == [works, works, works])
        #expect(room(\World.android.workEntries[0]) == works)
        // Each timer its own code in the event hashes, whatever the number of works.
        let timers: [AndroidTimer] = [.doze, .bucket, .oemKill, .batterySaverLevel, .alarmClock] + WorkID.allCases.map { .work($0) }
        #expect(Set(timers.map(\.hashCode)).count == timers.count)
        #expect(MemoryLayout<AndroidTimer>.size == 1)
        // Doze's delays as steps of their progressions (docs/performance.md#memory-per-device).
        #expect(MemoryLayout<DozeState>.stride <= 96, "DozeState grew: see docs/performance.md#memory-per-device")
        // iOS devices only, beside the fleet's `Device`s (docs/performance.md#memory-per-device).
        #expect(MemoryLayout<LaunchPolicyState>.stride <= 48, "LaunchPolicyState grew: see docs/performance.md#memory-per-device")
        // The pending task requests, one per declared work (OS/iOS/WorldCore+BGTaskScheduler.swift):
        // 12 for two works, 20 for three.
        #expect(MemoryLayout<BGTaskRequests>.stride <= 20, "BGTaskRequests grew: see docs/performance.md#memory-per-device")
        // The refresh logic's state and what reached the disk (docs/performance.md#memory-per-device).
        // A request in flight: about one for every four devices at a burst (docs/performance.md#memory-per-device).
        // 112 until the request's cause (one byte for backend.load.requestsByCause) took 8:
        // about 2 bytes a device at a burst's peak.
        #expect(MemoryLayout<Job>.stride <= 120, "Job grew: see docs/performance.md#memory-per-device")
        // 116 until the test windows the latencies count (seen, notified) moved from the
        // oracle's entry (24 -> 16 bytes) to the host's ``RefreshSlot``: the oracle only watches.
        #expect(RefreshHost<ReferenceLogics>.bytesPerDevice <= 124, "the refresh host's entries grew: see docs/performance.md#memory-per-device")
        // 16 until seed 000's timing judges added the last refresh's time and the
        // running task's flags, packed in one byte beside the window's count.
        #expect(MemoryLayout<RefreshChecker.TaskFlags>.size == 1)
        #expect(MemoryLayout<RefreshChecker.Entry>.stride <= 24, "the refresh oracle's entry grew")
        // The step sync's truth in one entry (seed 003's judges): 49 bytes in six arrays
        // before (docs/performance.md#state-grouped-by-event-kind), the retry chain's flags and the restart flag
        // now in the 16 bytes the retry chain's truth had to itself.
        #expect(MemoryLayout<StepsChecker.Entry>.stride <= 48, "the step-sync oracle's entry grew")
        // The continuation's slot with the user's stream position in what was its padding
        // (the position had an array of its own, 4 bytes a device, before).
        #expect(MemoryLayout<ContinuationSlot>.stride <= 24, "ContinuationSlot grew: see docs/performance.md#memory-per-device")
        // The analysis's send, mode and whether the user moved on (seed 004's judges), packed in 8 bytes.
        #expect(MemoryLayout<ContinuationChecker.Entry>.stride == 8, "the continuation oracle's entry grew")
    }

    /// The next event's prefetch asks for parts of a device, each bounded by fields
    /// (Core/Prefetch, docs/performance.md#state-grouped-by-event-kind): what an event kind
    /// reads must lie in the part its prefetch asks for (a field moved out of it would be
    /// read from memory without having been asked for: slower, never wrong), and each part
    /// must stay small enough to be worth asking for alone.
    @Test func thePrefetchedPartsHoldTheirFields() {
        func range<T, V>(_ path: KeyPath<T, V>) -> Range<Int> {
            let start = MemoryLayout<T>.offset(of: path)!
            return start ..< start + MemoryLayout<V>.size
        }
        func within(_ inner: Range<Int>, _ outer: Range<Int>) -> Bool { outer.contains(inner.lowerBound) && inner.upperBound <= outer.upperBound }
        // What most kinds read is in the hot part, which spans 3 of the device's 64-byte
        // lines (it starts where the array puts the device: at most 4), not all 5.
        for field in [range(\Device.eventHash), range(\Device.foregroundUntil), range(\Device.clock), range(\Device.process), range(\Device.task),
                      range(\Device.incarnation), range(\Device.cohort), range(\Device.battery), range(\Device.homeTimeZone),
                      range(\Device.offlineSpells), range(\Device.outageFaults), range(\Device.lowPowerFaults),
                      range(\Device.lowPowerModeSetting), range(\Device.autoBatterySaver), range(\Device.signedIn), range(\Device.homeWiFi),
                      range(\Device.timers), range(\Device.keyValue), range(\Device.timerEntries)] {
            #expect(within(field, Device.hotBytes), "\(field)")
        }
        #expect(Device.hotBytes.count <= 3 * 64, "the hot part outgrew 3 lines: \(Device.hotBytes)")
        #expect(Device.hotBytes.count < Device.wholeBytes.count - 64, "the hot part saves no line: \(Device.hotBytes)")
        // The server's answer reads the clock and the home zone: two lines at most, in the hot part.
        #expect(Device.answerBytes.count <= 2 * 64 && within(Device.answerBytes, Device.hotBytes), "\(Device.answerBytes)")
        // A request's arrival reads one stream position, in one line.
        #expect(Device.backendStreamBytes.count <= 8, "\(Device.backendStreamBytes)")
        // What a screen session and every Doze input read comes before the jobs' part, so
        // that those events, the commonest on Android, read (and are prefetched) its first
        // lines, not all of it (docs/performance.md#state-grouped-by-event-kind).
        for field in [range(\AndroidDevice.bucket), range(\AndroidDevice.packedBucketCheckAt), range(\AndroidDevice.packedBucketEntryAt),
                      range(\AndroidDevice.packedNextSessionAt), range(\AndroidDevice.screenStream), range(\AndroidDevice.motionStream), range(\AndroidDevice.screen),
                      range(\AndroidDevice.lastBucket), range(\AndroidDevice.owed), range(\AndroidDevice.fcmWaiting),
                      range(\AndroidDevice.timers), range(\AndroidDevice.forceStopped), range(\AndroidDevice.jobsRunning),
                      range(\AndroidDevice.requestIDs), range(\AndroidDevice.doze), range(\AndroidDevice.alarmHeld),
                      range(\AndroidDevice.packedDozeTimerAt), range(\AndroidDevice.works)] {
            #expect(within(field, AndroidDevice.screenAndDozeBytes), "\(field)")
        }
        #expect(AndroidDevice.screenAndDozeBytes.count < AndroidDevice.wholeBytes.count - 64,
                "the jobs' part is less than a line: \(AndroidDevice.screenAndDozeBytes)")
        // The end of a wake or a task reads `jobsRunning` alone, in the screen and Doze part.
        #expect(AndroidDevice.stepJobBytes.count == 1 && within(AndroidDevice.stepJobBytes, AndroidDevice.screenAndDozeBytes))
    }
}
