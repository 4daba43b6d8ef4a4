extension Color {
    /// The colour's luma as a grey, alpha kept: Rec. 709 weights (`Rec709.luma`:
    /// ITU-R BT.709-6, item 3.2: Y = 0.2126 R + 0.7152 G + 0.0722 B) on the 8-bit
    /// values, rounded half up. An iOS 18 tinted icon is made from its image's
    /// luminance, so its badge is drawn in these greys.
    public var greyscale: Color {
        let grey = Rec709.luma(red: red, green: green, blue: blue)
        return Color(red: grey, green: grey, blue: grey, alpha: alpha)
    }
}
