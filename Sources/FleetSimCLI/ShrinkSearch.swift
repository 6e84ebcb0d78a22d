import Foundation
import SimKernel
import Scenario
import Simulation
import Reports

/// `fleetsim shrink`'s search (Shrink.swift has the command): the greedy passes over
/// the scenario's JSON tree, delta debugging, and the tree's edits.
extension Shrink {
    final class Search {
        private(set) var tree: JSONValue
        private(set) var failure: Sample
        /// The tree the search started from, and the cohort of its failing device.
        let origin: JSONValue
        let originCohort: Int
        let kind: String
        let file: String
        let maxRuns: Int
        let deadline: ContinuousClock.Instant
        /// Whether candidates are run (and written) with sorted keys.
        var sortKeys = true
        /// Runs made before the search, for the numbers in its progress lines.
        var runsBefore = 1
        /// Whether ``otherSeeds()`` may run (not with `--keep-seed`).
        var allowSeedChange = true
        private var smallWorldTried = false
        private var seedsTried = false
        private(set) var runs = 0
        private(set) var accepted = 0
        private(set) var stoppedBy: Stop?

        /// The logic set the candidates run with.
        let engine: Engine

        init(tree: JSONValue, failure: Sample, kind: String, file: String, maxRuns: Int, deadline: ContinuousClock.Instant, engine: Engine) {
            self.engine = engine
            self.tree = tree
            self.failure = failure
            origin = tree
            originCohort = Search.cohort(of: failure.device, counts: Tree.counts(tree))?.index ?? 0
            self.kind = kind
            self.file = file
            self.maxRuns = maxRuns
            self.deadline = deadline
        }

        var exhausted: Bool {
            if stoppedBy != nil { return true }
            if runs >= maxRuns { stoppedBy = .runBudget(maxRuns + runsBefore) }
            else if ContinuousClock.now >= deadline { stoppedBy = .timeLimit }
            return stoppedBy != nil
        }

        /// Runs `proposed` as it would be written; keeps it (and returns true) when it
        /// still violates the kind.
        @discardableResult
        func attempt(_ proposed: JSONValue, _ what: String) -> Bool {
            let candidate = sortKeys ? proposed.withSortedKeys : proposed
            guard candidate != tree, !exhausted else { return false }
            guard let scenario = try? ScenarioDecoder.decode(candidate, file: file, vocabulary: engine.vocabulary) else { return false }
            runs += 1
            guard let sample = Shrink.simulate(scenario, engine: engine)?.sample(of: kind) else { return false }
            tree = candidate
            failure = sample
            accepted += 1
            print("  run \(runs + runsBefore): \(what): still fails (device \(failure.device) at \(failure.time / 1_000_000) s)")
            return true
        }

        /// Greedy passes until a whole round keeps nothing.
        func run() {
            while !exhausted {
                let before = accepted
                // Fleet first: a shorter run has fewer failing devices to keep. But a
                // large world is cut to a day first, or its runs eat the time limit.
                let day = SimDuration.days(1)
                if Double(Tree.counts(tree).reduce(0, +)) * Tree.duration(tree).seconds / 86_400 > largeDeviceDays,
                   Tree.duration(tree) > day, failure.time < day.microseconds {
                    attempt(tree.setting("duration", .string(day.description)), "duration \(Tree.duration(tree)) -> \(day), a large world")
                }
                shrinkCohorts()
                shrinkCounts()
                shortenDuration()
                startLater()
                dropEach("faults")
                dropEach("broadcasts")
                smallWorld()
                otherSeeds()
                if accepted == before { break }
            }
        }

        // MARK: Duration

        /// The run ends at the first whole minute at least a second after the first
        /// violation of the kind; then halving, for violations judged at the end.
        func shortenDuration() {
            while !exhausted {
                let d = Tree.duration(tree)
                var candidates: [SimDuration] = []
                let minute: Int64 = 60_000_000
                let cut = SimDuration(microseconds: (failure.time + 1_000_000 + minute - 1) / minute * minute)
                if cut < d { candidates.append(cut) }
                let half = SimDuration(microseconds: d.microseconds / 2 / 1_000_000 * 1_000_000)
                if half > .zero, half < d, !candidates.contains(half) { candidates.append(half) }
                guard candidates.contains(where: { c in attempt(tree.setting("duration", .string(c.description)), "duration \(d) -> \(c)") }) else { return }
            }
        }

        // MARK: Fleet

        /// The cohort index of device `id` and its offset in that cohort.
        func cohortOf(_ id: Int) -> (index: Int, offset: Int)? { Search.cohort(of: id, counts: Tree.counts(tree)) }

        static func cohort(of id: Int, counts: [Int]) -> (index: Int, offset: Int)? {
            var first = 0
            for (i, count) in counts.enumerated() {
                if id < first + count { return (i, id - first) }
                first += count
            }
            return nil
        }

        /// Only the failing device's cohort; else the cohorts after it dropped (which
        /// keeps its id, and so its streams); then ddmin over all cohorts.
        func shrinkCohorts() {
            let n = Tree.counts(tree).count
            guard n > 1 else { return }
            if let f = cohortOf(failure.device) {
                if attempt(Tree.keepingCohorts(tree, [f.index]), "only cohort \(Tree.cohortName(tree, f.index))") { return }
                if f.index + 1 < n { attempt(Tree.keepingCohorts(tree, Array(0...f.index)), "cohorts after \(Tree.cohortName(tree, f.index)) dropped") }
            }
            let base = tree
            let names = (0..<Tree.counts(base).count).map { Tree.cohortName(base, $0) }
            _ = ddmin(Array(names.indices)) { keep in
                self.attempt(Tree.keepingCohorts(base, keep), "cohorts \(keep.map { names[$0] }.joined(separator: ", ")) kept")
            }
        }

        /// The failing device's cohort cut just after it (same id, same streams); then
        /// every cohort's count shrunk greedily: 1, 2, ..., 10, then c - c/2, c - c/4, ..., c - 1.
        func shrinkCounts() {
            if let f = cohortOf(failure.device), f.offset + 1 < Tree.counts(tree)[f.index] {
                attempt(Tree.settingCount(tree, f.index, f.offset + 1), "cohort \(Tree.cohortName(tree, f.index)): count -> \(f.offset + 1), up to the failing device")
            }
            for i in Tree.counts(tree).indices {
                while !exhausted {
                    let c = Tree.counts(tree)[i]
                    // Small fleets one by one (runs of a few devices are cheap), then halving.
                    var candidates = Array(1..<min(c, smallCounts + 1))
                    var delta = c / 2
                    while delta > 0 {
                        if c - delta > 1, !candidates.contains(c - delta) { candidates.append(c - delta) }
                        delta /= 2
                    }
                    guard candidates.contains(where: { k in attempt(Tree.settingCount(tree, i, k), "cohort \(Tree.cohortName(tree, i)): count \(c) -> \(k)") }) else { break }
                }
            }
        }

        // MARK: Start

        /// Starts the run later: by the whole days before the first violation, then by
        /// each whole hour before it, latest first, so the violation comes sooner
        /// after the start.
        func startLater() {
            let t = failure.time
            let d = Tree.duration(tree).microseconds
            let day: Int64 = 86_400_000_000, hour: Int64 = 3_600_000_000
            var shifts = [t / day * day]
            shifts += stride(from: t / hour * hour, to: 0, by: -Int(hour))
            for s in shifts where s > 0 && s < d {
                let shift = SimDuration(microseconds: s)
                if attempt(Tree.startingLater(tree, by: shift), "start \(shift) later") { return }
            }
        }

        // MARK: Small worlds

        /// When the greedy passes stop above ``smallCounts`` devices or a day, or above
        /// ``fewestDevices`` devices (then only with fewer devices than found): the
        /// original failing cohort alone with 1, 2, ... devices, each run at most a day
        /// long, starting at the original start and then each whole hour later. Devices
        /// keep their streams only by their ids, so a failing device with a high id
        /// cannot move into a small fleet; a small fleet needs a device of its own that
        /// fails, which a later start (a different story) may give.
        func smallWorld() {
            let count = Tree.counts(tree).reduce(0, +)
            guard !smallWorldTried, aboveTarget || count > fewestDevices else { return }
            smallWorldTried = true
            let day = SimDuration.days(1)
            let base = Tree.keepingCohorts(origin, [originCohort])
            let hour = SimDuration.hours(1)
            let length = Tree.duration(base)
            // Within the target, only fleets smaller than the one already found.
            let most = aboveTarget ? smallCounts : count - 1
            for k in 1...most {
                var shift = SimDuration.zero
                while shift < length, !exhausted {
                    var candidate = Tree.settingCount(shift > .zero ? Tree.startingLater(base, by: shift) : base, 0, k)
                    if Tree.duration(candidate) > day { candidate = candidate.setting("duration", .string(day.description)) }
                    if attempt(candidate, "cohort \(Tree.cohortName(base, 0)) alone, \(k) device(s), start \(shift) later, at most \(day)") { return }
                    shift = shift + hour
                }
            }
        }

        /// More than ``smallCounts`` devices or longer than a day.
        var aboveTarget: Bool { Tree.counts(tree).reduce(0, +) > smallCounts || Tree.duration(tree) > .days(1) }

        /// The last resort when no small fleet of the user's seed fails (a kind that
        /// only a few devices in a hundred show): the original failing cohort alone,
        /// ``smallCounts`` devices, at most a day, under the next seeds in turn. The
        /// seed is part of the scenario; the summary says it changed.
        func otherSeeds() {
            guard allowSeedChange, !seedsTried, aboveTarget else { return }
            seedsTried = true
            let day = SimDuration.days(1)
            var base = Tree.settingCount(Tree.keepingCohorts(origin, [originCohort]), 0, smallCounts)
            if Tree.duration(base) > day { base = base.setting("duration", .string(day.description)) }
            let first = Tree.seed(origin)
            for next in (first + 1)...(first + UInt64(otherSeedCount)) where next <= 1 << 53 {
                if attempt(base.setting("seed", .integer(Int64(next))), "seed \(next), cohort \(Tree.cohortName(base, 0)) alone, \(smallCounts) devices, at most \(day)") { return }
                if exhausted { return }
            }
        }

        // MARK: Faults and broadcasts

        /// All of them dropped; else ddmin over them.
        func dropEach(_ key: String) {
            guard case .array(let items)? = tree[key], !items.isEmpty else { return }
            if attempt(tree.setting(key, .array([])), "all \(key) dropped") { return }
            let base = tree
            _ = ddmin(Array(items.indices)) { keep in
                self.attempt(base.setting(key, .array(keep.map { items[$0] })), "\(key) \(keep.map { "#\($0)" }.joined(separator: ", ")) kept")
            }
        }
    }

    /// Zeller and Hildebrandt's ddmin ("Simplifying and Isolating Failure-Inducing
    /// Input", IEEE TSE 2002): a 1-minimal subset of `items` for which `fails` holds,
    /// given that it holds for all of them. Subsets keep the items' order.
    static func ddmin(_ items: [Int], _ fails: ([Int]) -> Bool) -> [Int] {
        var current = items
        var n = 2
        while current.count >= 2 {
            let size = (current.count + n - 1) / n
            let chunks = stride(from: 0, to: current.count, by: size).map { Array(current[$0..<min($0 + size, current.count)]) }
            if let chunk = chunks.first(where: { $0.count < current.count && fails($0) }) {
                current = chunk
                n = 2
                continue
            }
            if chunks.count > 2, let complement = chunks.lazy.map({ c in current.filter { !c.contains($0) } }).first(where: { fails($0) }) {
                current = complement
                n = max(n - 1, 2)
                continue
            }
            guard n < current.count else { break }
            n = min(current.count, 2 * n)
        }
        return current
    }

    /// Sizes of a scenario tree, for the summary.
    struct Measure {
        var cohorts: Int, devices: Int, duration: SimDuration, start: Int64, faults: Int, broadcasts: Int
        init(_ tree: JSONValue) {
            let counts = Tree.counts(tree)
            cohorts = counts.count
            devices = counts.reduce(0, +)
            duration = Tree.duration(tree)
            start = Tree.start(tree)
            faults = tree["faults"]?.arrayItems?.count ?? 0
            broadcasts = tree["broadcasts"]?.arrayItems?.count ?? 0
        }
    }
}

/// Edits of a scenario's JSON tree. The tree was decoded once, so its shapes are known
/// good; a candidate that breaks a rule of the format fails to decode and is skipped.
enum Tree {
    static func fleet(_ tree: JSONValue) -> [JSONValue] { tree["fleet"]?.arrayItems ?? [] }

    static func counts(_ tree: JSONValue) -> [Int] { fleet(tree).map { Int($0["count"]?.numberValue ?? 0) } }

    static func cohortName(_ tree: JSONValue, _ i: Int) -> String { fleet(tree)[i]["cohort"]?.stringText ?? "#\(i)" }

    static func duration(_ tree: JSONValue) -> SimDuration { tree["duration"]?.stringText.flatMap(SimDuration.parse) ?? .zero }

    static func start(_ tree: JSONValue) -> Int64 {
        tree["start"]?.stringText.flatMap(UTCTimestamp.parse) ?? ScenarioDefaults.startUnixSeconds
    }

    static func seed(_ tree: JSONValue) -> UInt64 { UInt64(tree["seed"]?.numberValue ?? Double(ScenarioDefaults.seed)) }

    static func settingCount(_ tree: JSONValue, _ i: Int, _ count: Int) -> JSONValue {
        var cohorts = fleet(tree)
        cohorts[i] = cohorts[i].setting("count", .integer(Int64(count)))
        return tree.setting("fleet", .array(cohorts))
    }

    /// Only the cohorts at `keep`; faults and broadcasts narrowed to a dropped cohort go too.
    static func keepingCohorts(_ tree: JSONValue, _ keep: [Int]) -> JSONValue {
        let cohorts = fleet(tree)
        let dropped = Set(cohorts.indices.filter { !keep.contains($0) }.compactMap { cohorts[$0]["cohort"]?.stringText })
        var out = tree.setting("fleet", .array(keep.map { cohorts[$0] }))
        for key in ["faults", "broadcasts"] {
            guard let items = tree[key]?.arrayItems else { continue }
            out = out.setting(key, .array(items.filter { item in item["cohort"]?.stringText.map { !dropped.contains($0) } ?? true }))
        }
        return out
    }

    /// The run starts `shift` later and is that much shorter. Every time in the file
    /// moves with it: a fault that ended before the new start is dropped, one in
    /// progress starts at 0 for what is left of it; a broadcast before it is dropped;
    /// `lastTestDaysAgo` grows by the shift, so every test falls on the same instant.
    static func startingLater(_ tree: JSONValue, by shift: SimDuration) -> JSONValue {
        let s = shift.microseconds
        var out = tree.setting("start", .string(UTCTimestamp.format(start(tree) + s / 1_000_000)))
            .setting("duration", .string((duration(tree) - shift).description))
        if let faults = tree["faults"]?.arrayItems {
            out = out.setting("faults", .array(faults.compactMap { f in
                let at = f["at"]?.stringText.flatMap(SimDuration.parse)?.microseconds ?? 0
                var moved = f.setting("at", .string(SimDuration(microseconds: max(0, at - s)).description))
                if let length = f["duration"]?.stringText.flatMap(SimDuration.parse)?.microseconds {
                    guard at + length > s else { return nil }
                    moved = moved.setting("duration", .string(SimDuration(microseconds: at + length - max(at, s)).description))
                }
                return moved
            }))
        }
        if let broadcasts = tree["broadcasts"]?.arrayItems {
            out = out.setting("broadcasts", .array(broadcasts.compactMap { b in
                let at = b["at"]?.stringText.flatMap(SimDuration.parse)?.microseconds ?? 0
                return at < s ? nil : b.setting("at", .string(SimDuration(microseconds: at - s).description))
            }))
        }
        let days = Double(s) / 86_400_000_000
        out = out.setting("fleet", .array(fleet(tree).map { cohort in
            let ago = cohort["lastTestDaysAgo"] ?? .object([("uniform", .array([.integer(0), .integer(120)]))])
            return cohort.setting("lastTestDaysAgo", shifted(ago, by: days))
        }))
        return out
    }

    /// A distribution moved by `days`: `constant`, both ends of `uniform`, the mean of
    /// `normal`; the others (`exponential`, `lognormal`) cannot move and stay as they are.
    static func shifted(_ distribution: JSONValue, by days: Double) -> JSONValue {
        if let x = distribution["constant"]?.numberValue { return distribution.setting("constant", .decimal(x + days)) }
        if let ends = distribution["uniform"]?.arrayItems, ends.count == 2, let a = ends[0].numberValue, let b = ends[1].numberValue {
            return distribution.setting("uniform", .array([.decimal(a + days), .decimal(b + days)]))
        }
        if let normal = distribution["normal"], let mean = normal["mean"]?.numberValue {
            return distribution.setting("normal", normal.setting("mean", .decimal(mean + days)))
        }
        return distribution
    }
}

extension JSONValue {
    /// This object with member `key` set to `value` (in place if present, else
    /// appended); anything other than an object is returned unchanged.
    func setting(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        if let i = members.firstIndex(where: { $0.key == key }) {
            members[i].value = value
        } else {
            members.append((key: key, value: value))
        }
        return .object(members)
    }

    static func integer(_ v: Int64) -> JSONValue { .number(Double(v), literal: String(v)) }

    /// A number written as an integer when it is one, else with Swift's shortest round-trip digits.
    static func decimal(_ v: Double) -> JSONValue {
        v == v.rounded() && abs(v) < 1e15 ? .number(v, literal: String(Int64(v))) : .number(v, literal: "\(v)")
    }

    var arrayItems: [JSONValue]? { if case .array(let items) = self { return items } else { return nil } }
    var numberValue: Double? { if case .number(let x, _) = self { return x } else { return nil } }
    var stringText: String? { if case .string(let s) = self { return s } else { return nil } }
}
