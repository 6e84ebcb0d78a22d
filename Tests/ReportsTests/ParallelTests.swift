import Testing
import Reports

/// `merge` reads its reports, combines their keys and renders its documents on several
/// cores; what it writes and the error it reports must be those of a plain loop.
@Suite struct ParallelTests {
    struct Failure: Error, Equatable { var index: Int }

    /// Results come back in index order, whichever thread finishes first (the early
    /// indices do more work, so they tend to finish last).
    @Test func resultsAreInIndexOrder() throws {
        let out = try Parallel.map(64) { k throws(Failure) in
            var x = UInt64(k)
            for _ in 0..<(64 - k) * 2_000 { x = x &* 6_364_136_223_846_793_005 &+ 1 }
            return (k, x)
        }
        #expect(out.map(\.0) == Array(0..<64))
    }

    /// Several fail: the error of the lowest index is thrown, as the loop would throw it.
    @Test func theLowestFailingIndexIsReported() {
        #expect(throws: Failure(index: 3)) {
            _ = try Parallel.map(16) { k throws(Failure) in
                if k == 3 || k == 11 { throw Failure(index: k) }
                return k
            }
        }
    }

    @Test func noWorkGivesNoResults() throws {
        #expect(try Parallel.map(0) { k throws(Failure) in k }.isEmpty)
    }
}
