import SimKernel

/// UserDefaults durability (`REFERENCE.md` F: "persisted to disk asynchronously";
/// seed `002`, issue 2: writes lost on abrupt termination).
///
/// **Assumption** (`kvPersistDelay`, overridable): a write reaches disk that long
/// after it was made if the app is still running then; an app suspended first
/// persists at its next run; `synchronize()` persists at once; a termination
/// before persistence loses every write not yet on disk.
public struct KeyValueDurability: Sendable {
    /// Writes not yet on disk.
    public var dirty = false
    /// Generation of the pending flush event.
    public var flush = GenerationCounter()
    public init() {}
}
