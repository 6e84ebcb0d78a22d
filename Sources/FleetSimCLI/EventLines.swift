import Foundation
import Simulation

/// Writes the delivered events of a run, one line each:
/// `MICROSECONDS DEVICE HASH DESCRIPTION` (DEVICE `-` for a fleet-wide event, HASH 16
/// hex digits; docs/diverge.md). Buffered: one write per 64 KiB.
final class EventLineWriter {
    private let handle: FileHandle
    private let closes: Bool
    private var buffer: [UInt8] = []

    /// `-` is stdout; any other path is created or truncated. Nil when it cannot be opened.
    init?(path: String) {
        if path == "-" {
            handle = .standardOutput
            closes = false
        } else {
            guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path) else { return nil }
            handle = h
            closes = true
        }
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ event: DeliveredEvent) {
        buffer.append(contentsOf: EventLine.text(event).utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    func close() {
        flush()
        if closes { try? handle.close() }
    }
}

/// One line of an event stream, parsed.
struct EventLine: Equatable {
    var microseconds: Int64
    /// Nil for a fleet-wide event.
    var device: Int?
    var hash: String
    var description: String

    static func text(_ e: DeliveredEvent) -> String {
        "\(e.time.microseconds) \(e.device.map(String.init) ?? "-") \(DeliveredEvent.hex(e.hash)) \(e.description)"
    }

    /// Nil when the line is not `MICROSECONDS DEVICE HASH DESCRIPTION`.
    init?(_ line: Substring) {
        let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count >= 3, let t = Int64(parts[0]), parts[2].count == 16 else { return nil }
        if parts[1] == "-" { device = nil } else if let d = Int(parts[1]), d >= 0 { device = d } else { return nil }
        microseconds = t
        hash = String(parts[2])
        description = parts.count == 4 ? String(parts[3]) : ""
    }

    /// Two lines are the same event when time, device and hash agree (descriptions
    /// carry generations and pool numbers, which may differ between builds).
    func sameEvent(as other: EventLine) -> Bool {
        microseconds == other.microseconds && device == other.device && hash == other.hash
    }
}

/// Reads lines from a file handle in 64 KiB chunks, without holding the stream.
final class LineReader {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// Lines read so far.
    private(set) var count = 0

    init(_ handle: FileHandle) { self.handle = handle }

    /// The next line without its newline; nil at the end of the stream.
    func next() -> Substring? {
        while true {
            if let nl = buffer[start...].firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[start..<nl], as: UTF8.self)
                start = nl + 1
                count += 1
                return Substring(line)
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = String(decoding: buffer[start...], as: UTF8.self)
                start = buffer.count
                count += 1
                return Substring(line)
            }
            buffer.removeFirst(start)
            start = 0
            let chunk = handle.readData(ofLength: 1 << 16)
            if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
        }
    }
}

/// A stream's lines one instant at a time (all the lines of one time), reading one
/// line ahead.
final class InstantReader {
    private let reader: LineReader
    private let name: String
    private var ahead: EventLine?
    /// Whether the stream has no more lines.
    private(set) var ended = false

    init(_ reader: LineReader, name: String) {
        self.reader = reader
        self.name = name
    }

    /// The lines of the next instant, in stream order; empty at the end.
    func next() throws(CLIError) -> [EventLine] {
        var lines: [EventLine] = []
        if let ahead { lines.append(ahead); self.ahead = nil } else if let first = try read() { lines.append(first) } else { return [] }
        while let line = try read() {
            guard line.microseconds == lines[0].microseconds else { ahead = line; break }
            lines.append(line)
        }
        return lines
    }

    private func read() throws(CLIError) -> EventLine? {
        guard let line = reader.next() else { ended = true; return nil }
        return try Diverge.parse(line, name, reader.count)
    }
}
