import SimKernel

/// `backend`: `workers` an integer ≥ 1, `serviceTime` a distribution of durations,
/// `queueLimit` an integer ≥ 0, `requestTimeout` and `authTokenLifetime` > 0, `push`
/// the push service's capacity (``PushDecoder/backend(_:)``).
/// Defaults: ``BackendConfig/defaults``.
enum BackendDecoder {
    static let keys = ["workers", "serviceTime", "queueLimit", "requestTimeout", "authTokenLifetime", "push"]
    static let maximumWorkers: Int64 = 1_000_000
    static let maximumQueueLimit: Int64 = 1_000_000_000

    static func decode(_ node: ScenarioNode) throws(ScenarioError) -> BackendConfig {
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
            case "push": backend.push = try PushDecoder.backend(child)
            default: throw member.unknownKey(among: keys)
            }
        }
        return backend
    }
}
