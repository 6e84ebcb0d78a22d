/// A 64-bit hash as report.json and event lines write it: 16 lower-case hex digits,
/// zero-padded (the event-stream hashes, and their sums when shards merge).
public enum HashText {
    public static func hex(_ h: UInt64) -> String {
        let digits = String(h, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
