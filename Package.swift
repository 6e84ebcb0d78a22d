// swift-tools-version: 6.0
// FleetSim: a deterministic discrete-event simulator of a fleet of phones.
// No package dependencies, by design (toolchain only).
import PackageDescription

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
        .target(name: "SimKernel", dependencies: ["MemoryHints"]),
        .target(name: "AppLogicContract"),
        .target(name: "AppLogic", dependencies: ["AppLogicContract"]),
        .target(name: "Platform", dependencies: ["SimKernel", "AppLogic"]),
        .target(name: "Backend", dependencies: ["SimKernel"]),
        .target(name: "Scenario", dependencies: ["SimKernel", "Reports"]),
        .target(name: "Reports"),
        .target(name: "Simulation", dependencies: ["SimKernel", "AppLogicContract", "AppLogic", "Platform", "Backend", "Scenario", "Reports"]),
        .target(name: "FleetSimKit", dependencies: ["SimKernel", "AppLogicContract", "Scenario", "Simulation", "Reports"]),
        .target(name: "FleetSimCLI", dependencies: ["SimKernel", "AppLogicContract", "Scenario", "Simulation", "Reports"]),
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
