import SimKernel

/// The kinds of background work FleetSim attributes energy to (issue 3: "energy per
/// operation (refresh, sync, push handling)").
public enum EnergyOperation: UInt8, Sendable, CaseIterable {
    case refresh, sync, pushHandling, processing
}

/// One device's energy books: what the app's background work cost, per operation kind,
/// kept apart from the device's total (screen, idle, other apps; charged by the battery
/// model through ``chargeDevice(joules:)``).
///
/// The world opens an operation when the OS launches the work (``begin(_:)``), charges
/// radio and CPU joules while it runs (``chargeApp(joules:)``), and closes it when the
/// OS sees it end (``end()``), which returns that one operation's energy: the report's
/// "energy per refresh". A radio tail left behind by an operation is part of that
/// operation's cost (see ``RadioState``), even when it outlives the task.
///
/// Fixed size, no allocation: 4 kinds × (joules, count) plus the open operation.
public struct EnergyLedger: Sendable {
    public var appJoulesByOperation: InlineArray<4, Double> = .init(repeating: 0)
    public var operationsCompleted: InlineArray<4, UInt32> = .init(repeating: 0)
    /// App energy outside any operation (a foreground request's tail, a late response).
    public var appJoulesOutsideOperations = 0.0
    /// Everything else the device spent (J).
    public var otherDeviceJoules = 0.0
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

    /// The device's total: the app's share plus everything else (J).
    public var deviceJoules: Double { appJoules + otherDeviceJoules }

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

    /// Charges energy that is not the app's (the battery model's screen and idle drain).
    public mutating func chargeDevice(joules: Double) { otherDeviceJoules += joules }

    /// Closes the open operation and returns its energy (J); nil when none is open.
    @discardableResult
    public mutating func end() -> Double? {
        guard let operation = open else { return nil }
        operationsCompleted[Int(operation.rawValue)] &+= 1
        open = nil
        defer { openJoules = 0 }
        return openJoules
    }

    /// Mean energy per completed operation of a kind (J); nil before the first. An
    /// operation still open counts in neither the energy nor the count.
    public func meanJoules(per operation: EnergyOperation) -> Double? {
        let n = operationsCompleted[Int(operation.rawValue)]
        guard n > 0 else { return nil }
        let running = open == operation ? openJoules : 0
        return (appJoulesByOperation[Int(operation.rawValue)] - running) / Double(n)
    }
}
