import AppTeamLogic
import FleetSimCLI

// The app team's runner: every FleetSim command, with the team's logic set.
FleetSimCommandLine.main(logics: AppTeamLogics.self, runner: "appteam-sim")
