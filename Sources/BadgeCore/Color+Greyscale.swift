extension Color {
    /// The colour's luma as a grey, alpha kept: Rec. 709 weights (ITU-R BT.709-6,
    /// item 3.2: Y = 0.2126 R + 0.7152 G + 0.0722 B) on the 8-bit values, rounded. An
    /// iOS 18 tinted icon is made from its image's luminance, so its badge is drawn in
    /// these greys.
    public var greyscale: Color {
        let luma = (0.2126 * Double(red) + 0.7152 * Double(green) + 0.0722 * Double(blue)).rounded()
        let grey = UInt8(max(0, min(255, luma)))
        return Color(red: grey, green: grey, blue: grey, alpha: alpha)
    }
}
