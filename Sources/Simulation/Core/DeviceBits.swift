/// One bit per device, for a flag a host keeps for every device and reads rarely (the
/// report counts the devices it is set for): an eighth of a byte a device where a
/// `[Bool]` takes a byte, so it adds nothing to ``World/bytesPerDevice``.
struct DeviceBits {
    private var words: [UInt64]

    init(count: Int) { words = Array(repeating: 0, count: (count + 63) / 64) }

    @inline(__always) subscript(i: Int) -> Bool {
        get { words[i >> 6] & (1 << UInt64(i & 63)) != 0 }
        set {
            if newValue { words[i >> 6] |= 1 << UInt64(i & 63) } else { words[i >> 6] &= ~(1 << UInt64(i & 63)) }
        }
    }
}
