extension LoadCause {
    /// A push reaches the phone (a silent push or an FCM message that wakes the app).
    static var pushWake: LoadCause { LoadCause(rawValue: 9) }
}

extension PushFeature {
    /// The push's load causes as report.json names them (``LoadCause/names``).
    static let loadCauses: [(LoadCause, String)] = [(.pushWake, "pushWake")]
}
