/// A 64-bit FNV-1a hash of bytes, as 16 hex digits: how a tool recognises files it
/// wrote itself (an overlay's record), not a defence against forgery (FNV 1a, Fowler,
/// Noll and Vo; offset basis 0xcbf29ce484222325, prime 0x100000001b3).
public enum ContentHash {
    public static func fnv1a64(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
