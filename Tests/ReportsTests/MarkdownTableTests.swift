import Testing
import Reports

@Suite struct MarkdownTableTests {
    @Test func padsEscapesAndAligns() {
        let text = MarkdownTable.render(
            header: ["Metric", "p50", "p95"],
            rows: [["latency", "1.5", "12.25"], ["a|b", "x\ny"]],
            alignments: [.left, .right, .right])
        #expect(text == """
            | Metric  | p50 |   p95 |
            |---------|----:|------:|
            | latency | 1.5 | 12.25 |
            | a\\|b    | x y |       |

            """)
    }

    @Test func centersAndWidensToTheLongestRow() {
        let text = MarkdownTable.render(header: ["k"], rows: [["ab", "extra"]], alignments: [.center, .center])
        #expect(text == """
            |  k  |       |
            |:---:|:-----:|
            | ab  | extra |

            """)
    }

    @Test func noColumnsIsEmpty() {
        #expect(MarkdownTable.render(header: [], rows: []) == "")
        #expect(MarkdownTable.render(header: [], rows: [[]]) == "")
    }

    @Test func countsCharactersNotBytes() {
        let text = MarkdownTable.render(header: ["é", "x"], rows: [["😀😀😀😀", "1"]])
        #expect(text.split(separator: "\n").first == "| é    | x   |")
    }
}
