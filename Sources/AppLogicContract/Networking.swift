/// Identifies one request the logic issued; responses come back with it.
public struct RequestID: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public var description: String { "#\(rawValue)" }
}

/// The API endpoints the background logic calls (seed `000`, "Data to Fetch"), and any
/// other an app's logic calls by its method and path (``custom(method:path:)``).
public enum Endpoint: Hashable, Sendable {
    /// `GET /v1/test/history?limit=N`
    case testHistory(limit: Int)
    /// `GET /v1/test/active`
    case activeSession
    /// `POST /v1/homework/analyze?mode=...`: the long request of seed `004`.
    case analysis(AnalysisMode)
    /// `PUT /api/v1/steps/sync` (upsert), or `POST /api/v1/steps` (insert) (seed `003`, "Backend API Changes").
    case syncSteps(StepUpload)
    /// An endpoint the cases above do not name (an app's own, or a feature's that needs
    /// no case here): its method and its path, as the backend model's service times
    /// (`backend.endpoints`) and report.json name it. Boxed (`indirect`): its two strings
    /// inline would grow every request the world keeps by 24 bytes (DeviceLayoutTests).
    indirect case custom(method: String, path: String)

    public var path: String {
        switch self {
        case .testHistory(let limit): return "/v1/test/history?limit=\(limit)"
        case .activeSession: return "/v1/test/active"
        case .analysis(let mode): return "/v1/homework/analyze?mode=\(mode.rawValue)"
        case .syncSteps(let upload): return upload.method == .upsert ? "/api/v1/steps/sync" : "/api/v1/steps"
        case .custom(_, let path): return path
        }
    }

    /// `GET`, `PUT` or `POST` (a custom endpoint's own).
    public var method: String {
        switch self {
        case .testHistory, .activeSession: return "GET"
        case .analysis: return "POST"
        case .syncSteps(let upload): return upload.method == .upsert ? "PUT" : "POST"
        case .custom(let method, _): return method
        }
    }
}

/// A decoded 200 response.
public enum ResponseBody: Hashable, Sendable {
    /// The user's most recent completed test (nil if none) and the server's clock.
    case testHistory(latestCompletedAt: Instant?, serverTime: Instant)
    /// Whether a test is in progress, and the server's clock.
    case activeSession(inProgress: Bool, serverTime: Instant)
    /// The finished analysis (seed `004`'s parsing result).
    case analysis
    /// Step rows created and updated by a step upload (seed `003`'s response `data`).
    case stepsSynced(created: Int, updated: Int)
    /// The body of a custom endpoint's answer (``Endpoint/custom(method:path:)``), as the
    /// backend model of its feature writes it; the logic that called it reads it.
    case custom(String)
}

/// How a request ended, as URLSession would report it.
public enum HTTPResult: Hashable, Sendable {
    case ok(ResponseBody)
    /// A non-2xx status (401, 500, 503...).
    case status(Int)
    /// No response: offline, timed out, lost in transit or at a dead server, or cancelled by the app.
    case failed(TransportError)
}

public enum TransportError: Hashable, Sendable { case offline, timedOut, connectionLost, cancelled }

/// How a result reads in a trace and a replay: the status, the failure, or the body.
extension HTTPResult: CustomStringConvertible {
    public var description: String {
        switch self {
        case .ok(.testHistory(let latest, let server)): return "200 history(latest: \(latest.map { "\($0)" } ?? "none"), server: \(server))"
        case .ok(.activeSession(let inProgress, _)): return "200 active(inProgress: \(inProgress))"
        case .ok(.analysis): return "200 analysis"
        case .ok(.stepsSynced(let created, let updated)): return "200 steps(created: \(created), updated: \(updated))"
        case .ok(.custom(let body)): return "200 \(body)"
        case .status(let code): return "\(code)"
        case .failed(let error): return "failed(\(error))"
        }
    }
}
