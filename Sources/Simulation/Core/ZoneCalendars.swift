import Foundation
import AppLogicContract

/// One ``LocalCalendar`` per zone name for the whole process: a calendar reads its zone's
/// offsets from 1970 to 2100 from Foundation when it is made (about 19 M instructions for
/// the default's zones), and every world built in a process (the empty fleet `run` checks
/// its metric names against, each seed of `explore`, each probe of `plan`) asks for the
/// same zones. A calendar never changes and is a function of its name alone, so sharing
/// one changes no result (docs/performance.md, "The report: packed series, one buffer").
enum ZoneCalendars {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: [String: LocalCalendar] = [:]

    /// The calendar of zone `identifier`, made on first use.
    static func calendar(_ identifier: String) -> LocalCalendar {
        lock.lock()
        defer { lock.unlock() }
        if let known = made[identifier] { return known }
        let calendar = LocalCalendar(identifier: identifier)
        made[identifier] = calendar
        return calendar
    }
}
