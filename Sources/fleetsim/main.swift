import FleetSimCLI

// The reference runner: FleetSim's own logic, every command (docs/harness.md, "The runner").
FleetSimCommandLine.main(runner: "fleetsim")
