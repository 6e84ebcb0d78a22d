import Foundation

exit(FleetSimCommand.main(CommandLine.arguments))
