// swift-tools-version: 6.2
// FleetSim: a deterministic discrete-event simulator of a fleet of phones.
// No package dependencies, by design (toolchain only).
import PackageDescription

/// Cross-module optimisation in release builds: each module's function bodies, generic
/// ones included, go into its interface, so that a package depending on FleetSim (an app
/// team's runner, with its own logic set) specialises `World<ItsLogics>` in its own module
/// as the `fleetsim` binary's reference world is (docs/harness.md, "Your runner's speed").
/// `-enable-testing` gives internal declarations public symbols: the optimisation then
/// serialises internal functions, and the witness tables of internal conformances (a
/// feature host's), which a runner needs to call a host's code directly rather than
/// through its unspecialised generic witness. SwiftPM accepts these flags in a
/// dependency from tools version 6.2 on.
let crossModule: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization", "-enable-testing"], .when(configuration: .release))]

let package = Package(
    name: "FleetSim",
    products: [
        .executable(name: "fleetsim", targets: ["fleetsim"]),
        // The app's background logic as FleetSim tests it, for an app to depend on
        // (docs/adapters.md): sans-I/O state machines, Foundation-free of the simulator.
        .library(name: "AppLogic", targets: ["AppLogic"]),
        // What an app's own logic implements and speaks (docs/architecture.md, "An app's
        // own logic"): the features' protocols, inputs, effects and specs; nothing of the simulator.
        .library(name: "AppLogicContract", targets: ["AppLogicContract"]),
        // The simulator, the scenario decoder, the reports and the kernel in one import
        // (`import FleetSimKit`), for an app's tests and tools (docs/harness.md).
        .library(name: "FleetSimKit", targets: ["FleetSimKit"]),
        // Every command of `fleetsim` (run, explore, shrink, replay, compare, merge...)
        // behind one entry point, so an app's package builds its own runner
        // (docs/harness.md, "The runner").
        .library(name: "FleetSimCLI", targets: ["FleetSimCLI"]),
    ],
    targets: [
        // Prefetch and huge-page hints (C: Swift has neither); no behaviour, only speed.
        .target(name: "MemoryHints"),
        .target(name: "SimKernel", dependencies: ["MemoryHints"], swiftSettings: crossModule),
        .target(name: "AppLogicContract", swiftSettings: crossModule),
        .target(name: "AppLogic", dependencies: ["AppLogicContract"], swiftSettings: crossModule),
        .target(name: "Platform", dependencies: ["SimKernel", "AppLogic"], swiftSettings: crossModule),
        .target(name: "Backend", dependencies: ["SimKernel"], swiftSettings: crossModule),
        .target(name: "Scenario", dependencies: ["SimKernel", "Reports"], swiftSettings: crossModule),
        .target(name: "Reports", swiftSettings: crossModule),
        .target(name: "Simulation", dependencies: ["SimKernel", "AppLogicContract", "AppLogic", "Platform", "Backend", "Scenario", "Reports"], swiftSettings: crossModule),
        .target(name: "FleetSimKit", dependencies: ["SimKernel", "AppLogicContract", "Scenario", "Simulation", "Reports"], swiftSettings: crossModule),
        .target(name: "FleetSimCLI", dependencies: ["SimKernel", "AppLogicContract", "Scenario", "Simulation", "Reports"], swiftSettings: crossModule),
        .executableTarget(name: "fleetsim", dependencies: ["FleetSimCLI", "Simulation"]),
        .testTarget(name: "SimKernelTests", dependencies: ["SimKernel"]),
        .testTarget(name: "AppLogicTests", dependencies: ["AppLogicContract", "AppLogic"]),
        // The scenario tests decode the reference world's files, whose features' sections
        // the world declares (Simulation), beside a section of their own.
        .testTarget(name: "ScenarioTests", dependencies: ["Scenario", "SimKernel", "Reports", "Simulation"]),
        .testTarget(name: "BackendTests", dependencies: ["Backend", "SimKernel"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "SimKernel"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "Scenario", "Reports", "SimKernel", "AppLogic", "Platform", "Backend"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform", "SimKernel", "AppLogic"]),
        // The CLI's tests run the built fleetsim binary as a user would (so it is a
        // dependency) and call the library's commands and entry point directly.
        .testTarget(name: "CLITests", dependencies: ["fleetsim", "FleetSimCLI"]),
    ],
    swiftLanguageModes: [.v6]
)
