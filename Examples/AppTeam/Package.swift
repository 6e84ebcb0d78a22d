// swift-tools-version: 6.0
// An app team's package: its own refresh logic, run by FleetSim through its runner
// `appteam-sim` (docs/harness.md, "The example app package").
import Foundation
import PackageDescription

// A package met by path is known by its directory's name (the clone's), which this
// manifest cannot assume; an app pins FleetSim by URL and tag instead
// (.package(url: "https://example.com/fleetsim.git", exact: "0.2.0"), package: "fleetsim").
let fleetSim = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.lastPathComponent

let package = Package(
    name: "AppTeam",
    products: [.executable(name: "appteam-sim", targets: ["appteam-sim"])],
    dependencies: [.package(path: "../..")],
    targets: [
        .target(name: "AppTeamLogic", dependencies: [.product(name: "AppLogic", package: fleetSim),
                                                    .product(name: "FleetSimKit", package: fleetSim)]),
        .executableTarget(name: "appteam-sim", dependencies: ["AppTeamLogic", .product(name: "FleetSimCLI", package: fleetSim)]),
    ],
    swiftLanguageModes: [.v6]
)
