import Testing
@testable import Backend

/// The step table keyed by (user, date): every date kept (the run's dates in columns
/// allocated at the first write, the others in one table of the rows written), and a
/// declared retention's edge.
@Suite struct StepStoreTests {
    let day: Int32 = 20_000
    /// A run of 10 days from `day`, its window two dates wider each side.
    var window: ClosedRange<Int32> { day - 2...day + 12 }

    @Test func upsertCreatesThenUpdates() {
        var store = StepStore(users: 3, window: window)
        #expect(store.steps(user: 1, day: day) == nil)
        let created = store.upsert(user: 1, day: day, steps: 100)
        let again = store.upsert(user: 1, day: day, steps: 250)
        #expect(created && !again)
        #expect(store.steps(user: 1, day: day) == 250)
        #expect(store.steps(user: 0, day: day) == nil)
        #expect(store.steps(user: 2, day: day) == nil)
    }

    /// Duplicates are counted inside the window and outside it alike.
    @Test func insertCountsDuplicates() {
        var store = StepStore(users: 2, window: window)
        for d in [day, day + 500] {
            let rows = [store.insert(user: 0, day: d, steps: 10), store.insert(user: 0, day: d, steps: 20),
                        store.insert(user: 0, day: d + 1, steps: 5), store.insert(user: 1, day: d, steps: 7)]
            #expect(rows == [1, 2, 1, 1], "date \(d)")
            #expect(store.steps(user: 0, day: d) == 20)
        }
    }

    /// A clock 94 days ahead backfills 30 far-future dates, then, set right, uploads the
    /// true date: both are kept (the 32-day ring this replaced dropped the true date's
    /// write, older than the future date in its slot).
    @Test func aClock94DaysAheadThenSetRightKeepsBothDates() {
        var store = StepStore(users: 2, window: window)
        _ = store.upsert(user: 0, day: day, steps: 1_000)
        for d in day + 64...day + 94 { _ = store.upsert(user: 0, day: d, steps: Int32(d - day)) }
        let created = store.upsert(user: 0, day: day + 1, steps: 4_321)
        #expect(created)
        #expect(store.steps(user: 0, day: day + 1) == 4_321)
        #expect(store.steps(user: 0, day: day) == 1_000)
        #expect((day + 64...day + 94).allSatisfy { store.steps(user: 0, day: $0) == Int32($0 - day) })
        #expect(store.steps(user: 1, day: day + 94) == nil && store.steps(user: 0, day: day + 95) == nil)
        #expect(store.droppedWrites == 0)
        #expect(store.farRows == 31 && store.columnsHeld == 2)
    }

    /// A clock 944 days behind writes dates 944 days back, then, set right, the 30 days
    /// before today (before the run's window) and today: all kept.
    @Test func aClock944DaysBehindThenSetRightKeepsBothDates() {
        var store = StepStore(users: 1, window: window)
        _ = store.upsert(user: 0, day: day, steps: 1)
        _ = store.upsert(user: 0, day: day - 944, steps: 2)
        _ = store.upsert(user: 0, day: day - 943, steps: 3)
        for d in day - 29...day + 1 { _ = store.upsert(user: 0, day: d, steps: 4) }
        #expect(store.steps(user: 0, day: day - 944) == 2 && store.steps(user: 0, day: day - 943) == 3)
        #expect((day - 29...day + 1).allSatisfy { store.steps(user: 0, day: $0) == 4 })
        #expect(store.steps(user: 0, day: day - 945) == nil)
        #expect(store.droppedWrites == 0)
    }

    /// The table outside the window grows past its first 1,024 slots and keeps every row.
    @Test func rowsOutsideTheWindowSurviveGrowth() {
        var store = StepStore(users: 50, window: window)
        for user in 0..<50 { for d in 0..<40 { _ = store.upsert(user: user, day: day - 1_000 + Int32(d), steps: Int32(user * 100 + d)) } }
        #expect(store.farRows == 2_000)
        #expect((0..<50).allSatisfy { user in (0..<40).allSatisfy { store.steps(user: user, day: day - 1_000 + Int32($0)) == Int32(user * 100 + $0) } })
        #expect(store.steps(user: 0, day: day - 1_000 + 40) == nil)
    }

    /// A retention of 30 days on server date `today`: date today - 30 is kept, today - 31
    /// is gone (its row too, and its column freed) and a write of it is dropped; the same
    /// outside the window.
    @Test func retentionKeepsItsEdgeDayAndDropsTheOneBefore() {
        var store = StepStore(users: 1, window: window, retentionDays: 30)
        let today = day + 31
        _ = store.upsert(user: 0, day: day, steps: 7)
        _ = store.upsert(user: 0, day: day + 1, steps: 8)
        _ = store.upsert(user: 0, day: day - 500, steps: 9)
        store.retain(today: today)
        #expect(store.keptFrom == day + 1)
        #expect(store.steps(user: 0, day: day) == nil)
        #expect(store.steps(user: 0, day: day + 1) == 8)
        #expect(store.steps(user: 0, day: day - 500) == nil)
        #expect(store.columnsHeld == 1)
        let dropped = store.upsert(user: 0, day: day, steps: 10), inserted = store.insert(user: 0, day: day - 500, steps: 11)
        let kept = store.upsert(user: 0, day: day + 1, steps: 12)
        #expect(!dropped && inserted == 0 && !kept)
        #expect(store.droppedWrites == 2)
        #expect(store.steps(user: 0, day: day + 1) == 12)
    }

    /// Without a declared retention, a server date years on keeps every date.
    @Test func noRetentionKeepsEveryDate() {
        var store = StepStore(users: 1, window: window)
        _ = store.upsert(user: 0, day: day, steps: 7)
        store.retain(today: day + 10_000)
        #expect(store.steps(user: 0, day: day) == 7)
    }

    /// A column (one date of the window, every user) exists only once written: a run
    /// that writes three dates holds three columns, whatever the number of users.
    @Test func columnsAllocatedAtFirstWrite() {
        var store = StepStore(users: 1_000, window: window)
        #expect(store.columnsHeld == 0)
        _ = store.upsert(user: 5, day: day, steps: 1)
        _ = store.upsert(user: 999, day: day, steps: 1)
        _ = store.insert(user: 0, day: day + 1, steps: 1)
        _ = store.upsert(user: 7, day: day - 1, steps: 1)
        _ = store.upsert(user: 7, day: day + 32, steps: 1)
        #expect(store.columnsHeld == 3 && store.farRows == 1)
        #expect(store.steps(user: 3, day: day + 2) == nil)
        #expect(store.columnsHeld == 3)
    }
}
