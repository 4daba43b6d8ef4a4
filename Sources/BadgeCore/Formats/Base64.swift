/// RFC 4648 base64 (the standard alphabet, padded), for `data:` URLs.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in base64.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var bits = 0
            for offset in 0..<3 { bits = bits << 8 | (offset < count ? Int(bytes[index + offset]) : 0) }
            for offset in 0..<4 {
                out.append(offset <= count ? alphabet[bits >> (18 - 6 * offset) & 0x3F] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
