import SimKernel
/// The server's step table, keyed by (user, date, source), that records duplicates
/// instead of hiding them (seed `003`, "Conflict Resolution"). Each user has one phone
/// and so one source; the key is (user, date) within it.
///
/// Each user has a ring of ``daysKept`` slots, indexed by date mod 32. 32 days cover the
/// 30-day backfill; a write for a date older than the one its slot holds (the ring's
/// newest minus 32 days or more) is dropped (counted in ``droppedWrites``).
///
/// Memory: the rings are stored slot-major, one column of every user's slot for each of
/// the 32 residues, and a column is allocated at the first write to its residue (9 bytes
/// a user). The fleet writes the same few calendar dates (a run's days, the day before
/// for the sync before the run and the time zones), so the default fleet's day holds 2
/// columns, not 32: 18 bytes a user instead of 288; a run of 32 days or more holds them
/// all.
public struct StepStore: Sendable {
    public static let daysKept = 32
    struct Row {
        /// The local date (days since 1970-01-01), or -1 for an empty slot.
        var day: Int32 = -1
        var steps: Int32 = 0
    }
    /// One column per residue of the date mod ``daysKept``, indexed by user; empty until
    /// the first write to that residue.
    var rows: [[Row]]
    /// Rows per (user, date): 1 normally, more when inserted twice (duplicates). Columns
    /// as `rows`.
    var counts: [[UInt8]]
    let users: Int
    public private(set) var droppedWrites: UInt64 = 0

    public init(users: Int) {
        self.users = users
        rows = Array(repeating: [], count: StepStore.daysKept)
        counts = Array(repeating: [], count: StepStore.daysKept)
    }

    private static func column(_ day: Int32) -> Int { Int(day & Int32(daysKept - 1)) }

    /// The column a write to `day` goes to, allocated at its first write.
    private mutating func claim(_ day: Int32) -> Int {
        let c = StepStore.column(day)
        if rows[c].isEmpty {
            rows[c] = Array(hugePagesRepeating: Row(), count: users)
            counts[c] = Array(hugePagesRepeating: 0, count: users)
        }
        return c
    }

    /// Upsert (`ON CONFLICT DO UPDATE`): returns true when the row was created.
    public mutating func upsert(user: Int, day: Int32, steps: Int32) -> Bool {
        let c = claim(day)
        if rows[c][user].day > day { droppedWrites += 1; return false }
        let created = rows[c][user].day != day
        if created { counts[c][user] = 1 }
        rows[c][user] = Row(day: day, steps: steps)
        return created
    }

    /// Plain insert: a second row for the same (user, date) is a duplicate. Returns the
    /// number of rows (user, date) now has.
    public mutating func insert(user: Int, day: Int32, steps: Int32) -> Int {
        let c = claim(day)
        if rows[c][user].day > day { droppedWrites += 1; return 0 }
        if rows[c][user].day == day { counts[c][user] = counts[c][user] == .max ? .max : counts[c][user] + 1 } else { counts[c][user] = 1 }
        rows[c][user] = Row(day: day, steps: steps)
        return Int(counts[c][user])
    }

    /// The latest value written for (user, date), or nil if the ring holds no row for it.
    public func steps(user: Int, day: Int32) -> Int32? {
        let c = StepStore.column(day)
        guard !rows[c].isEmpty else { return nil }
        return rows[c][user].day == day ? rows[c][user].steps : nil
    }

    /// Starts loading `user`'s row and count for `day` where its column is held (a hint:
    /// changes no value).
    public func prefetch(user: Int, day: Int32) {
        let c = StepStore.column(day)
        guard !rows[c].isEmpty else { return }
        rows[c].prefetch(user)
        counts[c].prefetch(user)
    }

    /// How many of the 32 columns hold rows (each `users` × 9 bytes).
    var columnsHeld: Int { rows.count { !$0.isEmpty } }
}
