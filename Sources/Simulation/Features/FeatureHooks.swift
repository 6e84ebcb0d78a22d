import Reports

/// A feature as the world sees it (docs/architecture.md, "Where each kind of change
/// goes"): what every feature may hear of the process and the user, and what it gives
/// the process and the report, each a hook with a default that does nothing. Its host
/// conforms (Features/<F>/), and ``FeatureHosts/walk(_:in:)`` reaches the hosts in
/// the one compile-time list, so a fan-out that every feature hears is one visitor, not
/// a line per feature. Static hooks on the host's type, handed the world: called on
/// concrete types, specialised and inlined (no existential on the event path).
protocol FeatureHooks {
    associatedtype Logics: LogicSet
    /// The user opens the app, before the token, the process and the OS: the feature's
    /// backend ground truth (the order of the user's draws).
    static func hearOpening(_ d: UInt32, in world: inout World<Logics>)
    /// The user opened the app (after ground truth, the token, the process and the OS).
    static func hearAppOpened(_ d: UInt32, in world: inout World<Logics>)
    /// The foreground session ended, before the app may be suspended.
    static func hearLeftForeground(_ d: UInt32, in world: inout World<Logics>)
    /// iOS suspends the app (before its process is marked suspended).
    static func hearSuspended(_ d: UInt32, in world: inout World<Logics>)
    /// The device can be reached again (back online, a network outage over).
    static func hearReachable(_ d: UInt32, in world: inout World<Logics>)
    /// UserDefaults wrote the app's state to disk.
    static func persist(_ i: Int, in world: inout World<Logics>)
    /// Starts loading what an open reads of the feature (Core/Prefetch).
    static func prefetchOpening(_ i: Int, android a: Int, in world: inout World<Logics>)
    /// Whether the feature's background work keeps the app's process from being suspended.
    static func holdsProcess(_ i: Int, in world: borrowing World<Logics>) -> Bool
    /// Device `i`'s wakeups the feature caused besides its task launches.
    static func wakeups(_ i: Int, in world: borrowing World<Logics>) -> UInt32
    /// The feature's part of report.json (``ReportParts``).
    static func report(into parts: inout ReportParts, world: borrowing World<Logics>)
}

extension FeatureHooks {
    @inline(__always) static func hearOpening(_ d: UInt32, in world: inout World<Logics>) {}
    @inline(__always) static func hearAppOpened(_ d: UInt32, in world: inout World<Logics>) {}
    @inline(__always) static func hearLeftForeground(_ d: UInt32, in world: inout World<Logics>) {}
    @inline(__always) static func hearSuspended(_ d: UInt32, in world: inout World<Logics>) {}
    @inline(__always) static func hearReachable(_ d: UInt32, in world: inout World<Logics>) {}
    @inline(__always) static func persist(_ i: Int, in world: inout World<Logics>) {}
    @inline(__always) static func prefetchOpening(_ i: Int, android a: Int, in world: inout World<Logics>) {}
    @inline(__always) static func holdsProcess(_ i: Int, in world: borrowing World<Logics>) -> Bool { false }
    @inline(__always) static func wakeups(_ i: Int, in world: borrowing World<Logics>) -> UInt32 { 0 }
    @inline(__always) static func report(into parts: inout ReportParts, world: borrowing World<Logics>) {}
}

/// One fan-out over the features: ``FeatureHosts/walk(_:in:)`` calls ``visit(_:in:)``
/// with each host's type in the list's order.
protocol FeatureVisitor {
    associatedtype Logics: LogicSet
    mutating func visit<F: FeatureHooks>(_ feature: F.Type, in world: inout World<Logics>) where F.Logics == Logics
}

/// A fan-out that only reads the world (``FeatureHosts/read(_:in:)``).
protocol FeatureReader {
    associatedtype Logics: LogicSet
    mutating func visit<F: FeatureHooks>(_ feature: F.Type, in world: borrowing World<Logics>) where F.Logics == Logics
}

/// The fan-outs that every feature hears (Features/Features.swift calls them), one
/// visitor each.
enum FeatureFanOut<Logics: LogicSet> {
    struct Opening: FeatureVisitor {
        let d: UInt32
        @inline(__always) mutating func visit<F: FeatureHooks>(_: F.Type, in world: inout World<Logics>) where F.Logics == Logics { F.hearOpening(d, in: &world) }
    }

    struct AppOpened: FeatureVisitor {
        let d: UInt32
        @inline(__always) mutating func visit<F: FeatureHooks>(_: F.Type, in world: inout World<Logics>) where F.Logics == Logics { F.hearAppOpened(d, in: &world) }
    }

    struct LeftForeground: FeatureVisitor {
        let d: UInt32
        @inline(__always) mutating func visit<F: FeatureHooks>(_: F.Type, in world: inout World<Logics>) where F.Logics == Logics { F.hearLeftForeground(d, in: &world) }
    }

    struct Suspended: FeatureVisitor {
        let d: UInt32
        @inline(__always) mutating func visit<F: FeatureHooks>(_: F.Type, in world: inout World<Logics>) where F.Logics == Logics { F.hearSuspended(d, in: &world) }
    }

    struct Reachable: FeatureVisitor {
        let d: UInt32
        @inline(__always) mutating func visit<F: FeatureHooks>(_: F.Type, in world: inout World<Logics>) where F.Logics == Logics { F.hearReachable(d, in: &world) }
    }

    struct Persist: FeatureVisitor {
        let i: Int
        @inline(__always) mutating func visit<F: FeatureHooks>(_: F.Type, in world: inout World<Logics>) where F.Logics == Logics { F.persist(i, in: &world) }
    }

    struct PrefetchOpening: FeatureVisitor {
        let i: Int, a: Int
        @inline(__always) mutating func visit<F: FeatureHooks>(_: F.Type, in world: inout World<Logics>) where F.Logics == Logics { F.prefetchOpening(i, android: a, in: &world) }
    }

    struct HoldsProcess: FeatureReader {
        let i: Int
        var holds = false
        @inline(__always) mutating func visit<F: FeatureHooks>(_: F.Type, in world: borrowing World<Logics>) where F.Logics == Logics {
            if !holds { holds = F.holdsProcess(i, in: world) }
        }
    }

    struct Wakeups: FeatureReader {
        let i: Int
        var sum: UInt32 = 0
        @inline(__always) mutating func visit<F: FeatureHooks>(_: F.Type, in world: borrowing World<Logics>) where F.Logics == Logics { sum += F.wakeups(i, in: world) }
    }

    struct Report: FeatureReader {
        var parts: ReportParts
        mutating func visit<F: FeatureHooks>(_: F.Type, in world: borrowing World<Logics>) where F.Logics == Logics { F.report(into: &parts, world: world) }
    }
}
