import Foundation
import Testing

/// How far the features reach into the rest of the simulation (docs/architecture.md,
/// "Where each kind of change goes"), measured on Sources/Simulation as it is: per
/// feature, the files outside its own folder (Features/<F>/) and Oracle/ that name it,
/// and the files that extend `World`. Each count must stay at or under its ceiling, the
/// value when the ceiling was last set: a change that names a feature in one more file,
/// or adds an `extension World` file, fails here; one that removes names lowers the
/// ceiling with it.
///
/// A file names a feature when its text, comments included, contains one of the
/// feature's words, case-insensitively: what `grep -il` finds once the OS's names below
/// are taken out, so the counts are the ones a reader reproduces by hand. An OS's own
/// API names are the OS's words, not the feature's, and are taken out of the text first: `BGAppRefreshTask`, "Background App
/// Refresh" (`backgroundAppRefresh`) and `backgroundRefreshStatus` are iOS's task and setting
/// (any feature may ride them); the scenario key `ios.refreshRunLimit` and the load cause
/// `refreshLaunch`, names users rely on, are iOS's limit on that task's runs and its
/// launch (in prose "refresh launch"); and FCM's `onTokenRefresh` and a "token refresh" are the push provider's
/// token rotation, so none of them names the refresh feature; HealthKit, the OS's health
/// store, is not the step sync's word either. The same file still counts when it also
/// names the feature itself ("the refresh" beside `BGAppRefreshTask`).
@Suite struct ArchitectureTests {
    /// A feature: its folder under Features/, the words that name it, and the most files
    /// outside its folder and Oracle/ that may name it.
    struct Feature: CustomStringConvertible {
        let folder: String
        let words: [String]
        let ceiling: Int
        /// The OS's API names that contain one of `words` (lowercased), taken out of a
        /// file's text before matching.
        var osWords: [String] = []
        var description: String { folder }
    }

    /// Each ceiling is 3: the fan-outs (Features/Features.swift), the declarations' tables
    /// (Features/FeatureDeclarations.swift) and the logic set, which names one logic per
    /// feature (LogicSet.swift); the badge's third is the refresh's planted badge bug.
    static let features = [
        Feature(folder: "Refresh", words: ["refresh"], ceiling: 3,
                osWords: ["bgapprefreshtask", "background app refresh", "backgroundapprefresh", "backgroundrefreshstatus", "refreshrunlimit",
                          "refreshlaunch", "refresh launch", "ontokenrefresh", "token refresh"]),
        // Its name in each spelling the code uses, and the stems of its identifiers
        // (`stepRetry`, `stepWake`, `stepWork`, `stepsReadFrom`).
        Feature(folder: "StepSync", words: ["stepsync", "step sync", "step-sync", "syncsteps", "stepretry", "stepwake", "stepwork", "stepsread"],
                ceiling: 3),
        Feature(folder: "Continuation", words: ["continuation"], ceiling: 3),
        // iOS's setting for a background notification that reaches a running app
        // (`ios.foregroundSilentPush`) is the OS's, as `ios.refreshRunLimit` is.
        Feature(folder: "Push", words: ["push"], ceiling: 3, osWords: ["foregroundsilentpush"]),
        Feature(folder: "Badge", words: ["badge"], ceiling: 3),
        Feature(folder: "Diagnostics", words: ["diagnostics"], ceiling: 3),
    ]

    /// The modules that hold no feature (docs/architecture.md, "A feature's report" and
    /// "Where each kind of change goes"): a feature's report section, battery columns,
    /// tail clauses, merge rules and schema, the violation kinds and names of its logic's
    /// known bugs, and its scenario sections (its keys under `logic`, under a cohort and
    /// at the top level, their decoders and defaults) come from its folder through the
    /// world's declarations (``World/reportSections``, ``LogicSet/variantKinds``,
    /// ``World/scenarioVocabulary``, which the CLI's `Engine` hands the commands and the
    /// decoder), so no file here names one, comments included. The ceiling is the most
    /// files that may.
    static let featureFreeModules: [(module: String, ceiling: Int)] = [("Scenario", 0), ("Reports", 0), ("FleetSimCLI", 0)]

    /// The backend's push service, a resource of the backend model (Sources/Backend, beside
    /// the API's workers) that `plan --push` sizes and `whatif` replays: its keys
    /// (`backend.pushes.*` in a report, also as a path's components, `backend.push.*` in a
    /// scenario), its streams, queue, concurrency, sends, refusals and providers, its load
    /// series' rate unit and the option that sizes it. These name the backend's capacity, not the push feature's
    /// pipeline (what it sends, when, to whom), and are taken out of Reports' and the
    /// CLI's text before matching; the feature's own keys (`push.sends`) still count.
    /// APNs and FCM, the platforms' delivery services, are the OS's and the backend's
    /// words, as the OS's API names above are: never a feature's in any folder. In the
    /// scenario's backend section the service is the `push` key, its case and its type
    /// (`PushBackendConfig`, "a push backend object").
    static let backendPushWords = [#"case "push": backend\.push"#, #""authtokenlifetime", "push""#, #"var push: pushbackendconfig"#,
                                   #"backend\.push"#, #""pushes""#, #"\.push\.(concurrency|queuelimit)"#,
                                   #"push[-\s]*(stream|concurren|queue|service|provider|send|capacity|rejected|backend)"#,
                                   #"push: (peak concurrent|most streams)"#, #"no push was refused"#, #"push/s"#, #"hasprefix\("push"\)"#,
                                   #"--push(?![-\w])"#, #"flag\("push""#, #"contains\("push"\)"#]

    /// Every Swift file under Sources/`module`: its path from there and its text,
    /// lowercased, with the backend's push words taken out.
    static func moduleSources(_ module: String) throws -> [(path: String, text: String)] {
        let root = Fixtures.packageRoot.appendingPathComponent("Sources/\(module)").standardizedFileURL.path + "/"
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [(path: String, text: String)] = []
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            files.append((relative, withoutBackendPushWords(try String(contentsOfFile: root + relative, encoding: .utf8).lowercased())))
        }
        return files.sorted { $0.path < $1.path }
    }

    static func withoutBackendPushWords(_ text: String) -> String {
        backendPushWords.reduce(text) { $0.replacingOccurrences(of: $1, with: " ", options: .regularExpression) }
    }

    @Test(arguments: featureFreeModules.map(\.module)) func noFeatureIsNamedInTheModulesThatHoldNone(_ module: String) throws {
        let files = try Self.moduleSources(module)
        #expect(files.count > 20, "Sources/\(module) not found")
        let naming = Self.features.flatMap { feature in
            files.filter { Self.names(feature, $0.text) }.map { "\($0.path) (\(feature))" }
        }
        let ceiling = Self.featureFreeModules.first { $0.module == module }!.ceiling
        #expect(naming.count <= ceiling, "Sources/\(module) names a feature in \(naming.count) files (ceiling \(ceiling)): \(naming)")
    }

    /// The backend's push words go, the feature's stay: its keys, its pipeline in prose.
    @Test func theBackendsPushServiceIsNotThePushFeature() {
        let push = Self.features.first { $0.folder == "Push" }!
        for backend in ["r.lookup(\"backend.pushes.apns.saturated\")", "the apns push service saturated", "\\(h.streams) push streams",
                        ".valued(\"push-concurrency\", \"list\")", "knob.pushconcurrency", "fleetsim plan capacity.json --push",
                        "(apns, fcm) per provider", "s.backend.push.concurrency = value",
                        "case \"push\": backend.push = try pushservice(child)", "public var push: pushbackendconfig = .defaults",
                        "\"a push backend object, e.g. {\\\"concurrency\\\": 1000}\""] {
            #expect(!Self.names(push, Self.withoutBackendPushWords(backend)), "\(backend)")
        }
        for feature in ["r.lookup(\"push.sends\")", "the push pipeline holds it", "latency.pushcreatedtodelivered.high", "pushhost",
                        "--push-notes", "per push", "case \"push\": cohort.push = try pushusage.decode(child)", "var push: pushusage"] {
            #expect(Self.names(push, Self.withoutBackendPushWords(feature)), "\(feature)")
        }
    }

    /// The most files that may hold an `extension World` (of `World` itself, not
    /// `WorldCore` or `WorldEvent`).
    static let worldExtensionsCeiling = 10

    static let simulation = Fixtures.packageRoot.appendingPathComponent("Sources/Simulation")

    /// Every Swift file under Sources/Simulation: its path from there and its text, lowercased.
    static func sources() throws -> [(path: String, text: String)] {
        try originalSources().map { (path: $0.path, text: $0.text.lowercased()) }
    }

    /// The files outside `feature`'s folder and Oracle/ that name it.
    static func naming(_ feature: Feature, in files: [(path: String, text: String)]) -> [String] {
        files.filter { file in
            !file.path.hasPrefix("Features/\(feature.folder)/") && !file.path.hasPrefix("Oracle/")
                && names(feature, file.text)
        }.map(\.path)
    }

    /// Whether `text` (lowercased) names `feature` once the OS's words are taken out.
    static func names(_ feature: Feature, _ text: String) -> Bool {
        var rest = text
        for word in feature.osWords { rest = rest.replacingOccurrences(of: word, with: " ") }
        return feature.words.contains { rest.contains($0) }
    }

    /// Whether `text` (lowercased) extends `World` itself.
    static func extendsWorld(_ text: String) -> Bool {
        var rest = Substring(text)
        while let found = rest.range(of: "extension world") {
            rest = rest[found.upperBound...]
            guard let next = rest.first, next.isLetter || next.isNumber || next == "_" else { return true }
        }
        return false
    }

    @Test(arguments: features) func eachFeatureIsNamedInAtMostItsCeilingOfFilesOutsideItsFolder(_ feature: Feature) throws {
        let files = try Self.sources()
        #expect(files.count > 50, "Sources/Simulation not found at \(Self.simulation.path)")
        let naming = Self.naming(feature, in: files)
        #expect(naming.count <= feature.ceiling, "\(feature) is named in \(naming.count) files outside Features/\(feature.folder)/ and Oracle/ (ceiling \(feature.ceiling)): \(naming)")
    }

    @Test func atMostTheCeilingOfFilesExtendWorld() throws {
        let extending = try Self.sources().filter { Self.extendsWorld($0.text) }.map(\.path)
        #expect(!extending.isEmpty)
        #expect(extending.count <= Self.worldExtensionsCeiling, "\(extending.count) files extend World (ceiling \(Self.worldExtensionsCeiling)): \(extending)")
    }

    /// Every method under Sources/Simulation that takes the core `inout` is `mutating` or
    /// `static`: called on a host or the world its caller holds `inout`, a non-mutating
    /// one makes Swift copy the whole struct (a host 350-1,400 bytes, the world 4,768)
    /// and retain its arrays first, at every call (docs/performance.md#no-whole-world-copies).
    @Test func methodsThatTakeTheCoreInoutAreMutating() throws {
        let files = try Self.sources()
        #expect(files.count > 50, "Sources/Simulation not found at \(Self.simulation.path)")
        let offending = files.flatMap { file in Self.nonMutatingTakersOfTheCore(file.text).map { "\(file.path): \($0)" } }
        #expect(offending.isEmpty, "non-mutating methods taking `core: inout WorldCore`: \(offending)")
    }

    /// The names of the functions declared in `text` (lowercased) that take
    /// `core: inout worldcore` with neither `mutating` nor `static` before `func`.
    static func nonMutatingTakersOfTheCore(_ text: String) -> [String] {
        let declaration = try! NSRegularExpression(pattern: #"(?m)^([^\n]*?)\bfunc\s+(\w+)(?:<[^>]*>)?\(([^{]*?)\)[^{()]*\{"#)
        let ns = text as NSString
        return declaration.matches(in: text, range: NSRange(location: 0, length: ns.length)).compactMap { m in
            let modifiers = ns.substring(with: m.range(at: 1)), parameters = ns.substring(with: m.range(at: 3))
            guard parameters.contains("core: inout worldcore"), !modifiers.contains("mutating"), !modifiers.contains("static") else { return nil }
            return ns.substring(with: m.range(at: 2))
        }
    }

    /// The checkers (Oracle/) cannot write the model, by type (docs/architecture.md, "The
    /// oracle"): none takes the core `inout`, and none is `mutating` on the core or a
    /// feature host; they take the core `borrowing` and a host as `self` read-only, and
    /// write only the oracle's own state (``WorldCore/oracle``) and its checkers' types.
    @Test func theCheckersTakeTheModelReadOnly() throws {
        let root = Self.simulation.appendingPathComponent("Oracle")
        let files = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix("Checker.swift") }.sorted()
        #expect(files.count >= 8, "Oracle/*Checker.swift not found at \(root.path)")
        let offending = try files.flatMap { name in
            Self.modelWriters(try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)).map { "\(name): \($0)" }
        }
        #expect(offending.isEmpty, "checkers that could write the model: \(offending)")
    }

    /// The functions declared in `text` that could write the model: any that takes
    /// `inout WorldCore`, and the `mutating` ones of an extension of `WorldCore` or of a
    /// host (a type named `...Host`). A checker's own types (its per-device entries, the
    /// oracle's zones) keep their `mutating` methods.
    static func modelWriters(_ text: String) -> [String] {
        var model = false, declared = "", found: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let m = line.firstMatch(of: #/^(?:extension|struct|enum|final class|class)\s+(\w+)/#) {
                model = m.1 == "WorldCore" || m.1.hasSuffix("Host")
            }
            if let m = line.firstMatch(of: #/\bfunc\s+(\w+)/#) {
                declared = String(m.1)
                if model, line.contains(#/\bmutating\s/#) { found.append(declared) }
            }
            if line.contains("inout WorldCore"), found.last != declared { found.append(declared) }
        }
        return found
    }

    /// The vocabularies a new feature used to extend stay open (docs/architecture.md,
    /// "Adding a feature, counted again"): Oracle/Oracle.swift declares no rule (each
    /// feature's are static members beside its checks, as the one shown here is), and
    /// Sources/Scenario builds no `Feature` (the world's list names them).
    @Test func noRuleIsDeclaredInTheOracleAndNoFeatureInTheScenario() throws {
        let member = #/static var \w+: ViolationKind\b/#
        let files = try Self.originalSources()
        let oracle = try #require(files.first { $0.path == "Oracle/Oracle.swift" })
        let code = oracle.text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
        #expect(!code.contains { $0.contains(member) }, "Oracle/Oracle.swift declares a rule")
        let checkers = files.filter { $0.path.hasPrefix("Oracle/") && $0.path.hasSuffix("Checker.swift") }
        #expect(checkers.contains { $0.text.contains(member) }, "no checker declares its rules: the scan looks for the wrong thing")
        let scenario = Fixtures.packageRoot.appendingPathComponent("Sources/Scenario").standardizedFileURL.path + "/"
        let names = try FileManager.default.contentsOfDirectory(atPath: scenario).filter { $0.hasSuffix(".swift") }
        #expect(names.count >= 10, "Sources/Scenario not found at \(scenario)")
        let building = try names.filter { try String(contentsOfFile: scenario + $0, encoding: .utf8).contains("Feature(") }
        #expect(building.isEmpty, "Sources/Scenario builds a Feature: \(building)")
    }

    /// The modules an app's logic builds on import nothing of the simulator
    /// (docs/architecture.md, "An app's own logic"): the contract imports Foundation
    /// alone (the time zones of its calendar), and the reference logic the contract and
    /// Foundation; neither may reach SimKernel, Platform, Scenario or Simulation.
    @Test(arguments: [("AppLogicContract", ["Foundation"]), ("AppLogic", ["Foundation", "AppLogicContract"])])
    func theLogicModulesImportNothingOfTheSimulator(_ module: String, _ allowed: [String]) throws {
        let root = Fixtures.packageRoot.appendingPathComponent("Sources/\(module)").standardizedFileURL.path + "/"
        let walker = try #require(FileManager.default.enumerator(atPath: root))
        var imports: Set<String> = [], files = 0
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            files += 1
            imports.formUnion(Self.imports(try String(contentsOfFile: root + relative, encoding: .utf8)))
        }
        #expect(files >= 5, "Sources/\(module) not found at \(root)")
        #expect(imports.subtracting(allowed).isEmpty, "Sources/\(module) imports \(imports.subtracting(allowed).sorted())")
    }

    /// The modules `text` (Swift) imports, `@_exported` and `@testable` ones included.
    static func imports(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard let at = words.firstIndex(of: "import"), words[..<at].allSatisfy({ $0.hasPrefix("@") }), at + 1 < words.count else { return nil }
            return String(words[at + 1])
        }
    }

    @Test func theImportScanReadsEachImportLine() {
        #expect(Self.imports("import Foundation\n@_exported import AppLogicContract\n// import SimKernel\nlet important = 1") == ["Foundation", "AppLogicContract"])
    }

    /// The judges compute local days and clock readings with the oracle's own code
    /// (``OracleZone``), never with the calendars the app and the model share:
    /// AppLogic's `LocalCalendar` and `LocalTime`, and the world's helpers built on them
    /// (docs/architecture.md, "Which data flows where": the oracle). A bug there would move the truth with the
    /// logic and hide from the judge.
    @Test func theOracleReadsNoCalendarOfTheLogic() throws {
        let oracle = try Self.originalSources().filter { $0.path.hasPrefix("Oracle/") }
        #expect(oracle.count >= 10, "Sources/Simulation/Oracle not found at \(Self.simulation.path)")
        let offending = oracle.flatMap { file in Self.logicCalendarUses(file.text).map { "\(file.path): \($0)" } }
        #expect(offending.isEmpty, "Oracle/ reads the logic's calendar: \(offending)")
    }

    /// The names of the logic's calendar, and of the world's helpers that read it, that
    /// `text` (Swift, as written) uses outside its comments.
    static let logicCalendarNames = ["LocalCalendar", "LocalTime", "localTime", "userLocalTime", "localZones", "calendars",
                                     "deviceDays", "DeviceDays", "trueSteps", "healthData"]

    static func logicCalendarUses(_ text: String) -> [String] {
        let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
        }.joined(separator: "\n")
        return logicCalendarNames.filter { name in
            code.range(of: "\\b\(name)\\b", options: .regularExpression) != nil
        }
    }

    /// Every Swift file under Sources/Simulation: its path from there and its text as written.
    static func originalSources() throws -> [(path: String, text: String)] {
        let root = simulation.standardizedFileURL.path + "/"
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [(path: String, text: String)] = []
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            files.append((relative, try String(contentsOfFile: root + relative, encoding: .utf8)))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The calendar scan's matcher: a use in code counts, whole words only, a comment's
    /// mention does not, and the oracle's own zones pass.
    @Test func theCalendarScanFindsUsesInCodeOnly() {
        #expect(Self.logicCalendarUses("let home = core.calendars[Int(zone)]") == ["calendars"])
        #expect(Self.logicCalendarUses("let t = WorldCore.localTime(now, calendar: c, startUnixSeconds: s)") == ["localTime"])
        #expect(Self.logicCalendarUses("let truth = health.trueSteps(user: u, from: a, to: b, home: h, startUnixSeconds: s)") == ["trueSteps"])
        #expect(Self.logicCalendarUses("let zone: LocalCalendar = x; let l = LocalTime(unix: 0)") == ["LocalCalendar", "LocalTime"])
        #expect(Self.logicCalendarUses("/// never the logic's `LocalCalendar`\nlet d = core.oracle.zones[z].wall(unix).day // not localTime") == [])
        #expect(Self.logicCalendarUses("let d = oracleDeviceDay(i, at: t); let cal = calendarMovedAt; let n = localTimeZoneCount") == [])
    }

    /// The measure itself: a file counts once however often it names a feature, in any
    /// case, and only outside the feature's folder and Oracle/; an OS's API name alone
    /// does not count, the feature's word beside it does.
    @Test func theMeasureCountsFilesThatNameAFeatureOutsideItsFolder() {
        let push = Feature(folder: "Push", words: ["push"], ceiling: 0)
        let files = [("Core/A.swift", "// a push, another push"), ("Core/B.swift", "pushhost.section()"),
                     ("Features/Push/PushHost.swift", "push"), ("Oracle/PushChecker.swift", "push"),
                     ("Features/Refresh/RefreshHost.swift", "the push"), ("Core/C.swift", "refresh")]
            .map { (path: $0.0, text: $0.1.lowercased()) }
        #expect(Self.naming(push, in: files) == ["Core/A.swift", "Core/B.swift", "Features/Refresh/RefreshHost.swift"])
        // An OS's API name does not name the feature; the feature's own word beside it does.
        let refresh = Self.features.first { $0.folder == "Refresh" }!
        let os = [("OS/iOS/A.swift", "// the app's `BGAppRefreshTask` (Background App Refresh on)"),
                  ("OS/iOS/B.swift", "if status.backgroundRefreshStatus == .available { submit(BGAppRefreshTaskRequest()) }"),
                  ("Features/Push/C.swift", "FCM calls `onTokenRefresh`"),
                  ("OS/iOS/D.swift", "// `BGAppRefreshTask` runs the refresh"),
                  ("Core/E.swift", "backgroundRefreshStatus; refreshWork")]
            .map { (path: $0.0, text: $0.1.lowercased()) }
        #expect(Self.naming(refresh, in: os) == ["OS/iOS/D.swift", "Core/E.swift"])
        let stepSync = Self.features.first { $0.folder == "StepSync" }!
        #expect(!Self.names(stepSync, "// a healthkit background delivery"))
        #expect(Self.names(stepSync, "// healthkit wakes the step-sync") && Self.names(stepSync, "case .stepwake:"))
        #expect(Self.extendsWorld("extension world {") && Self.extendsWorld("extension world: sendable {"))
        #expect(!Self.extendsWorld("extension worldcore {") && !Self.extendsWorld("extension worldevent {"))
        #expect(Self.extendsWorld("extension worldcore {}\nextension world {"))
        // Declarations on one line or several, generic or returning; a closure's `inout`
        // parameter is not the core's.
        let declarations = """
            func observe(_ i: Int, core: inout WorldCore) {
            @inline(__always) mutating func arm(_ d: UInt32, core: inout WorldCore) -> Bool {
            static func words(_ decision: Decision, _ core: inout WorldCore) -> String {
            private func send(user u: Int, _ id: PushSendID,
                              expiration: Instant, core: inout WorldCore) {
            func lend<R>(_ world: inout World, _ body: (inout Self, inout WorldCore) -> R) -> R {
            func read(_ i: Int, core: borrowing WorldCore) -> Bool {
            """.lowercased()
        #expect(Self.nonMutatingTakersOfTheCore(declarations) == ["observe", "send"])
        // The checkers' scan: a mutating method of the core or of a host, or any that
        // takes the core `inout`; a checker's own types keep theirs.
        let checkers = """
            extension WorldCore {
                mutating func observeOpened(_ i: Int) {
                func observeClosed(_ i: Int) {
            }
            struct RefreshChecker {
                mutating func end() {
            }
            extension PushHost {
                mutating func observeSend(user u: Int, core: borrowing WorldCore) {
                func observeHeld(user u: Int, core: borrowing WorldCore) {
                func observeLost(user u: Int,
                                 core: inout WorldCore) {
            }
            """
        #expect(Self.modelWriters(checkers) == ["observeOpened", "observeSend", "observeLost"])
    }
}
