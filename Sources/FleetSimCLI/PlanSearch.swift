/// The search behind `fleetsim plan`: the smallest capacity at which a scenario holds,
/// found in rounds of probes that may run in parallel.
///
/// It assumes that more capacity never hurts (a run that holds at `c` holds at `c + 1`),
/// which holds for a queue's waits and rejections but not exactly for a whole simulated
/// world: a different capacity changes when responses arrive and so the rest of the
/// run. The search therefore never trusts the assumption for its answer: it ends only
/// when the answer `c` itself held and `c - 1` itself failed (or `c` is the lower
/// bound), both probed. Probes that contradict the assumption are reported
/// (``Outcome/nonMonotone``).
///
/// Each round probes up to `parallel` capacities spread evenly over the open interval
/// between the largest known failure and the smallest known success (a k-section: with
/// `parallel` = 1 it is bisection); until a success is known, it probes the start with
/// its halvings, then doublings above it. Probes of a round are independent, so a caller may run them at once.
struct PlanSearch {
    /// The smallest capacity worth trying (1 worker).
    var lowest: Int
    /// The largest the search may try (`--max`).
    var highest: Int
    /// Where the bracketing starts (the scenario's own capacity).
    var start: Int
    /// Probes per round (`--jobs`).
    var parallel: Int

    struct Outcome: Equatable {
        /// The smallest capacity that held, with the one below it failing; nil when none
        /// up to ``PlanSearch/highest`` held.
        var answer: Int?
        /// Every capacity probed and whether it held, in the order probed.
        var probes: [(capacity: Int, held: Bool)]
        /// A capacity that held while a larger one failed (the assumption broken).
        var nonMonotone: Bool
        /// The search stopped before an answer because `stop` said so after a round.
        var stopped = false

        static func == (a: Outcome, b: Outcome) -> Bool {
            a.answer == b.answer && a.nonMonotone == b.nonMonotone
                && a.probes.map(\.capacity) == b.probes.map(\.capacity) && a.probes.map(\.held) == b.probes.map(\.held)
        }
    }

    /// Runs the search; `probe` is called with each round's capacities (ascending, never
    /// one already probed) and answers, in the same order, whether each held. While
    /// nothing has held, `stop` is asked after each round whether searching on is
    /// pointless (the caller knows why: what fails does not move with the capacity).
    func run(stop: () -> Bool = { false }, _ probe: ([Int]) -> [Bool]) -> Outcome {
        var held: [Int: Bool] = [:]
        var order: [(capacity: Int, held: Bool)] = []
        var failedBelow = lowest - 1      // largest capacity known to fail (lowest - 1: none)
        var heldAt: Int?                  // smallest capacity known to hold
        var nonMonotone = false

        func record(_ round: [Int]) {
            let answers = probe(round)
            for (c, ok) in zip(round, answers) {
                held[c] = ok
                order.append((c, ok))
            }
            // The smallest success, and the largest failure below it.
            let successes = held.filter(\.value).map(\.key)
            heldAt = successes.min()
            let failures = held.filter { !$0.value }.map(\.key)
            let failuresBelow: [Int]
            if let h = heldAt {
                if failures.contains(where: { $0 > h }) { nonMonotone = true }
                failuresBelow = failures.filter { $0 < h }
            } else {
                failuresBelow = failures
            }
            failedBelow = max(lowest - 1, failuresBelow.max() ?? lowest - 1)
        }

        // Bracket: the start and, in the same round, its halvings (a scenario often has
        // capacity to spare); then doublings above it, `parallel` a round, until one holds.
        let first = min(max(start, lowest), highest)
        var round = [first]
        while round.count < parallel, round.last! / 2 >= lowest { round.append(round.last! / 2) }
        record(round.sorted())
        var next = first
        while heldAt == nil {
            if stop() { return Outcome(answer: nil, probes: order, nonMonotone: nonMonotone, stopped: true) }
            round = []
            while round.count < parallel, next < highest {
                next = min(highest, next * 2)
                round.append(next)
            }
            if round.isEmpty { return Outcome(answer: nil, probes: order, nonMonotone: nonMonotone) }
            record(round)
        }
        // Narrow: probes spread over (failedBelow, heldAt) until they are neighbours.
        while let h = heldAt, h - failedBelow > 1 {
            let gap = h - failedBelow - 1            // untried capacities strictly between
            let k = min(parallel, gap)
            var round: [Int] = []
            for j in 1...k {
                let c = failedBelow + Int((Double(j) * Double(gap + 1) / Double(k + 1)).rounded())
                let clamped = min(h - 1, max(failedBelow + 1, c))
                if held[clamped] == nil, !round.contains(clamped) { round.append(clamped) }
            }
            if round.isEmpty { round = [failedBelow + 1] }
            record(round.sorted())
        }
        return Outcome(answer: heldAt, probes: order, nonMonotone: nonMonotone)
    }
}
