/// Font files that `make deps` installs (fonts-noto-cjk, fonts-noto-color-emoji),
/// used by path so results do not depend on what else a machine has.
public enum SystemFonts {
    /// Noto Sans CJK Bold, a collection; face 0 is the Japanese one.
    public static let notoCJKBold = "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"
    /// Noto Color Emoji (CBDT colour bitmaps).
    public static let notoColorEmoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
}
