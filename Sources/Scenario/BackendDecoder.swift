import SimKernel

/// `backend`: `workers` an integer ≥ 1, `serviceTime` a distribution of durations,
/// `queueLimit` an integer ≥ 0, `requestTimeout` and `authTokenLifetime` > 0,
/// `backend.push` the push service's capacity (``pushService(_:)``), `stepStore` the step
/// table's retention (``stepStore(_:into:)``), `endpoints` a service time per endpoint
/// path (``endpoints(_:known:)``).
/// Defaults: ``BackendConfig/defaults``.
enum BackendDecoder {
    static let keys = ["workers", "serviceTime", "queueLimit", "requestTimeout", "authTokenLifetime", "push", "stepStore", "endpoints"]
    static let endpointKeys = ["serviceTime"]
    static let stepStoreKeys = ["retentionDays"]
    static let maximumRetentionDays: Int64 = 36_600
    static let maximumWorkers: Int64 = 1_000_000
    static let maximumQueueLimit: Int64 = 1_000_000_000

    /// `endpoints`: the paths `backend.endpoints` may name (``ScenarioVocabulary/endpoints``).
    static func decode(_ node: ScenarioNode, endpoints: [String]? = nil) throws(ScenarioError) -> BackendConfig {
        var backend = BackendConfig.defaults
        for member in try node.members("a backend object, e.g. {\"workers\": 64}") {
            let child = member.node
            switch member.key {
            case "workers":
                backend.workers = Int(try child.integer(in: 1...maximumWorkers, "a number of API workers: an integer from 1 to \(maximumWorkers)"))
            case "serviceTime": backend.serviceTime = try child.distribution(.duration)
            case "queueLimit":
                backend.queueLimit = Int(try child.integer(in: 0...maximumQueueLimit, "a queue limit: an integer from 0 to \(maximumQueueLimit)"))
            case "requestTimeout": backend.requestTimeout = try child.duration(.positive)
            case "authTokenLifetime": backend.authTokenLifetime = try child.duration(.positive)
            case "push": backend.push = try pushService(child)
            case "stepStore": try stepStore(child, into: &backend)
            case "endpoints": backend.endpointServiceTimes = try self.endpoints(child, known: endpoints)
            default: throw member.unknownKey(among: keys)
            }
        }
        return backend
    }

    /// `backend.endpoints`: `{"<path>": {"serviceTime": <distribution>}}`, each path one
    /// of `known` (any non-empty path when nil); a path not listed keeps `serviceTime`
    /// (docs/scenario.md, "backend").
    static func endpoints(_ node: ScenarioNode, known: [String]?) throws(ScenarioError) -> [EndpointServiceTime] {
        var out: [EndpointServiceTime] = []
        for member in try node.members("an object of endpoint paths, e.g. {\"/v1/test/history\": {\"serviceTime\": {\"lognormal\": {\"median\": \"80ms\", \"p99\": \"1s\"}}}}") {
            if let known {
                guard known.contains(member.key) else { throw member.unknownKey(among: known, context: " (the app's endpoint paths, as report.json names them)") }
            } else if member.key.isEmpty {
                throw member.node.error(expected: "an endpoint path", found: "an empty key")
            }
            var serviceTime: Distribution?
            for field in try member.node.members("an endpoint object, e.g. {\"serviceTime\": {\"constant\": \"200ms\"}}") {
                switch field.key {
                case "serviceTime": serviceTime = try field.node.distribution(.duration)
                default: throw field.unknownKey(among: endpointKeys)
                }
            }
            guard let serviceTime else { throw member.node.missing("serviceTime", expected: "the endpoint's service time: a distribution of durations") }
            out.append(EndpointServiceTime(path: member.key, serviceTime: serviceTime))
        }
        return out
    }

    /// `backend.stepStore`: `retentionDays` a whole number of days from 1 to 36,600 (a
    /// century); absent, every date is kept (seed `003` names no retention).
    static func stepStore(_ node: ScenarioNode, into backend: inout BackendConfig) throws(ScenarioError) {
        for member in try node.members("a step store object, e.g. {\"retentionDays\": 400}") {
            switch member.key {
            case "retentionDays":
                backend.stepRetentionDays = Int(try member.node.integer(
                    in: 1...maximumRetentionDays, "a retention in whole days: an integer from 1 to \(maximumRetentionDays)"))
            default: throw member.unknownKey(among: stepStoreKeys)
            }
        }
    }

    static let pushServiceKeys = ["concurrency", "queueLimit"]

    /// `backend.push`: `concurrency` an integer from 1 to 1,000,000, `queueLimit` from 0 to 10^9.
    static func pushService(_ node: ScenarioNode) throws(ScenarioError) -> PushBackendConfig {
        var config = PushBackendConfig.defaults
        for member in try node.members("a push backend object, e.g. {\"concurrency\": 1000}") {
            switch member.key {
            case "concurrency":
                config.concurrency = Int(try member.node.integer(in: 1...1_000_000, "concurrent sends per provider: an integer from 1 to 1000000"))
            case "queueLimit":
                config.queueLimit = Int(try member.node.integer(in: 0...1_000_000_000, "a push queue limit: an integer from 0 to 1000000000"))
            default: throw member.unknownKey(among: pushServiceKeys)
            }
        }
        return config
    }
}
