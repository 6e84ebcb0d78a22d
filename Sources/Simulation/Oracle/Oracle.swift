import SimKernel
import Reports
import Scenario

/// An invariant the oracle judges, by its name: judged from ground truth the world owns
/// (what the OS saw, what the backend knows), never from what the logic believes. Each
/// feature declares its rules beside its checks (Oracle/<F>Checker.swift: a static member
/// each and its list, `rules`), so a new feature names its rules in its own files;
/// ``allCases`` joins the lists in the order of the feature list (``FeatureList/rules``),
/// the order of report.json's `invariants.byKind` (docs/architecture.md, "The oracle").
public struct ViolationKind: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Its name in report.json, in traces and in a scenario's `judges.off`.
    public let rawValue: String

    private init(name: String) { rawValue = name }

    /// The rule a feature declares as a static member named after it
    /// (`static var taskCompletedTwice: ViolationKind { .rule() }`): its name is the member's.
    @inline(__always) static func rule(_ name: String = #function) -> ViolationKind { ViolationKind(name: name) }

    /// The rule of that name, or nil when no feature declares one.
    public init?(rawValue: String) {
        guard ViolationKind.places[rawValue] != nil else { return nil }
        self.rawValue = rawValue
    }

    /// Every rule, each feature's in the feature list's order.
    public static var allCases: [ViolationKind] { FeatureList.rules }

    /// Its place in ``allCases``: the oracle's counts and samples are kept in that order.
    var index: Int { ViolationKind.places[rawValue]! }

    /// Each rule's place in ``allCases``; built once, read when a check fails, not on the
    /// checks that hold.
    private static let places: [String: Int] = Dictionary(uniqueKeysWithValues: FeatureList.rules.enumerated().map { ($1.rawValue, $0) })

    public var description: String { rawValue }
}

public struct Violation: Sendable, Equatable {
    public var kind: ViolationKind
    public var device: Int
    public var time: SimTime
    public var detail: String

    /// The order samples of one kind are kept in: time, then device, then detail.
    func precedes(_ other: Violation) -> Bool {
        time != other.time ? time < other.time : device != other.device ? device < other.device : detail < other.detail
    }
}

/// The judge (after TigerBeetle's `state_checker`): features report observations
/// (`observe...` in this folder, one file per feature), the checkers here keep the
/// judge-only ground truth and decide violations. It only watches: an observation
/// returns nothing, and no model decision reads a checker's state. Counts checks and violations and
/// keeps up to ``samplesPerKind`` violations of every kind.
struct Oracle {
    /// Samples kept per kind: a rare kind keeps its evidence in a run full of a common one.
    /// The merge keeps as many, so they are one constant.
    static let samplesPerKind = ReportMerge.samplesPerKind
    /// Whether the checks run (every `observe...` returns at once when not). The model
    /// never reads a check's outcome nor the checkers' state, so a run with the checks
    /// off reports the same figures but `invariants` (OracleOffTests).
    var watching = true
    var checked: UInt64 = 0
    var counts = [UInt64](repeating: 0, count: ViolationKind.allCases.count)
    /// Per kind (``ViolationKind`` order), the smallest violations by (time, device,
    /// detail), ascending. Not the first detected: which ones are kept must not depend on
    /// the order of checks within an instant, so that shards merged keep the plain run's
    /// (local device order is global order in a shard, ``ShardPlan/global(_:)``).
    var samples = [[Violation]](repeating: [], count: ViolationKind.allCases.count)
    var refresh: RefreshChecker
    var steps: StepsChecker
    /// The oracle's own wall clock of each of the run's zones (`WorldCore.timeZones` order).
    var zones: [OracleZone]
    var continuation: ContinuationChecker
    /// The push judges' truth per push user and per notification (``PushJudgeState``),
    /// filled by the push host as it draws each user's settings.
    var push = PushJudgeState()
    /// The specs the judges read (the logic set's; ``JudgedSpecs``).
    var judged = JudgedSpecs()
    /// Per kind (``ViolationKind`` order), whether its judge is switched off: its
    /// failures are not recorded (docs/architecture.md, "A judge switched off").
    var off = [Bool](repeating: false, count: ViolationKind.allCases.count)
    /// The judges switched off, each with its reason, in ``ViolationKind`` order
    /// (report.json's `judges.off`).
    var offReasons: [(kind: ViolationKind, reason: String)] = []

    init(devices: Int, timeZones: [String] = []) {
        refresh = RefreshChecker(devices: devices)
        steps = StepsChecker(devices: devices)
        zones = (timeZones.isEmpty ? ["UTC"] : timeZones).map(OracleZone.init(identifier:))
        continuation = ContinuationChecker(devices: devices)
    }

    var violations: UInt64 { counts.reduce(0, +) }

    /// Switches off the judges `switches` names, each with its reason; the first of a
    /// rule named twice wins, and a name that is no ``ViolationKind`` switches nothing off.
    mutating func switchOff(_ switches: [JudgeOff]) {
        for judge in switches {
            guard let kind = ViolationKind(rawValue: judge.rule) else { continue }
            let k = kind.index
            guard !off[k] else { continue }
            off[k] = true
            offReasons.append((kind, judge.reason))
        }
        offReasons.sort { $0.kind.index < $1.kind.index }
    }

    /// Records one check; `detail` (built by the caller only when the check fails) says
    /// what went wrong. Returns whether it held.
    @discardableResult
    mutating func check(_ holds: Bool, _ kind: ViolationKind, device: Int, time: SimTime, detail: String?) -> Bool {
        checked &+= 1
        guard !holds else { return true }
        let k = kind.index
        guard !off[k] else { return true }
        counts[k] += 1
        let violation = Violation(kind: kind, device: device, time: time, detail: detail ?? kind.rawValue)
        if samples[k].count < Oracle.samplesPerKind || violation.precedes(samples[k][samples[k].count - 1]) {
            samples[k].insert(violation, at: samples[k].firstIndex { violation.precedes($0) } ?? samples[k].count)
            if samples[k].count > Oracle.samplesPerKind { samples[k].removeLast() }
        }
        return false
    }

    /// Every kept sample in (time, device, kind, detail) order: the order the merge writes.
    var sampleList: [Violation] {
        samples.joined().sorted { a, b in
            a.time != b.time ? a.time < b.time : a.device != b.device ? a.device < b.device
                : a.kind != b.kind ? a.kind.rawValue < b.kind.rawValue : a.detail < b.detail
        }
    }
}

/// Where a world keeps its ``Oracle`` (``WorldCore/oracle``): a reference, so that a
/// checker handed the core `borrowing` (the model read-only, by type: writing a device,
/// the clock or a stream does not compile) still writes the oracle's own state. Its one
/// property is read and written only through ``WorldCore/oracle`` and never while another
/// access to it is open (a checker does not hand the oracle on `inout`), so its accesses
/// skip the runtime's exclusivity bookkeeping, which would be a call into the runtime at
/// every observation (docs/architecture.md, "The oracle").
final class OracleCell {
    @exclusivity(unchecked) var oracle: Oracle

    init(_ oracle: Oracle) { self.oracle = oracle }
}
