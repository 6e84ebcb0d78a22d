import Foundation
import Testing
import Scenario
@testable import Simulation
@testable import FleetSimCLI

/// The pages that name the invariants and the variants agree with the build: every
/// violation kind is named in docs/sources.md's "judged by" column and every name there
/// is a kind; docs/scenario.md's and docs/known-bugs.md's variant tables list every
/// variant with the kind that catches it.
@Suite struct VariantDocsTests {
    static func page(_ name: String) throws -> String {
        try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/\(name)"), encoding: .utf8)
    }

    /// The table rows of a page, split into cells (the header and rule rows dropped).
    static func rows(_ text: String) -> [[String]] {
        text.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.hasSuffix(" |") }.map { line in
            line.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// The names in backquotes in a cell that look like an invariant (`lowerCamelCase`).
    static func kindNames(_ cell: String) -> [String] {
        cell.components(separatedBy: "`").enumerated().compactMap { k, part in
            k % 2 == 1 && part.first?.isLowercase == true && part.allSatisfy({ $0.isLetter || $0.isNumber }) ? part : nil
        }
    }

    @Test func sourcesNamesEveryKindAndOnlyKinds() throws {
        let judged = Self.rows(try Self.page("sources.md")).filter { $0.count == 3 && $0[2] != "judged by" }.flatMap { Self.kindNames($0[2]) }
        let kinds = Set(ViolationKind.allCases.map(\.rawValue))
        for name in judged { #expect(kinds.contains(name), "docs/sources.md names `\(name)`, which is no violation kind") }
        for kind in kinds.sorted() { #expect(judged.contains(kind), "docs/sources.md: no rule is judged by `\(kind)`") }
    }

    /// docs/scenario.md: `| variant | the bug | caught as | scenario |`; docs/known-bugs.md:
    /// `| variant | caught as | ... |`. Each variant once, with its kind.
    @Test(arguments: [("scenario.md", 2), ("known-bugs.md", 1)])
    func variantTablesListEveryVariant(_ page: String, _ kindColumn: Int) throws {
        let features = ["refresh", "stepSync", "push", "continuation"]
        let rows = Self.rows(try Self.page(page)).filter { row in
            let name = row[0].split(separator: "`").first.map(String.init) ?? ""
            return row[0] == "`\(name)`" && features.contains(String(name.prefix { $0 != "." })) && row.count > kindColumn
        }
        let listed = rows.map { $0[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
        #expect(listed.sorted() == ReferenceLogics.variantNames.sorted(), "docs/\(page)'s variant table")
        for row in rows {
            let variant = row[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            #expect(row[kindColumn] == "`\(ReferenceLogics.variantKinds[variant] ?? "?")`", "docs/\(page): \(variant)")
        }
    }

    /// The count of variants the README and docs/known-bugs.md state.
    @Test func statedCountsAreTheCatalogs() throws {
        let n = ReferenceLogics.variantNames.count
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("the \(n) known-bug variants"))
        let page = try Self.page("known-bugs.md")
        #expect(page.contains("with \(n) known bugs"))
        #expect(page.contains("Each of the \(n) known-bug variants"))
    }
}
