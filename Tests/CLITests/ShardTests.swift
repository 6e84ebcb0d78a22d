import Foundation
import Testing
import Reports
import Scenario
import Simulation
@testable import FleetSimCLI

/// `run --shard`, `merge` and `scripts/run-sharded.sh` against the plain run of the same
/// build (never fixed event counts: the event queue may change). The default scenario
/// at `--scale 0.01` (100 devices) never saturates its backend (peak queue depth 0).
@Suite(.serialized) struct ShardTests {
    static let scale = ["--scale", "0.01"]

    /// One plain run and its four shards, made once for the suite.
    static let runs: Result<URL, Error> = Result {
        let dir = try CLI.temporaryDirectory()
        _ = try CLI.run(["run", "scenarios/default.json", "--out", dir.appendingPathComponent("plain").path, "--quiet"] + scale)
        for k in 0..<4 {
            _ = try CLI.run(["run", "scenarios/default.json", "--shard", "\(k)/4", "--out", dir.appendingPathComponent("s\(k)").path, "--quiet"] + scale)
        }
        return dir
    }

    /// The four shards merged in order (`merge s0 s1 s2 s3`), made once for the suite: the
    /// tests that read it compare it with the plain run, with other orders and groupings,
    /// and with a re-serialised shard (a debug-build merge takes 10-15 s; it was made five times).
    static let mergedInOrder: Result<String, Error> = Result {
        let dir = try runs.get()
        let shards = (0..<4).map { dir.appendingPathComponent("s\($0)/report.json").path }
        let out = dir.appendingPathComponent("merged").path
        let r = try CLI.run(["merge"] + shards + ["--out", out])
        guard r.status == 0 else { throw CLIFailure(message: "merge s0-s3 exited \(r.status): \(r.stdout)\(r.stderr)") }
        return out
    }

    struct CLIFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    static func json(_ path: String) throws -> JSONValue {
        try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    static func number(_ v: JSONValue, _ path: String) -> Double? {
        var value: JSONValue? = v
        for key in path.split(separator: ".") { value = value?[String(key)] }
        if case .number(let x, _)? = value { return x }
        return nil
    }

    /// The figures a merged run must share with the plain run.
    static func totals(_ v: JSONValue) -> [Double?] {
        ["simulated.devices", "simulated.events", "invariants.checked", "invariants.violations"].map { number(v, $0) }
            + (Self.byKind(v))
    }

    static func byKind(_ v: JSONValue) -> [Double?] {
        guard case .object(let members)? = v["invariants"]?["byKind"] else { return [nil] }
        return members.sorted { $0.key < $1.key }.map { member -> Double? in
            if case .number(let x, _) = member.value { return x }
            return nil
        }
    }

    @Test func shardZeroOfOneIsThePlainRunByteForByte() throws {
        let dir = try Self.runs.get()
        let whole = dir.appendingPathComponent("whole").path
        let r = try CLI.run(["run", "scenarios/default.json", "--shard", "0/1", "--out", whole, "--quiet"] + Self.scale)
        #expect(r.status == 0, "\(r.stderr)")
        let plain = try Data(contentsOf: dir.appendingPathComponent("plain/report.json"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: whole + "/report.json")) == plain)
        #expect(!String(decoding: plain, as: UTF8.self).contains("\"shard\""))
    }

    @Test func fourShardsMergedHaveThePlainRunsDevicesEventsAndInvariants() throws {
        let dir = try Self.runs.get()
        let shards = (0..<4).map { dir.appendingPathComponent("s\($0)/report.json").path }
        let shard2 = try Self.json(shards[2])
        #expect(Self.number(shard2, "simulated.shard.index") == 2 && Self.number(shard2, "simulated.shard.count") == 4)
        let out = try Self.mergedInOrder.get()
        let merged = try Self.json(out + "/report.json")
        let plain = try Self.json(dir.appendingPathComponent("plain/report.json").path)
        #expect(Self.totals(merged) == Self.totals(plain))
        // Every device delivered the same events as in the plain run: the event-stream
        // hashes (summed over devices, by cohort and by bucket) merge to the plain run's.
        for key in ["total", "devices", "fleet", "byCohort", "byBucket"] {
            #expect(merged["events"]?["hash"]?[key] == plain["events"]?["hash"]?[key], "events.hash.\(key)")
        }
        #expect(merged["simulated"]?["shard"] == nil)
        for name in ["report.md", "report.html", "junit.xml"] { #expect(FileManager.default.fileExists(atPath: out + "/" + name)) }
    }

    /// junit.xml's time is wall time (the simulated 7 days read as a 7-day test): a
    /// shard's its own run's, the merge's the sum of the shards' (read from the
    /// junit.xml beside each report), said in a property, with the simulated start and
    /// duration as properties.
    @Test func junitTimeIsWallTimeAndAMergesIsTheSumOfItsRuns() throws {
        let dir = try Self.runs.get()
        func suite(_ path: String) throws -> (time: Double, timestamp: String?, text: String) {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let head = String(try #require(text.components(separatedBy: "<testsuite ").dropFirst().first?.prefix { $0 != ">" }))
            func attribute(_ name: String) -> String? { head.components(separatedBy: " \(name)=\"").dropFirst().first?.components(separatedBy: "\"").first }
            return (try #require(attribute("time").flatMap(Double.init)), attribute("timestamp"), text)
        }
        let shards = try (0..<4).map { try suite(dir.appendingPathComponent("s\($0)/junit.xml").path) }
        for s in shards {
            #expect(s.time > 0 && s.time < 600, "wall seconds, not the simulated 604,800: \(s.time)")
            #expect(s.timestamp?.count == 19 && s.timestamp! > "2026-01-01", "\(s.timestamp ?? "none")")
            #expect(s.text.contains("<property name=\"wallTime\" value=\"this run&apos;s wall time\"/>"))
            #expect(s.text.contains("<property name=\"simulated.duration\" value=\"604800.000\"/>"))
        }
        let merged = try suite(try Self.mergedInOrder.get() + "/junit.xml")
        #expect(abs(merged.time - shards.reduce(0) { $0 + (($1.time * 1000).rounded() / 1000) }) < 0.0015, "\(merged.time)")
        #expect(merged.timestamp == shards.compactMap(\.timestamp).min())
        #expect(merged.text.contains("<property name=\"wallTime\" value=\"the sum of the wall times of the 4 merged runs (the junit.xml beside each report)\"/>"))
        // report.json has no wall time: the shard's report is the same bytes run again.
        let report = try String(contentsOfFile: dir.appendingPathComponent("s0/report.json").path, encoding: .utf8)
        #expect(!report.contains("wallTime") && !report.contains("\"timestamp\""))
    }

    /// `"tieBreak": "shuffle"`: ties keyed per event (Core/TieKeys) order a shard's devices'
    /// events as the plain run does, so two shards merged have the plain run's devices,
    /// events, invariants and event hashes, as with fifo (the same unsaturated fleet).
    @Test func shuffledShardsMergedAreThePlainRun() throws {
        let dir = try CLI.temporaryDirectory()
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("scenarios/default.json"), encoding: .utf8)
        #expect(text.contains(#""tieBreak": "fifo""#))
        let scenario = try CLI.write(text.replacingOccurrences(of: #""tieBreak": "fifo""#, with: #""tieBreak": "shuffle""#), to: "shuffled.json", in: dir)
        let plain = dir.appendingPathComponent("plain").path
        #expect(try CLI.run(["run", scenario, "--out", plain, "--quiet"] + Self.scale).status == 0)
        for k in 0..<2 { _ = try CLI.run(["run", scenario, "--shard", "\(k)/2", "--out", dir.appendingPathComponent("s\(k)").path, "--quiet"] + Self.scale) }
        let out = dir.appendingPathComponent("merged").path
        let m = try CLI.run(["merge", dir.appendingPathComponent("s0/report.json").path, dir.appendingPathComponent("s1/report.json").path, "--out", out])
        #expect(m.status == 0, "\(m.stderr)")
        let merged = try Self.json(out + "/report.json"), whole = try Self.json(plain + "/report.json")
        #expect(Self.totals(merged) == Self.totals(whole))
        #expect(merged["invariants"] == whole["invariants"])
        for key in ["total", "devices", "fleet", "byCohort", "byBucket"] {
            #expect(merged["events"]?["hash"]?[key] == whole["events"]?["hash"]?[key], "events.hash.\(key)")
        }
    }

    @Test func mergeIsOrderIndependentByteForByte() throws {
        let dir = try Self.runs.get()
        let shards = (0..<4).map { dir.appendingPathComponent("s\($0)/report.json").path }
        let a = try Self.mergedInOrder.get(), b = dir.appendingPathComponent("order-b").path
        _ = try CLI.run(["merge", shards[3], shards[1], shards[0], shards[2], "--out", b])
        let first = try Data(contentsOf: URL(fileURLWithPath: a + "/report.json"))
        #expect(!first.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: b + "/report.json")) == first)
    }

    /// The keys whose merged value may differ from the plain run's even when the backend
    /// never saturates: peaks of concurrency within a bucket (busy workers, open push
    /// streams, queue depths), and the label that says so (`peaksAre`). The plain run's
    /// peak is that of the shards' sum at one instant, which the shards' own per-bucket
    /// peaks bound from below (their largest, what merge writes) and, while no request
    /// waits, from above (their sum, the `…UpperBound` keys). Utilisation and headroom
    /// come from busy time, which adds up: they are not here.
    static let concurrencyPeaks = [
        "backend.load.apiBusyWorkersPeak", "backend.load.apiBusyWorkersPeakUpperBound", "backend.load.peaksAre",
        "backend.load.peak.busyWorkers", "backend.load.peak.busyWorkersUpperBound",
        "backend.load.pushConcurrentPeak.*", "backend.load.pushConcurrentPeakUpperBound.*", "backend.load.pushQueueDepthPeak.*",
        "backend.peakQueueDepth", "backend.pushes.*.peakConcurrent", "backend.pushes.*.peakConcurrentUpperBound", "backend.pushes.*.peakQueueDepth",
    ].map { $0.split(separator: ".").map(String.init) }

    /// The busiest second's mix: a merge knows it only when the shards' own busiest seconds
    /// account for all its requests; otherwise it reports its minute's (`mixOf` "minute",
    /// docs/scale.md), which depends on where the shards' peaks fall.
    static let peakSecondMix = [
        "backend.load.peakSecond.byCause.*", "backend.load.peakSecond.byEndpoint.*",
        "backend.load.peakSecond.cause", "backend.load.peakSecond.mixOf",
    ].map { $0.split(separator: ".").map(String.init) }

    /// Every other key of the merged report is the plain run's, byte for byte: counters,
    /// latency histograms and their percentiles, per-device battery distributions and
    /// their mean, p50, p95, rates, per-device-day figures, the load series, the busiest
    /// minute and second (its mix too when the merge knows it), the p99 of seconds, hashes
    /// and samples.
    @Test func fourShardsMergedAreThePlainRunByteForByteButConcurrencyPeaks() throws {
        let dir = try Self.runs.get()
        let out = try Self.mergedInOrder.get()
        let merged = Merge.reportValue(try Self.json(out + "/report.json"))
        let plain = Merge.reportValue(try Self.json(dir.appendingPathComponent("plain/report.json").path))
        // The merged report adds the pooled backend (docs/scale.md, "One pooled backend"):
        // the shards' requests replayed through the whole capacity queue as the plain run did.
        let pooled = ["backend", "pooled"]
        #expect(ReportMerge.leafPaths(merged).filter { !$0.starts(with: pooled) } == ReportMerge.leafPaths(plain))
        #expect(ReportMerge.leafPaths(merged).contains { $0.starts(with: pooled) })
        for (mine, theirs) in [("queueing", "backend.queueing"), ("meanWait", "backend.queue.overall.meanWait"), ("pWait", "backend.queue.overall.pWait"),
                               ("peakQueueDepth", "backend.peakQueueDepth"), ("rejected", "backend.rejected"), ("unanswered", "backend.unanswered")] {
            #expect(merged.lookup("backend.pooled." + mine) == plain.lookup(theirs), "\(mine)")
        }
        let mixOfMinute = merged.lookup("backend.load.peakSecond.mixOf") == .string("minute")
        var compared = 0
        for path in ReportMerge.leafPaths(plain) {
            let m = merged.at(path), p = plain.at(path)
            if mixOfMinute, Self.peakSecondMix.contains(where: { ReportMerge.matches($0, path) }) { continue }
            if Self.concurrencyPeaks.contains(where: { ReportMerge.matches($0, path) }) {
                // The largest of the shards' peaks never exceeds the plain run's peak.
                let mv = m?.arrayValue?.compactMap(\.intValue) ?? m?.intValue.map { [$0] } ?? []
                let pv = p?.arrayValue?.compactMap(\.intValue) ?? p?.intValue.map { [$0] } ?? []
                let upper = path.contains { $0.hasSuffix("UpperBound") }
                if upper || path.last?.hasSuffix("Peak") == true || path.last?.hasPrefix("peak") == true || path.last == "busyWorkers" {
                    // No request waited (peak queue depth 0): the sum of the shards' peaks bounds the plain run's from above.
                    #expect(mv.count == pv.count && zip(mv, pv).allSatisfy { upper ? $0 >= $1 : $0 <= $1 }, "\(path.joined(separator: "."))")
                }
                continue
            }
            compared += 1
            #expect(m.map(JSONWriter.encode) == p.map(JSONWriter.encode), "\(path.joined(separator: "."))")
        }
        #expect(compared > 300)
        #expect(merged.lookup("backend.load.peaksAre") == .string("sharded: bound"))
        for key in ["battery.ios-daily.appEnergyPerDeviceDay.mAh.p95", "scheduling.launchesPerDeviceDay.android.all",
                    "push.deliveryRate", "backend.requestsPerSecond.p99", "backend.load.peakSecond.requests",
                    "backend.load.peakSecond.cause", "backend.load.peak.cause", "backend.queue.overall.meanWait"] {
            #expect(plain.lookup(key).map { $0 != .null } == true, "\(key) has data in the plain run")
        }
    }

    /// merge(merge(0, 1), merge(2, 3)) and other groupings give merge(0, 1, 2, 3) byte for byte.
    @Test func mergeIsAssociativeByteForByte() throws {
        let dir = try Self.runs.get()
        let s = (0..<4).map { dir.appendingPathComponent("s\($0)/report.json").path }
        func merge(_ inputs: [String], _ name: String, partial: Bool = false) throws -> String {
            let out = dir.appendingPathComponent(name).path
            let r = try CLI.run(["merge"] + inputs + ["--out", out] + (partial ? ["--partial"] : []))
            #expect(r.status == 0, "\(name): \(r.stderr)")
            return out + "/report.json"
        }
        let all = try Data(contentsOf: URL(fileURLWithPath: try Self.mergedInOrder.get() + "/report.json"))
        let a = try merge([s[0], s[1]], "assoc-a", partial: true), b = try merge([s[2], s[3]], "assoc-b", partial: true)
        let part = try Self.json(a)
        #expect(part["simulated"]?["shards"]?["covered"] == .array([.number(0, literal: "0"), .number(1, literal: "1")]))
        #expect(part["backend"]?["load"]?["arrivalsBySecond"] != nil && part["backend"]?["load"]?["peakSecondMixes"] != nil)
        let odd = try merge([s[3], s[1]], "assoc-odd", partial: true), even = try merge([s[2], s[0]], "assoc-even", partial: true)
        let three = try merge([s[1], s[2], s[3]], "assoc-three", partial: true)
        for (inputs, name) in [([b, a], "assoc-ab"), ([odd, even], "assoc-oe"), ([a, s[2], s[3]], "assoc-a23"), ([s[0], three], "assoc-0-three")] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: try merge(inputs, name))) == all, "\(name)")
        }
        let overlap = try CLI.run(["merge", a, s[1], s[2], s[3], "--out", dir.appendingPathComponent("refused").path])
        #expect(overlap.status == 2 && overlap.stderr.contains("are both shard 1/4"), "\(overlap.stderr)")
        let missing = try CLI.run(["merge", a, "--out", dir.appendingPathComponent("refused").path])
        #expect(missing.status == 2 && missing.stderr.contains("shards 2/4, 3/4 missing") && missing.stderr.contains("--partial"), "\(missing.stderr)")
    }

    @Test func mergeRefusesReportsThatAreNotOneRunsShards() throws {
        let dir = try Self.runs.get()
        let s = (0..<4).map { dir.appendingPathComponent("s\($0)/report.json").path }
        let plain = dir.appendingPathComponent("plain/report.json").path
        var otherSeed = try String(contentsOfFile: s[3], encoding: .utf8)
        otherSeed = otherSeed.replacingOccurrences(of: "\"seed\": 42", with: "\"seed\": 43")
        let otherSeedPath = try CLI.write(otherSeed, to: "seed43.json", in: dir)
        // A shard of FleetSim 0.1.0 drew from xoshiro256**: its devices are not this run's.
        var oldVersion = try String(contentsOfFile: s[3], encoding: .utf8)
        oldVersion = oldVersion.replacingOccurrences(of: "\"fleetsimVersion\": \"\(fleetsimVersion)\"", with: "\"fleetsimVersion\": \"0.1.0\"")
        let oldVersionPath = try CLI.write(oldVersion, to: "version010.json", in: dir)
        // A shard of another model version simulated other numbers for its devices.
        let otherModel = try String(contentsOfFile: s[3], encoding: .utf8)
            .replacingOccurrences(of: "\"modelVersion\": \(modelVersion),", with: "\"modelVersion\": \(modelVersion + 1),")
        let otherModelPath = try CLI.write(otherModel, to: "model-next.json", in: dir)
        let cases: [([String], String)] = [
            ([s[0], s[1], s[2]], "shard 3/4 missing"),
            ([s[0], s[1], s[2], s[2], s[3]], "are both shard 2/4"),
            ([s[0], s[1], s[2], otherSeedPath], "seed differs"),
            ([s[0], s[1], s[2], otherSeedPath], "fleetsim explore SCENARIO --seeds N --out DIR"),
            ([s[0], s[1], s[2], oldVersionPath], "fleetsimVersion differs (\"\(fleetsimVersion)\" vs \"0.1.0\")"),
            ([s[0], s[1], s[2], otherModelPath], "modelVersion differs (\(modelVersion) vs \(modelVersion + 1))"),
            ([plain], "has no simulated.shard"),
        ]
        for (inputs, message) in cases {
            let out = dir.appendingPathComponent("refused").path
            let r = try CLI.run(["merge"] + inputs + ["--out", out])
            #expect(r.status == 2, "\(inputs)")
            #expect(r.stderr.contains(message), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out + "/report.json"))
        }
        let different = try CLI.run(["run", "scenarios/default.json", "--shard", "0/2", "--out", dir.appendingPathComponent("half").path, "--quiet"] + Self.scale)
        #expect(different.status == 0)
        let r = try CLI.run(["merge", dir.appendingPathComponent("half/report.json").path, s[1], "--out", dir.appendingPathComponent("refused").path])
        #expect(r.status == 2 && r.stderr.contains("different shard plans"), "\(r.stderr)")
    }

    /// Shards of another --scale, other variants or a same-named scenario whose content
    /// differs are not parts of this run: each is refused, naming what differs.
    @Test func mergeRefusesShardsOfADifferentScaleVariantsOrScenarioContent() throws {
        let dir = try Self.runs.get()
        let s = (0..<3).map { dir.appendingPathComponent("s\($0)/report.json").path }
        var edited = try String(contentsOfFile: CLI.packageRoot.appendingPathComponent("scenarios/default.json").path, encoding: .utf8)
        edited = edited.replacingOccurrences(of: "\"logic\": {\"variants\": []}", with: "\"logic\": {\"variants\": [] }")
        let sameLayoutElsewhere = try CLI.write(edited, to: "default.json", in: try CLI.temporaryDirectory())
        edited = edited.replacingOccurrences(of: "\"description\": \"", with: "\"description\": \"Edited. ")
        let otherContent = try CLI.write(edited, to: "default.json", in: try CLI.temporaryDirectory())
        let cases: [(file: String, options: [String], refusal: String?)] = [
            ("scenarios/default.json", ["--scale", "0.011"], "--scale differs (\"0.01\" vs \"0.011\")"),
            ("scenarios/default.json", Self.scale + ["--variants", "refresh.noSynchronize"], "the variants run (--variants or the file's logic.variants) differs (none vs \"refresh.noSynchronize\")"),
            (otherContent, Self.scale, "the scenario file's content (its hash) differs"),
            // The same content elsewhere, laid out differently, is the same run.
            (sameLayoutElsewhere, Self.scale, nil),
        ]
        for (file, options, refusal) in cases {
            let shard = dir.appendingPathComponent("other-\(UUID().uuidString)").path
            let run = try CLI.run(["run", file, "--shard", "3/4", "--out", shard, "--quiet"] + options)
            #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
            let out = dir.appendingPathComponent("refused-\(UUID().uuidString)").path
            let r = try CLI.run(["merge"] + s + [shard + "/report.json", "--out", out])
            if let refusal {
                #expect(r.status == 2 && r.stderr.contains(refusal), "\(options): \(r.stderr)")
                #expect(!FileManager.default.fileExists(atPath: out))
            } else {
                #expect(r.status == 0, "\(r.stderr)")
            }
        }
    }

    /// A shard re-serialised by another tool (`604800` for `604800.000000`) still merges,
    /// to the same bytes.
    @Test func mergeComparesNumbersByValue() throws {
        let dir = try Self.runs.get()
        let s = (0..<4).map { dir.appendingPathComponent("s\($0)/report.json").path }
        let text = try String(contentsOfFile: s[3], encoding: .utf8)
        #expect(text.contains("\"duration\": 604800.000000"))
        // Beside the rewritten report, the shard's request log (merge replays the logs).
        let jqInput = dir.appendingPathComponent("jq-input")
        try? FileManager.default.removeItem(at: jqInput)
        try FileManager.default.createDirectory(at: jqInput, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: dir.appendingPathComponent("s3/requests.bin").path, toPath: jqInput.appendingPathComponent("requests.bin").path)
        let rewritten = try CLI.write(text.replacingOccurrences(of: "\"duration\": 604800.000000", with: "\"duration\": 604800"), to: "report.json", in: jqInput)
        let plain = try Self.mergedInOrder.get(), jq = dir.appendingPathComponent("by-value-b").path
        let r = try CLI.run(["merge", s[0], s[1], s[2], rewritten, "--out", jq])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: jq + "/report.json")) == Data(contentsOf: URL(fileURLWithPath: plain + "/report.json")))
    }

    @Test func runShardedScriptMergesThreeLocalShards() throws {
        let dir = try Self.runs.get()
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/bin/sh")
        script.arguments = ["scripts/run-sharded.sh", "3", "scenarios/default.json"] + Self.scale
        script.currentDirectoryURL = CLI.packageRoot
        let out = dir.appendingPathComponent("script").path
        script.environment = ProcessInfo.processInfo.environment.merging(["FLEETSIM": CLI.executable.path, "FLEETSIM_OUT": out]) { $1 }
        script.standardOutput = FileHandle.nullDevice
        try script.run()
        script.waitUntilExit()
        #expect(script.terminationStatus == 0)
        let merged = try Self.json(out + "/merged/report.json")
        #expect(Self.totals(merged) == Self.totals(try Self.json(dir.appendingPathComponent("plain/report.json").path)))
    }

    /// A violation found in a shard names the device by its global id, and its replay
    /// command (no --shard) shows it: the race scenario's first double completion in
    /// shard 0/2 replays from the plain scenario.
    @Test func aShardsViolationReplaysWithoutTheShard() throws {
        let out = try CLI.temporaryDirectory()
        let r = try CLI.run(["run", "scenarios/races/unguarded-completion.json", "--shard", "0/2", "--out", out.path, "--quiet"])
        #expect(r.status == 1)
        guard case .array(let samples)? = try Self.json(out.appendingPathComponent("report.json").path)["invariants"]?["samples"] else {
            Issue.record("no samples"); return
        }
        let sample = try #require(samples.first { $0["kind"] == .string("taskCompletedTwice") })
        let device = Int(try #require(Self.number(sample, "device")))
        guard case .string(let replay)? = sample["replay"] else { Issue.record("no replay command"); return }
        #expect(replay.contains("--device \(device) ") && !replay.contains("--shard"))
        let story = try CLI.run(Array(replay.split(separator: " ").map(String.init).dropFirst()))
        #expect(story.status == 1, "the story shows the violation, and replay exits as run would")
        #expect(story.stdout.contains("ORACLE: violation taskCompletedTwice"), "\(story.stdout.suffix(500))")
        #expect(story.stdout.contains("\nVIOLATION taskCompletedTwice at "), "\(story.stdout.suffix(500))")
    }

    /// A push violation's detail names the token by the device's global id, as the plain
    /// run does, not by the shard's own numbering.
    @Test func aShardsPushViolationNamesTheTokenByTheGlobalDevice() throws {
        let out = try CLI.temporaryDirectory()
        let r = try CLI.run(["run", "scenarios/races/ignore-410.json", "--shard", "1/2", "--out", out.path, "--quiet"])
        #expect(r.status == 1, "\(r.stderr)")
        guard case .array(let samples)? = try Self.json(out.appendingPathComponent("report.json").path)["invariants"]?["samples"] else {
            Issue.record("no samples"); return
        }
        let named = samples.compactMap { sample -> (Double, String)? in
            guard case .string(let detail)? = sample["detail"], let device = Self.number(sample, "device"),
                  let range = detail.range(of: #"-dev[0-9]+-"#, options: .regularExpression) else { return nil }
            return (device, String(detail[range].dropFirst(4).dropLast()))
        }
        #expect(!named.isEmpty)
        for (device, id) in named { #expect(id == String(Int(device)), "token dev\(id) on device \(Int(device))") }
    }

    /// Two variants on the noSynchronize race at seed 11: 28 `availableTestNotNotified`,
    /// 21 of them before the first of 90 `notifiedTwiceInWindow` (at 4.7 h), so the first
    /// 20 violations a report used to keep had no sample of the latter (checked with the
    /// build before samples per kind); and 338 `refreshedTooSoon`, the refreshes that the
    /// lost last-refresh time let through 4 h after the last. Every kind the run violates has a sample with its replay command,
    /// in report.json and in report.md; and two shards merged keep the plain run's samples
    /// (up to 3 of each kind, the earliest) and counts.
    @Test func everyViolatedKindHasSamplesAndShardsMergedKeepThePlainRunsOnes() throws {
        let dir = try CLI.temporaryDirectory()
        let race = ["scenarios/races/no-synchronize.json", "--seed", "11", "--variants", "refresh.noSynchronize,refresh.cadenceOffByOne", "--quiet"]
        let plain = dir.appendingPathComponent("plain").path
        #expect(try CLI.run(["run"] + race + ["--out", plain]).status == 1)
        for k in 0..<2 { _ = try CLI.run(["run"] + race + ["--shard", "\(k)/2", "--out", dir.appendingPathComponent("s\(k)").path]) }
        let merged = dir.appendingPathComponent("merged").path
        let m = try CLI.run(["merge", dir.appendingPathComponent("s0/report.json").path, dir.appendingPathComponent("s1/report.json").path, "--out", merged])
        #expect(m.status == 1, "\(m.stderr)")
        let report = try Self.json(plain + "/report.json")
        #expect(try Self.json(merged + "/report.json")["invariants"] == report["invariants"])

        guard case .object(let byKind)? = report["invariants"]?["byKind"], case .array(let samples)? = report["invariants"]?["samples"] else {
            Issue.record("no invariants"); return
        }
        let violated = byKind.filter { if case .number(let n, _) = $0.value { return n > 0 } else { return false } }.map(\.key).sorted()
        #expect(violated == ["availableTestNotNotified", "notifiedTwiceInWindow", "refreshedTooSoon"], "\(violated)")
        for kind in violated {
            let ofKind = samples.filter { $0["kind"] == .string(kind) }
            #expect((1...3).contains(ofKind.count), "\(kind)")
        }
        let markdown = try String(contentsOfFile: plain + "/report.md", encoding: .utf8)
        #expect(markdown.contains("Violations (up to 3 of each kind, the earliest, each with the command that replays it)"))
        let late = try #require(samples.first { $0["kind"] == .string("notifiedTwiceInWindow") })
        guard case .string(let replay)? = late["replay"] else { Issue.record("no replay"); return }
        #expect(replay.hasPrefix("fleetsim replay scenarios/races/no-synchronize.json --seed 11 --device "))
        #expect(markdown.contains("notifiedTwiceInWindow: 90 violation(s), 3 shown."))
        #expect(markdown.contains(replay), "\(replay)")
    }

    @Test func badShardPlansAreUsageErrors() throws {
        for text in ["4/4", "-1/4", "1/0", "x", "1/2/3"] {
            let r = try CLI.run(["run", "scenarios/default.json", "--shard", text, "--out", "/tmp/never"])
            #expect(r.status == 2 && r.stderr.contains("--shard expects K/N"), "\(text): \(r.stderr)")
        }
    }

    @Test func everyKeyOfTheDefaultReportHasAMergeRule() throws {
        let report = Merge.reportValue(try Self.json(CLI.packageRoot.appendingPathComponent("reports/baselines/default.json").path))
        let missing = ReportMerge.leafPaths(report).filter { World.mergeRules.rule(for: $0) == nil }.map { $0.joined(separator: ".") }
        #expect(missing.isEmpty, "keys without a merge rule: \(missing)")
        // A report read back and written again keeps its bytes (the merge's input model).
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("reports/baselines/default.json"), encoding: .utf8)
        #expect(JSONWriter.encode(report) == text)
    }

    /// The guard's limits read from /proc and the cgroup files: MemAvailable, the
    /// address space already mapped (for RLIMIT_AS), the cgroup path and its headroom.
    @Test func theMemoryGuardReadsEachLimit() throws {
        #expect(MemoryGuard.parse(status: "Name: x\nVmSize:\t  10240 kB\n") == 10_485_760)
        #expect(MemoryGuard.parse(cgroup: "0::/user.slice/run.scope\n") == "/user.slice/run.scope")
        #expect(MemoryGuard.parse(cgroup: "12:memory:/x\n") == nil)
        #expect(MemoryGuard.parse(cgroupMax: "1073741824\n", current: "73741824\n") == 1_000_000_000)
        #expect(MemoryGuard.parse(cgroupMax: "max\n", current: "5\n") == nil)
        #expect(MemoryGuard.parse(cgroupMax: "10\n", current: "20\n") == 0)
        // Under `ulimit -v`, the run is refused before it starts, naming the limit.
        let limited = Process()
        limited.executableURL = URL(fileURLWithPath: "/bin/sh")
        limited.arguments = ["-c", "ulimit -v 2000000 && exec \"$0\" run scenarios/default.json --scale 100 --out /tmp/never-\(UUID().uuidString)", CLI.executable.path]
        limited.currentDirectoryURL = CLI.packageRoot
        let err = Pipe()
        limited.standardError = err
        limited.standardOutput = FileHandle.nullDevice
        try limited.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        limited.waitUntilExit()
        #expect(limited.terminationStatus == 2 && text.contains("RLIMIT_AS"), "\(text)")
    }

    @Test func theMemoryGuardRefusesAboveMemAvailableWithAHintToShard() throws {
        #expect(MemoryGuard.parse(meminfo: "MemTotal: 100 kB\nMemAvailable:    2048 kB\n") == 2_097_152)
        #expect(MemoryGuard.parse(meminfo: "MemTotal: 100 kB\n") == nil)
        let scenario = try ScenarioOptions.load(CLI.packageRoot.appendingPathComponent("scenarios/default.json").path)
        let estimate = MemoryEstimate.bytes(scenario)
        #expect(throws: Never.self) { try MemoryGuard.check(scenario, shard: .whole, limit: .init(bytes: estimate, source: "MemAvailable")) }
        #expect(throws: Never.self) { try MemoryGuard.check(scenario, shard: .whole, limit: nil) }
        do {
            try MemoryGuard.check(scenario, shard: .whole, limit: .init(bytes: estimate - 1, source: "the address-space limit RLIMIT_AS, ulimit -v"))
            Issue.record("expected a refusal")
        } catch {
            guard case .input(let message) = error else { Issue.record("\(error)"); return }
            #expect(message.contains("--shard K/2") && message.contains("(the address-space limit RLIMIT_AS, ulimit -v)"), "\(message)")
        }
        // docs/scale.md shows the refusal of a hundred times the default fleet where 2,000 MB is available.
        var tenfold = scenario.scaled(by: 100)
        tenfold.sourcePath = "scenarios/default.json"
        do {
            try MemoryGuard.check(tenfold, shard: .whole, limit: .init(bytes: 2_000 << 20, source: "MemAvailable"))
            Issue.record("expected a refusal")
        } catch {
            guard case .input(let message) = error else { Issue.record("\(error)"); return }
            let docs = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/scale.md"), encoding: .utf8)
            #expect(docs.contains("$ fleetsim run scenarios/default.json --scale 100\nerror: \(message)\n"), "docs/scale.md should show: error: \(message)")
            // The refusal names what the estimate counts: the devices' part, the report's
            // series over time and the program, which add up to the total (each rounded up to a MB).
            let figures = message.split { !$0.isNumber && $0 != "," }.compactMap { Int($0) }
            #expect(message.contains(" MB for its 1,000,000 devices, ") && message.contains(" MB for the report's series over time, "), "\(message)")
            #expect(figures.count >= 4 && figures[1] + figures[2] + figures[3] >= figures[0] && figures[1] + figures[2] + figures[3] <= figures[0] + 2, "\(message)")
            #expect(figures[2] == MemoryGuard.megabytes(MemoryEstimate.reportBytes(tenfold)) && figures[3] == 32)
        }
        // A shard's devices need a quarter of the fleet's (device 0 of 4 holds the extra one);
        // every shard writes the report's series over the whole run.
        let base = MemoryEstimate.baseBytes + MemoryEstimate.reportBytes(scenario)
        let quarter = MemoryEstimate.bytes(scenario, shard: ShardPlan(index: 0, count: 4)) - base
        #expect(quarter >= (estimate - base) / 4 && quarter < (estimate - base) / 4 + MemoryEstimate.bytesPerDevice(androidShare: 1, days: 7))
    }
}
