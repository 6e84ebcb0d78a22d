import SimKernel

/// The kinds of background work FleetSim attributes energy to (the energy report's
/// per-operation figures: refresh, sync, push handling; docs/report.md).
public enum EnergyOperation: UInt8, Sendable, CaseIterable {
    case refresh, sync, pushHandling
}

/// One device's energy books: what the app's background work cost, per operation kind.
/// Only the app's share is kept: the report's battery figures are the app's energy per
/// device-day and per operation, and the rest of a phone's drain (screen, idle, other
/// apps) is the battery model's, which reads nothing here.
///
/// The world opens an operation when the OS launches the work (``begin(_:)``), charges
/// radio and CPU joules while it runs (``chargeApp(joules:)``), and closes it when the
/// OS sees it end (``end()``), which returns that one operation's energy: the report's
/// "energy per refresh". A radio tail left behind by an operation is part of that
/// operation's cost (see ``RadioState``), even when it outlives the task.
///
/// Fixed size, no allocation: 41 bytes, in every `Device` (docs/performance.md#memory-per-device;
/// 49 bytes with a fourth kind that nothing used). The per-kind
/// sums are kept apart, not folded into one total as they come, because ``appJoules``
/// adds them in kind order: the same total to the bit.
public struct EnergyLedger: Sendable {
    public var appJoulesByOperation: InlineArray<3, Double> = .init(repeating: 0)
    /// App energy outside any operation (a foreground request's tail, a late response).
    public var appJoulesOutsideOperations = 0.0
    /// The operation now running and what it has cost so far.
    public private(set) var openJoules = 0.0
    public private(set) var open: EnergyOperation?

    public init() {}

    /// All energy attributed to the app (J).
    public var appJoules: Double {
        var sum = appJoulesOutsideOperations
        for k in 0..<appJoulesByOperation.count { sum += appJoulesByOperation[k] }
        return sum
    }

    /// Starts an operation. One runs at a time on a device's books; starting a new one
    /// closes the previous one first and returns its energy.
    @discardableResult
    public mutating func begin(_ operation: EnergyOperation) -> Double? {
        let closed = open == nil ? nil : end()
        open = operation
        openJoules = 0
        return closed
    }

    /// Charges app energy (radio, CPU) to the open operation, or outside any.
    public mutating func chargeApp(joules: Double) {
        guard let operation = open else { appJoulesOutsideOperations += joules; return }
        appJoulesByOperation[Int(operation.rawValue)] += joules
        openJoules += joules
    }

    /// Closes the open operation and returns its energy (J); nil when none is open.
    @discardableResult
    public mutating func end() -> Double? {
        guard open != nil else { return nil }
        open = nil
        defer { openJoules = 0 }
        return openJoules
    }
}
