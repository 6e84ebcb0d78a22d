import Testing
@testable import Backend

/// The step table's 32-day ring per user, and its columns allocated at the first write.
@Suite struct StepStoreTests {
    let day: Int32 = 20_000

    @Test func upsertCreatesThenUpdates() {
        var store = StepStore(users: 3)
        #expect(store.steps(user: 1, day: day) == nil)
        let created = store.upsert(user: 1, day: day, steps: 100)
        let again = store.upsert(user: 1, day: day, steps: 250)
        #expect(created && !again)
        #expect(store.steps(user: 1, day: day) == 250)
        #expect(store.steps(user: 0, day: day) == nil)
        #expect(store.steps(user: 2, day: day) == nil)
    }

    @Test func insertCountsDuplicates() {
        var store = StepStore(users: 2)
        let rows = [store.insert(user: 0, day: day, steps: 10), store.insert(user: 0, day: day, steps: 20),
                    store.insert(user: 0, day: day + 1, steps: 5), store.insert(user: 1, day: day, steps: 7)]
        #expect(rows == [1, 2, 1, 1])
        #expect(store.steps(user: 0, day: day) == 20)
    }

    /// 32 days back shares the slot: the newer date keeps it, an older write is dropped,
    /// and the date 31 days back still has its own slot.
    @Test func ringKeepsThirtyTwoDays() {
        var store = StepStore(users: 1)
        let written = [store.upsert(user: 0, day: day, steps: 1), store.upsert(user: 0, day: day - 31, steps: 2),
                       store.upsert(user: 0, day: day - 32, steps: 3)]
        let inserted = store.insert(user: 0, day: day - 32, steps: 3)
        #expect(written == [true, true, false] && inserted == 0)
        #expect(store.droppedWrites == 2)
        #expect(store.steps(user: 0, day: day) == 1)
        #expect(store.steps(user: 0, day: day - 31) == 2)
        #expect(store.steps(user: 0, day: day - 32) == nil)
        // A newer date takes the slot over from the older one.
        let newer = store.upsert(user: 0, day: day + 32, steps: 4)
        #expect(newer)
        #expect(store.steps(user: 0, day: day) == nil)
        #expect(store.steps(user: 0, day: day + 32) == 4)
    }

    /// A column (one residue of the date, every user) exists only once written: a run
    /// that writes three dates holds three columns, whatever the number of users.
    @Test func columnsAllocatedAtFirstWrite() {
        var store = StepStore(users: 1_000)
        #expect(store.columnsHeld == 0)
        _ = store.upsert(user: 5, day: day, steps: 1)
        _ = store.upsert(user: 999, day: day, steps: 1)
        _ = store.insert(user: 0, day: day + 1, steps: 1)
        _ = store.upsert(user: 7, day: day - 1, steps: 1)
        _ = store.upsert(user: 7, day: day + 32, steps: 1)
        #expect(store.columnsHeld == 3)
        #expect(store.steps(user: 3, day: day + 2) == nil)
        #expect(store.columnsHeld == 3)
    }
}
