import Testing
import AppLogic

/// The reference diagnostics upload through a host loop: what it asks of the OS (the
/// nightly cadence and the requirements), its upload at each launch and how it ends.
@Suite struct DiagnosticsLogicTests {
    let now = DeviceTime(wall: Instant(unixSeconds: 1_772_409_600), sinceBoot: .hours(7 * 24), boot: 0)

    func run(_ logic: DiagnosticsLogic, _ inputs: [DiagnosticsInput], state: inout DiagnosticsState) -> [DiagnosticsEffect] {
        var all: [DiagnosticsEffect] = []
        for input in inputs {
            var effects: [DiagnosticsEffect] = []
            logic.handle(input, state: &state, now: now, into: &effects)
            all += effects
        }
        return all
    }

    /// Installed, it asks for a run a day later on external power and an unmetered
    /// network; each launch asks for the next night's run before it uploads, and the
    /// answer ends the work.
    @Test func eachNightAsksForTheNextOnPowerThenUploads() {
        var state = DiagnosticsState()
        let logic = DiagnosticsLogic()
        let nightly = DiagnosticsEffect.schedule(after: .hours(24), constraints: [.charging, .networkConnected, .unmetered])
        #expect(run(logic, [.installed], state: &state) == [nightly])
        #expect(run(logic, [.workLaunched], state: &state) == [nightly, .upload(RequestID(1))])
        #expect(run(logic, [.httpResponse(RequestID(1), .ok(.custom("accepted")))], state: &state) == [.finish(success: true)])
        #expect(run(logic, [.workLaunched, .httpResponse(RequestID(2), .status(503))], state: &state)
                == [nightly, .upload(RequestID(2)), .finish(success: false)])
    }

    /// The expiration ends the work unsuccessfully once; the answer that comes after it
    /// is not heard as the work's.
    @Test func anExpirationEndsTheWorkAndItsLateAnswerIsIgnored() {
        var state = DiagnosticsState()
        let logic = DiagnosticsLogic()
        _ = run(logic, [.installed, .workLaunched], state: &state)
        #expect(run(logic, [.workExpired], state: &state) == [.finish(success: false)])
        #expect(run(logic, [.httpResponse(RequestID(1), .ok(.custom("accepted"))), .workExpired], state: &state).isEmpty)
    }

    /// A spec that does not require external power asks only for the network.
    @Test func aSpecWithoutThePowerRequirementAsksOnlyForTheNetwork() {
        var spec = DiagnosticsSpec()
        spec.requiresExternalPower = false
        spec.interval = .hours(12)
        var state = DiagnosticsState()
        #expect(run(DiagnosticsLogic(spec: spec), [.installed], state: &state) == [.schedule(after: .hours(12), constraints: [.networkConnected, .unmetered])])
    }
}
