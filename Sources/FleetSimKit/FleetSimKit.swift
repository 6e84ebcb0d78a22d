// One import for an app's package: the simulator (World, its report), the scenario
// decoder, the report documents and the kernel's time and randomness
// (docs/harness.md, "The libraries").
@_exported import AppLogicContract
@_exported import Reports
@_exported import Scenario
@_exported import SimKernel
@_exported import Simulation
