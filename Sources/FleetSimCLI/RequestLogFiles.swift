import Foundation
import Reports
import Simulation

/// The `requests.bin` beside a report (``RequestLog``): read for merge's pooled backend
/// and for `whatif`.
enum RequestLogFiles {
    /// `requests.bin` in the directory of `report` (a report.json's path).
    static func path(besideReport report: String) -> String {
        OutputDirectory.parent(of: report) + "/" + RequestLog.fileName
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    static func read(_ path: String) throws(CLIError) -> (header: RequestLog.Header, records: [RecordedRequest]) {
        let bytes = try Compare.readBytes(path, "a request log (requests.bin)")
        do { return try RequestLog.decode(bytes) } catch { throw .input("\(path): \(error.message)") }
    }

    /// The union of the shards' (parts') logs, in replay order; refused when their
    /// headers differ (logs of different scenarios or capacities).
    static func union(_ paths: [String]) throws(CLIError) -> (header: RequestLog.Header, records: [RecordedRequest]) {
        let logs = try Parallel.map(paths.count) { k throws(CLIError) in try read(paths[k]) }
        var all: [RecordedRequest] = []
        all.reserveCapacity(logs.reduce(0) { $0 + $1.records.count })
        for (k, log) in logs.enumerated() {
            guard log.header == logs[0].header else {
                throw .input("\(paths[k]): expected the request log of the same run as \(paths[0]) (whole capacity \(describe(logs[0].header))), found \(describe(log.header))")
            }
            all.append(contentsOf: log.records)
        }
        return (logs[0].header, RequestLog.sortedForReplay(all))
    }

    static func describe(_ h: RequestLog.Header) -> String {
        "\(h.workers) workers, \(h.queueLimit) queue places, \(h.streams) push streams, "
            + "\(h.streamQueueLimit) push queue places, \(HumanUnits.duration(microseconds: h.durationMicroseconds))"
    }
}

extension ReportValue {
    /// This object with `value` at `path` (objects made on the way).
    func setting(_ path: [String], _ value: ReportValue) -> ReportValue {
        guard let head = path.first else { return value }
        var members: [String: ReportValue] = [:]
        if case .object(let m) = self { members = m }
        members[head] = (members[head] ?? .object([:])).setting(Array(path.dropFirst()), value)
        return .object(members)
    }
}
