/// Android's colour values as resource files write them: `#RGB`, `#ARGB`, `#RRGGBB`
/// and `#AARRGGBB` (alpha first, unlike CSS), and the framework's public colours
/// (`@android:color/white`).
///
/// Source: Android's `Color.parseColor` and aapt2's `ResourceUtils::TryParseColor`
/// (the four hexadecimal forms, each digit doubled in the short ones); the framework
/// colours are those framework-res.apk marks PUBLIC in the `color` type
/// (`aapt2 dump resources` of Debian's android-framework-res 10.0.0), less the
/// colour state lists, which are files.
public enum AndroidColor {
    /// The colour of `text` (straight alpha), nil when it is not one of the four forms.
    public static func parse(_ text: String) -> Color? {
        let utf8 = Array(text.utf8)
        guard utf8.first == UInt8(ascii: "#") else { return nil }
        var digits: [UInt8] = []
        for byte in utf8.dropFirst() {
            guard let value = hexValue(byte) else { return nil }
            digits.append(value)
        }
        func pair(_ high: UInt8, _ low: UInt8) -> UInt8 { high << 4 | low }
        switch digits.count {
        case 3: return Color(red: digits[0] * 17, green: digits[1] * 17, blue: digits[2] * 17)
        case 4:
            return Color(red: digits[1] * 17, green: digits[2] * 17, blue: digits[3] * 17, alpha: digits[0] * 17)
        case 6:
            return Color(
                red: pair(digits[0], digits[1]), green: pair(digits[2], digits[3]), blue: pair(digits[4], digits[5]))
        case 8:
            return Color(
                red: pair(digits[2], digits[3]), green: pair(digits[4], digits[5]), blue: pair(digits[6], digits[7]),
                alpha: pair(digits[0], digits[1]))
        default: return nil
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    /// The framework's public plain colours (`@android:color/NAME`), as `#AARRGGBB`.
    public static let framework: [String: String] = [
        "darker_gray": "#ffaaaaaa", "white": "#ffffffff", "black": "#ff000000", "transparent": "#00000000",
        "background_dark": "#ff000000", "background_light": "#ffffffff", "holo_blue_light": "#ff33b5e5",
        "holo_blue_dark": "#ff0099cc", "holo_green_light": "#ff99cc00", "holo_green_dark": "#ff669900",
        "holo_red_light": "#ffff4444", "holo_red_dark": "#ffcc0000", "holo_orange_light": "#ffffbb33",
        "holo_orange_dark": "#ffff8800", "holo_purple": "#ffaa66cc", "holo_blue_bright": "#ff00ddff",
        "system_notification_accent_color": "#ff607d8b",
    ]
}
