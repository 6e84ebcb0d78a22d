/// The app's process as iOS runs it.
public enum AppProcessState: UInt8, Sendable {
    /// Running in the foreground or background.
    case running
    /// In memory, not running; resumes without losing in-memory state.
    case suspended
    /// Not in memory: in-memory state and unpersisted writes are gone.
    case terminated
}
