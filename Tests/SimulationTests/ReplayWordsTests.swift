import Foundation
import Testing
import SimKernel
@testable import Simulation

/// What `fleetsim replay` prints reads as words: durations in human units, the logic's
/// payloads and enums by name, and each request's time in the server's queue and in service.
@Suite struct ReplayWordsTests {
    /// Device 8 of the badge race, the day of its violation (from the push pipeline's
    /// daily reset at midnight to the open that finds the badge wrong): refresh, step
    /// sync, a continuation and a badge-only push with a collapse id.
    static func story() throws -> [String] {
        var world = World(scenario: try Fixtures.scenario("scenarios/races/badge-overwrite.json"), traceDevice: 8)
        world.run(until: SimTime.zero + .seconds(129_686))
        return world.trace.filter { $0.time >= SimTime.zero + .seconds(86_000) }.map(\.line)
    }

    @Test func durationsPayloadsAndServerSteps() throws {
        let lines = try Self.story()
        let text = lines.joined(separator: "\n")
        #expect(text.contains("network: /v1/test/history?limit=1 sent, round trip 50 ms"))
        #expect(text.contains("server: /v1/test/history?limit=1 queued 0 s, served in 307 ms"))
        #expect(text.contains("logic -> startHardStopTimer(after: 20 s)"))
        #expect(text.contains("step sync -> scheduleNotification(stepSyncStale, after: 24.0 h)"))
        #expect(text.contains("push -> send(s2 to apns-dev8-g1: badge only, badge 0, 41 bytes, priority low (provider normal), collapse id \"badge\", expires "))
        #expect(text.contains("push <- providerResponse(s2, accepted)"))
        #expect(text.contains("push <- timerFired(daily reset)"))
        // Every request the server took says how long it waited and how long it took.
        let sent = lines.filter { $0.contains("network: /") && $0.contains(" sent, ") }.count
        let served = lines.filter { $0.contains("server: /") && $0.contains(" queued ") && $0.contains(", served in ") }.count
        #expect(sent > 0 && served == sent)
        // No Swift type dumps, no raw microseconds or six-decimal seconds.
        for line in lines {
            #expect(!line.contains("AppLogic.") && !line.contains("Optional("), "\(line)")
            #expect(line.range(of: #"[0-9](us|s)\b"#, options: .regularExpression) == nil, "\(line)")
            #expect(line.range(of: #"[0-9]\.[0-9]{6}"#, options: .regularExpression) == nil, "\(line)")
        }
    }
}
