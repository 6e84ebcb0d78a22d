import SimKernel
/// The server's step table, keyed by (user, date, source), that records duplicates
/// instead of hiding them (seed `003`, "Conflict Resolution"). Each user has one phone
/// and so one source; the key is (user, date) within it. Seed `003` names no retention,
/// so every date is kept unless the scenario declares one (``retentionDays``): then a
/// date more than that many days before the server's (UTC) date is gone, and a write
/// of such a date is dropped (counted in ``droppedWrites``).
///
/// Memory (docs/model.md, "Step sync"): the dates a fleet writes are the run's own, in
/// every zone, and those a moved device clock names. The run's dates (`window`: the UTC
/// days of the run, two more each side) are stored date-major, one column of every
/// user's row per date, allocated at the first write to that date (5 bytes a user).
/// Other dates (a clock months ahead or years behind) go to one open-addressed table
/// of (user, date) rows, 16 bytes each, at most three quarters full: it holds only the
/// rows written, whatever their dates.
public struct StepStore: Sendable {
    /// A row of the table outside the run's dates: the key `user << 32 | date`
    /// (``emptyKey`` for a free slot), the latest steps, and the rows inserted for it.
    struct FarRow {
        var key: UInt64 = StepStore.emptyKey
        var steps: Int32 = 0
        var count: UInt8 = 0
    }
    static let emptyKey = UInt64.max

    let users: Int
    /// The first date (days since 1970-01-01) with a column, and how many follow it.
    let firstDay: Int32
    let windowDays: Int32
    /// Per date of the window: the latest steps per user, and the rows per (user, date)
    /// (0: no row; more than 1 when inserted twice, a duplicate). Empty until written.
    var steps: [[Int32]]
    var counts: [[UInt8]]
    /// The dates outside the window (a power-of-two capacity, linear probing).
    var far: [FarRow] = []
    public private(set) var farRows = 0
    /// Days kept before the server's date, or nil to keep every date.
    public let retentionDays: Int32?
    /// The first date still kept (``retain(today:)``); `Int32.min` while nothing expired.
    public private(set) var keptFrom = Int32.min
    /// Writes of a date the retention had already removed.
    public private(set) var droppedWrites: UInt64 = 0

    /// A store for `users` users whose run's dates are `window` (days since 1970-01-01).
    public init(users: Int, window: ClosedRange<Int32>, retentionDays: Int32? = nil) {
        self.users = users
        firstDay = window.lowerBound
        windowDays = window.upperBound - window.lowerBound + 1
        self.retentionDays = retentionDays
        steps = Array(repeating: [], count: users == 0 ? 0 : Int(windowDays))
        counts = Array(repeating: [], count: users == 0 ? 0 : Int(windowDays))
    }

    /// The server's date is `today` (UTC days since 1970): dates more than the retention
    /// before it are gone, and their columns freed.
    public mutating func retain(today: Int32) {
        guard let days = retentionDays, today - days > keptFrom else { return }
        keptFrom = today - days
        var c = 0
        while c < steps.count, firstDay + Int32(c) < keptFrom {
            if !steps[c].isEmpty { steps[c] = []; counts[c] = [] }
            c += 1
        }
    }

    /// Upsert (`ON CONFLICT DO UPDATE`): returns true when the row was created.
    public mutating func upsert(user: Int, day: Int32, steps value: Int32) -> Bool {
        guard day >= keptFrom else { droppedWrites += 1; return false }
        if let c = column(day) {
            claim(c)
            let created = counts[c][user] == 0
            if created { counts[c][user] = 1 }
            steps[c][user] = value
            return created
        }
        let s = claimFarSlot(user: user, day: day)
        let created = far[s].count == 0
        if created { far[s].count = 1 }
        far[s].steps = value
        return created
    }

    /// Plain insert: a second row for the same (user, date) is a duplicate. Returns the
    /// number of rows (user, date) now has (0: the retention dropped the write).
    public mutating func insert(user: Int, day: Int32, steps value: Int32) -> Int {
        guard day >= keptFrom else { droppedWrites += 1; return 0 }
        if let c = column(day) {
            claim(c)
            if counts[c][user] < .max { counts[c][user] += 1 }
            steps[c][user] = value
            return Int(counts[c][user])
        }
        let s = claimFarSlot(user: user, day: day)
        if far[s].count < .max { far[s].count += 1 }
        far[s].steps = value
        return Int(far[s].count)
    }

    /// The latest value written for (user, date), or nil if the table has no row for it.
    public func steps(user: Int, day: Int32) -> Int32? {
        guard day >= keptFrom else { return nil }
        if let c = column(day) {
            guard !counts[c].isEmpty, counts[c][user] > 0 else { return nil }
            return steps[c][user]
        }
        guard !far.isEmpty else { return nil }
        let s = farSlot(user: user, day: day)
        return far[s].count > 0 ? far[s].steps : nil
    }

    /// Starts loading `user`'s row for `day` where its column is held (a hint: changes
    /// no value).
    public func prefetch(user: Int, day: Int32) {
        guard let c = column(day), !steps[c].isEmpty else { return }
        steps[c].prefetch(user)
        counts[c].prefetch(user)
    }

    /// How many of the window's dates hold a column (each `users` × 5 bytes).
    var columnsHeld: Int { steps.count { !$0.isEmpty } }

    // MARK: - Layout

    /// The window's column of `day`, or nil outside it.
    @inline(__always) private func column(_ day: Int32) -> Int? {
        let c = day &- firstDay
        return c >= 0 && c < windowDays && !steps.isEmpty ? Int(c) : nil
    }

    /// Allocates column `c` at its first write.
    @inline(__always) private mutating func claim(_ c: Int) {
        guard steps[c].isEmpty else { return }
        steps[c] = Array(hugePagesRepeating: 0, count: users)
        counts[c] = Array(hugePagesRepeating: 0, count: users)
    }

    @inline(__always) private static func key(user: Int, day: Int32) -> UInt64 {
        UInt64(user) << 32 | UInt64(UInt32(bitPattern: day))
    }

    /// The slot of (user, day) in ``far``, claimed for it if it had none (the table
    /// grown first if need be).
    private mutating func claimFarSlot(user: Int, day: Int32) -> Int {
        if far.isEmpty || (farRows + 1) * 4 > far.count * 3 { growFar() }
        let s = farSlot(user: user, day: day)
        if far[s].key == StepStore.emptyKey {
            far[s].key = StepStore.key(user: user, day: day)
            farRows += 1
        }
        return s
    }

    /// The slot of (user, day) in ``far``: its row, or the free slot where it would go.
    private func farSlot(user: Int, day: Int32) -> Int {
        let key = StepStore.key(user: user, day: day), mask = far.count - 1
        // Fibonacci hashing: the key times 2^64 / φ, its top bits.
        var s = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while far[s].key != key, far[s].key != StepStore.emptyKey { s = (s + 1) & mask }
        return s
    }

    /// Doubles ``far`` (1,024 slots at first), moving its rows; rows the retention
    /// removed are left behind.
    private mutating func growFar() {
        let old = far
        far = Array(repeating: FarRow(), count: max(1_024, old.count * 2))
        farRows = 0
        for row in old where row.key != StepStore.emptyKey {
            let day = Int32(bitPattern: UInt32(truncatingIfNeeded: row.key))
            guard day >= keptFrom else { continue }
            let s = farSlot(user: Int(row.key >> 32), day: day)
            far[s] = row
            farRows += 1
        }
    }
}
