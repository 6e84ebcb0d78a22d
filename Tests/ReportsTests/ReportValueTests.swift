import Testing
import Reports

@Suite struct ReportValueTests {
    private let report: ReportValue = [
        "seed": 7,
        "a.b.c": "root key with dots",
        "latency": [
            "testAvailableToNotified": ["p95": .fixed(1.5, 6)],
            "pushCreatedToDelivered.high": ["p95": 2],
            "pushCreatedToDelivered": ["high": ["p95": 3], "low": ["p95": 4]],
            "x.y": ["p": 1],
            "x": ["y": ["q": 2]],
        ],
        "invariants": ["samples": [["kind": "doubleCompletion"], ["kind": "lostWrite"]]],
    ]

    @Test func resolvesPlainPaths() {
        #expect(report.lookup("latency.testAvailableToNotified.p95") == .number(1.5, digits: 6))
        #expect(report.lookup("seed") == .int(7))
        #expect(report.lookup("") == report)
    }

    @Test func longestKeyWinsAtEachLevel() {
        #expect(report.lookup("latency.pushCreatedToDelivered.high.p95") == .int(2))
        #expect(report.lookup("latency.pushCreatedToDelivered.high") == ["p95": 2])
        #expect(report.lookup("a.b.c") == .string("root key with dots"))
    }

    @Test func backtracksToShorterKeys() {
        #expect(report.lookup("latency.pushCreatedToDelivered.low.p95") == .int(4))
        #expect(report.lookup("latency.x.y.q") == .int(2))
        #expect(report.lookup("latency.x.y.p") == .int(1))
    }

    @Test func indexesArrays() {
        #expect(report.lookup("invariants.samples.1.kind") == .string("lostWrite"))
        #expect(report.lookup("invariants.samples.0") == ["kind": "doubleCompletion"])
        #expect(report.lookup("invariants.samples.2") == nil)
        #expect(report.lookup("invariants.samples.-1") == nil)
        #expect(report.lookup("invariants.samples.+1") == nil)
        #expect(report.lookup("invariants.samples.99999999999999999999999") == nil)
    }

    @Test func missingPathsAreNil() {
        #expect(report.lookup("latency.nope.p95") == nil)
        #expect(report.lookup("seed.value") == nil)
        #expect(report.lookup("latency.testAvailableToNotified.p95.x") == nil)
        #expect(report.lookup("latency.") == nil)
    }

    @Test func buildersAndAccessors() {
        #expect(ReportValue.seconds(2_500_000) == .number(2.5, digits: 6))
        #expect(ReportValue.seconds(nil as Int64?) == .null)
        #expect(ReportValue.fixed(0.25, 3) == .number(0.25, digits: 3))
        #expect(ReportValue.count(UInt64.max) == .int(.max))
        #expect(ReportValue.count(12) == .int(12))
        #expect(report.lookup("seed")?.intValue == 7)
        #expect(report.lookup("seed")?.doubleValue == 7)
        #expect(report.lookup("latency.testAvailableToNotified.p95")?.doubleValue == 1.5)
        #expect(report.lookup("a.b.c")?.stringValue == "root key with dots")
        #expect(report.lookup("invariants.samples")?.arrayValue?.count == 2)
        #expect(report.lookup("latency")?.objectValue?.count == 5)
        #expect(ReportValue.bool(true).boolValue == true)
        #expect(ReportValue.null.intValue == nil)
        let repeated: ReportValue = ["k": 1, "k": 2]
        #expect(repeated == .object(["k": .int(2)]))
    }

    /// A packed list is read, indexed and compared as the `.array` of its elements: a
    /// report built in the process (packed) equals the same report read back from its
    /// JSON (arrays), which merge and compare rely on.
    @Test func packedListsReadAndCompareAsArrays() {
        let counts: ReportValue = .integers([3, 0, -2])
        let rates: ReportValue = .numbers([0.5, 1.25], digits: 3)
        #expect(counts == [3, 0, -2])
        #expect([3, 0, -2] == counts)
        #expect(counts != [3, 0])
        #expect(counts != [3, 0, .fixed(-2, 0)], "an integer is not a number with 0 digits")
        #expect(rates == [.fixed(0.5, 3), .fixed(1.25, 3)])
        #expect(rates != .numbers([0.5, 1.25], digits: 4))
        #expect(ReportValue.numbers([.nan], digits: 1) != .numbers([.nan], digits: 1), "NaN is unequal to itself, packed or not")
        #expect(ReportValue.integers([]) == .numbers([], digits: 2), "two empty lists")
        let document: ReportValue = ["load": ["requests": counts, "rates": rates]]
        #expect(document.lookup("load.requests.2") == .int(-2))
        #expect(document.lookup("load.rates.1") == .number(1.25, digits: 3))
        #expect(document.lookup("load.requests.3") == nil)
        #expect(document.lookup("load.requests.+1") == nil)
        #expect(document.lookup("load.requests.1.x") == nil)
        #expect(counts.arrayValue == [.int(3), .int(0), .int(-2)])
        #expect(counts.arrayCount == 3 && rates.arrayCount == 2 && ReportValue.int(1).arrayCount == nil)
        #expect(rates.doublesValue == [0.5, 1.25])
        #expect(counts.integersValue == [3, 0, -2])
        #expect(ReportValue.array([1, "x"]).integersValue == [1, 0])
        #expect(ReportValue.array([1, "x"]).doublesValue == [1, 0])
    }
}
