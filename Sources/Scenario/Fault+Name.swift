extension Fault.Kind {
    /// The kind as a scenario file spells it (`"backendOutage"`), as report.json's
    /// `backend.load.faults` names it.
    public var name: String {
        switch self {
        case .backendOutage: return "backendOutage"
        case .backendSlowdown: return "backendSlowdown"
        case .networkOutage: return "networkOutage"
        case .networkLatency: return "networkLatency"
        case .pushProviderErrors: return "pushProviderErrors"
        case .pushProviderOutage: return "pushProviderOutage"
        case .clockSkew: return "clockSkew"
        case .timeZoneChange: return "timeZoneChange"
        case .appTermination: return "appTermination"
        case .authExpiry: return "authExpiry"
        case .lowPowerMode: return "lowPowerMode"
        }
    }
}
