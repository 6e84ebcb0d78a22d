import Foundation

// Arguments are read as UTF-8; one that is not (a non-UTF-8 file name) is refused, as
// Swift's String would replace its bytes and FleetSim would read or write another name.
for i in 1..<Int(CommandLine.argc) {
    guard let raw = CommandLine.unsafeArgv[i], String(validatingCString: raw) == nil else { continue }
    eprint("fleetsim: argument \(i) ('\(String(cString: raw))') is not valid UTF-8; FleetSim takes file names and values as UTF-8 text")
    exit(2)
}
exit(FleetSimCommand.main(CommandLine.arguments))
