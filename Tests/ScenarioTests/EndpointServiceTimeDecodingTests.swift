import Testing
import SimKernel
import Scenario

/// `backend.endpoints`: a service time per endpoint path, the paths handed to the
/// decoder by the caller (``ScenarioVocabulary/endpoints``), so Scenario names none.
@Suite struct EndpointServiceTimeDecodingTests {
    static let vocabulary = ScenarioVocabulary(features: ScenarioVocabulary.reference.features, variants: [], endpoints: ["/v1/a", "/v1/b"])

    static func scenario(endpoints: String) -> [UInt8] {
        Array(#"{"name": "x", "duration": "1d", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}], "backend": {"endpoints": \#(endpoints)}}"#.utf8)
    }

    static func error(_ endpoints: String) -> ScenarioError? {
        do {
            _ = try ScenarioDecoder.decode(scenario(endpoints: endpoints), file: "bad.json", vocabulary: vocabulary)
            return nil
        } catch { return error }
    }

    @Test func aKnownPathGetsItsOwnDistributionInFileOrder() throws {
        let s = try ScenarioDecoder.decode(Self.scenario(endpoints: #"{"/v1/b": {"serviceTime": "2s"}, "/v1/a": {"serviceTime": {"uniform": ["10ms", "30ms"]}}}"#),
                                           file: "ok.json", vocabulary: Self.vocabulary)
        #expect(s.backend.endpointServiceTimes == [EndpointServiceTime(path: "/v1/b", serviceTime: .constant(2_000_000)),
                                                   EndpointServiceTime(path: "/v1/a", serviceTime: .uniform(10_000, 30_000))])
        #expect(s.backend.serviceTime == BackendConfig.defaults.serviceTime, "the others keep backend.serviceTime")
        let absent = try ScenarioDecoder.decode(Array(#"{"name": "x", "duration": "1d", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}]}"#.utf8), file: "none.json", vocabulary: .reference)
        #expect(absent.backend.endpointServiceTimes.isEmpty)
    }

    @Test func anUnknownPathIsRefusedWithTheKnownOnes() throws {
        let error = try #require(Self.error(#"{"/v1/c": {"serviceTime": "1s"}}"#))
        #expect(error.path == #"$.backend.endpoints["/v1/c"]"#, "\(error)")
        #expect(error.expected.contains("`/v1/a`, `/v1/b`"), "\(error)")
        #expect(error.found.contains("\"/v1/c\""), "\(error)")
    }

    @Test(arguments: [
        (#"{"/v1/a": {"serviceTime": "-1s"}}"#, "serviceTime"),
        (#"{"/v1/a": {"serviceTime": {"lognormal": {"median": "1s"}}}}"#, "serviceTime"),
        (#"{"/v1/a": {}}"#, "/v1/a"),
        (#"{"/v1/a": {"serviceTim": "1s"}}"#, "serviceTim"),
        (#"{"/v1/a": "1s"}"#, "/v1/a"),
        (#"["/v1/a"]"#, "endpoints"),
    ])
    func aBadEndpointIsRefusedWithItsPath(_ endpoints: String, _ pathPart: String) throws {
        let error = try #require(Self.error(endpoints), "accepted \(endpoints)")
        #expect(error.path.hasPrefix("$.backend.endpoints") && error.path.contains(pathPart), "\(error)")
    }
}
