import Testing
@testable import Simulation

/// Lazy screen sessions (OS/Android/AndroidHost+Screen, docs/android.md "Lazy screen
/// sessions"): while nothing waits on Doze, the user's next screen session on an Android
/// phone is owed, not an event, and settled at its own instant when the phone's Android
/// state is next read. A lazy world must be the eager one (`lazyScreenSessions` off: one
/// event per session) in everything but its event count and hashes.
@Suite struct LazyScreenSessionTests {
    /// The default fleet's Android phones in lock step with eager sessions
    /// (``LazyScreen/lockStep(eagerWhenOff:owing:forbidden:)``): the same screen, session
    /// stream, bucket and Doze at every look, and no session owed while something waits
    /// on Doze or while a screen-off event is pending (whose handler reads the screen as
    /// it stands).
    @Test func everyPhoneLooksAsWhenEachSessionIsAnEvent() throws {
        try LazyScreen.lockStep(eagerWhenOff: \.lazyScreenSessions, owing: .session) { $0.screen.isOn && !$0.owed.contains(.screenOff) }
    }

    /// Whole runs: the default fleet, the hostile one (a trip abroad moves the zone the
    /// next session is drawn in; clock jumps, outages, jetsam) and a clock scenario report
    /// the same figures either way, and a run in `fleetsim run`'s 50 steps is the same run.
    @Test(arguments: LazyScreen.wholeRuns)
    func aLazyRunReportsTheEagerRunsFigures(file: String, scale: Double) throws {
        try LazyScreen.wholeRun(file, scale, eagerWhenOff: \.lazyScreenSessions)
    }
}
