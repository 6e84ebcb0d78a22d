/// Each device's index into the Android state (`World.androids`) and into the iOS launch
/// policies (``WorldCore/launchPolicies``), both kept in ``Device/platformSlot``, as runs
/// of devices: a cohort's devices have consecutive ids, and an Android cohort's get
/// consecutive Android indices as an iOS cohort's get consecutive launch-policy slots, so
/// a fleet is a few runs, each with its first device's indices.
///
/// For the prefetch only (Core/Prefetch): reading the slot there, from the `Device`
/// being asked for, waited on memory before the Android state's or the launch policy's
/// lines could be asked for, a second wait after the `Device`'s own at a million devices;
/// a search of a few runs held in cache waits on nothing (docs/performance.md#prefetch).
/// The events themselves read the slot: the `Device` is in the cache by then.
struct DeviceIndexRuns {
    /// The first device of each run, ascending; the first is 0.
    private var starts: [Int] = []
    /// Each run's first device's Android index, or -1 for a run without Android state.
    private var androidBases: [Int] = []
    /// Each run's first device's launch-policy slot, or -1 for a run without one.
    private var policyBases: [Int] = []

    /// The runs of `devices`' indices.
    init(_ devices: [Device]) {
        for d in devices.indices {
            let a = devices[d].androidIndex, p = devices[d].launchPolicySlot
            if let last = starts.indices.last,
               a == Self.advance(androidBases[last], by: d - starts[last]),
               p == Self.advance(policyBases[last], by: d - starts[last]) { continue }
            starts.append(d)
            androidBases.append(a)
            policyBases.append(p)
        }
    }

    /// The index `steps` devices after one with index `base` in the same run (-1 stays -1).
    private static func advance(_ base: Int, by steps: Int) -> Int { base < 0 ? -1 : base + steps }

    /// Device `d`'s Android index and launch-policy slot (a device of the world), each -1
    /// when it has none: one search of the runs for both.
    @inline(__always) func indices(of d: Int) -> (android: Int, launchPolicy: Int) {
        let r = starts.withUnsafeBufferPointer { starts in
            // The last run starting at or before `d`.
            var low = 0, high = starts.count
            while high &- low > 1 {
                let middle = (low &+ high) >> 1
                if starts[middle] <= d { low = middle } else { high = middle }
            }
            return low
        }
        let offset = d &- starts.withUnsafeBufferPointer { $0[r] }
        let a = androidBases.withUnsafeBufferPointer { $0[r] }, p = policyBases.withUnsafeBufferPointer { $0[r] }
        return (a < 0 ? -1 : a &+ offset, p < 0 ? -1 : p &+ offset)
    }

    /// How many runs: one per cohort at most.
    var count: Int { starts.count }
}
