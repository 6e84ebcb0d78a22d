import SimKernel
/// The server's step table, keyed by (user, date, source), that records duplicates
/// instead of hiding them (seed `003`, "Conflict Resolution"). Each user has one phone
/// and so one source; the key is (user, date) within it.
///
/// Memory: a ring of ``daysKept`` rows per user (8 bytes each, 256 bytes a user), indexed
/// by date. 32 days cover the 30-day backfill; a write for a date older than the ring's
/// newest minus 32 days is dropped (counted in ``droppedWrites``).
public struct StepStore: Sendable {
    public static let daysKept = 32
    struct Row {
        /// The local date (days since 1970-01-01), or -1 for an empty slot.
        var day: Int32 = -1
        var steps: Int32 = 0
    }
    var rows: [Row]
    /// Rows per (user, date): 1 normally, more when inserted twice (duplicates).
    var counts: [UInt8]
    public private(set) var droppedWrites: UInt64 = 0

    public init(users: Int) {
        rows = Array(hugePagesRepeating: Row(), count: users * StepStore.daysKept)
        counts = Array(hugePagesRepeating: 0, count: users * StepStore.daysKept)
    }

    private func slot(_ user: Int, _ day: Int32) -> Int {
        user * StepStore.daysKept + Int(day & Int32(StepStore.daysKept - 1))
    }

    /// Upsert (`ON CONFLICT DO UPDATE`): returns true when the row was created.
    public mutating func upsert(user: Int, day: Int32, steps: Int32) -> Bool {
        let s = slot(user, day)
        if rows[s].day > day { droppedWrites += 1; return false }
        let created = rows[s].day != day
        if created { counts[s] = 1 }
        rows[s] = Row(day: day, steps: steps)
        return created
    }

    /// Plain insert: a second row for the same (user, date) is a duplicate. Returns the
    /// number of rows (user, date) now has.
    public mutating func insert(user: Int, day: Int32, steps: Int32) -> Int {
        let s = slot(user, day)
        if rows[s].day > day { droppedWrites += 1; return 0 }
        if rows[s].day == day { counts[s] = counts[s] == .max ? .max : counts[s] + 1 } else { counts[s] = 1 }
        rows[s] = Row(day: day, steps: steps)
        return Int(counts[s])
    }

    /// The latest value written for (user, date), or nil if the ring holds no row for it.
    public func steps(user: Int, day: Int32) -> Int32? {
        let s = slot(user, day)
        return rows[s].day == day ? rows[s].steps : nil
    }
}
