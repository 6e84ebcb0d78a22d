import Testing
@testable import Reports
@testable import Simulation

/// "Requests by cause" draws one line per load cause: the charts' palette has a colour
/// for each (docs/report.md, "Charts").
@Suite struct CauseColourTests {
    @Test func thePaletteHasAColourForEveryLoadCause() {
        #expect(LoadCause.names.count <= ReportSVG.palette.count, "\(LoadCause.names.count) causes, \(ReportSVG.palette.count) colours")
    }
}
