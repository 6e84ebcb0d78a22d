/// A 64-bit hash as report.json and event lines write it: 16 lower-case hex digits,
/// zero-padded (the event-stream hashes, and their sums when shards merge).
public enum HashText {
    public static func hex(_ h: UInt64) -> String {
        let digits = String(h, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// FNV-1a 64 of the text's UTF-8 bytes as ``hex(_:)``: a content fingerprint (not
    /// a defence against a forger; it tells apart files that differ by accident).
    public static func fnv1a(_ text: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hex(h)
    }
}
