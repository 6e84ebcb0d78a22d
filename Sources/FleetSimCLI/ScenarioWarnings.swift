import Reports
import Scenario

/// What a valid scenario may say that is probably not meant: a cohort of 0 devices
/// (allowed, so that a cohort can be switched off, but it simulates nothing) and a
/// fault that starts at or after the end of the run (it never happens). `validate`
/// prints them; they change no exit code.
enum ScenarioWarnings {
    static func of(_ scenario: Scenario, file: String) -> [String] {
        var out: [String] = []
        for (i, cohort) in scenario.fleet.enumerated() where cohort.count == 0 {
            out.append("\(file): $.fleet[\(i)].count: cohort '\(cohort.name)' has 0 devices, so it simulates nothing")
        }
        let end = HumanUnits.duration(microseconds: scenario.duration.microseconds)
        for (i, fault) in scenario.faults.enumerated() where fault.at >= scenario.duration {
            out.append("\(file): $.faults[\(i)].at: the fault starts at \(HumanUnits.duration(microseconds: fault.at.microseconds)), "
                       + "not before the end of the run (\(end)), so it never happens")
        }
        return out
    }
}
