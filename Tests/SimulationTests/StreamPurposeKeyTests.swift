import Testing
@testable import Simulation
import SimKernel

/// The purposes of the streams rebuilt at each use are written out as keys
/// (Core/DeviceStreams.swift): each must be its name's, or every draw of that stream
/// would change.
@Suite struct StreamPurposeKeyTests {
    @Test func eachKeyIsItsNames() {
        let named: [(StreamPurpose, String)] = [
            (.user, "user"), (.userOpen, "user.open"), (.backend, "backend"), (.userMotion, "user.motion"), (.continuation, "continuation"), (.stepSync, "stepSync"), (.push, "push"), (.pushLifecycle, "push.lifecycle"),
            (.network, "network"), (.os, "os"), (.userScreen, "user.screen"),
        ]
        for (purpose, name) in named { #expect(purpose.key == StreamPurpose(name).key, "\(name)") }
    }

    /// Each of a device's streams has its own purpose and its own position.
    @Test func aDevicesStreamsAreApart() {
        let all: [DeviceStream] = [.user, .open, .backend, .network, .os]
        #expect(Set(all.map(\.purpose)).count == all.count)
        for (k, stream) in all.enumerated() {
            var streams = DeviceStreams()
            streams[stream] = StreamPosition(draws: 7)
            #expect(all.map { streams[$0].draws } == all.indices.map { $0 == k ? 7 : 0 })
        }
    }
}
