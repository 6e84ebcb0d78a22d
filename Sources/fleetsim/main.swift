import FleetSimCLI
import Simulation

// The reference runner: FleetSim's own logic, every command (docs/harness.md, "The runner").
FleetSimCommandLine.main(logics: ReferenceLogics.self, runner: "fleetsim")
