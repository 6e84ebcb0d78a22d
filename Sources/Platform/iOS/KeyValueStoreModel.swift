import SimKernel

/// UserDefaults durability (`docs/platform-facts.md` F: "persisted to disk asynchronously";
/// seed `002`, issue 2: writes lost on abrupt termination).
///
/// **Assumption** (`kvPersistDelay`, overridable): the first write not yet on disk
/// starts a timer; when it fires with the app running, everything written so far
/// reaches disk. An app suspended first persists that long into its next run;
/// `synchronize()` persists at once; a termination before persistence loses every
/// write not yet on disk.
public struct KeyValueDurability: Sendable {
    /// Generation of the pending flush event.
    public var flush = GenerationCounter()
    /// Writes not yet on disk.
    public var dirty = false
    public init() {}
}
