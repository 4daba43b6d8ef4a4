import BadgeCore
internal import CLittleCMS
internal import CPngCodec

/// A PNG icon's colour chunks (sRGB, gAMA, cHRM, iCCP) and bit depth, as read: a
/// badged copy keeps them, so it displays as the original did, and the badge's sRGB
/// colours are converted into the colour space they describe (`ColorConversion`),
/// so the badge looks as asked while the icon's pixels stay exact.
public struct ColorChunks: Sendable, Equatable {
    /// The sRGB chunk's rendering intent, when there is one.
    public var srgbIntent: Int?
    /// gAMA, × 100000 (45455 is 1/2.2), when there is one.
    public var gamma: Int32?
    /// cHRM: white x, y, red x, y, green x, y, blue x, y, each × 100000.
    public var chromaticities: [Int32]?
    /// iCCP's profile name (Latin-1, at most 79 bytes), when there is one.
    public var profileName: String?
    /// iCCP's ICC profile, decompressed (bytes), when there is one.
    public var profile: [UInt8]?
    /// Bits per channel in the file (1 to 16).
    public var bitDepth: Int

    /// sRGB's cHRM values (PNG 1.2, section 11.3.3.5; libpng's `png_set_sRGB_gAMA_and_cHRM`).
    static let srgbChromaticities: [Int32] = [31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000]

    /// Whether gAMA and cHRM alone say sRGB: a gamma of 1/2.2 (45455, within 1 %) and
    /// sRGB's chromaticities (within 0.001) or none, with no profile. Many tools write
    /// these for sRGB images without an sRGB chunk, and browsers and libpng treat them
    /// as sRGB; converting into a pure 2.2 power curve would shift the badge's colours
    /// by a level or two for nothing.
    var isSRGBEquivalent: Bool {
        guard profile == nil else { return false }
        if let gamma, abs(Double(gamma) - 45455) > 455 { return false }
        if let chromaticities {
            guard chromaticities.count == 8 else { return false }
            for (value, expected) in zip(chromaticities, Self.srgbChromaticities) where abs(value - expected) > 100 {
                return false
            }
        }
        return true
    }

    /// Whether the file says anything about its colour space.
    public var describesColor: Bool { srgbIntent != nil || gamma != nil || chromaticities != nil || profile != nil }

    /// Takes over what the decoder copied into `color` (and frees it).
    init(adopting color: inout ib_png_color) {
        defer { ib_png_color_free(&color) }
        bitDepth = Int(color.bit_depth)
        srgbIntent = color.has_srgb != 0 ? Int(color.srgb_intent) : nil
        gamma = color.has_gama != 0 ? color.gama : nil
        if color.has_chrm != 0 {
            chromaticities = withUnsafeBytes(of: color.chrm) { Array($0.bindMemory(to: Int32.self)) }
        }
        if let icc = color.icc, color.icc_size > 0 {
            profile = Array(UnsafeBufferPointer(start: icc, count: Int(color.icc_size)))
            profileName = withUnsafeBytes(of: color.icc_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
        }
    }

    /// Runs `body` with the C form of these chunks.
    func withC<T>(_ body: (UnsafePointer<ib_png_color>) throws(BadgeError) -> T) throws(BadgeError) -> T {
        var color = ib_png_color()
        color.bit_depth = Int32(bitDepth)
        if let srgbIntent {
            color.has_srgb = 1
            color.srgb_intent = Int32(srgbIntent)
        }
        if let gamma {
            color.has_gama = 1
            color.gama = gamma
        }
        if let chromaticities, chromaticities.count == 8 {
            color.has_chrm = 1
            withUnsafeMutableBytes(of: &color.chrm) { raw in
                let words = raw.bindMemory(to: Int32.self)
                for index in 0..<8 { words[index] = chromaticities[index] }
            }
        }
        let name = Array((profileName ?? "ICC profile").utf8.prefix(79))
        withUnsafeMutableBytes(of: &color.icc_name) { raw in
            for (index, byte) in name.enumerated() { raw[index] = byte }
            raw[name.count] = 0
        }
        guard var profile, !profile.isEmpty else { return try body(&color) }
        return try profile.withUnsafeMutableBufferPointer { (buffer) throws(BadgeError) -> T in
            color.icc = buffer.baseAddress
            color.icc_size = UInt32(buffer.count)
            return try body(&color)
        }
    }
}

/// Converts sRGB colours and pixels into the colour space an icon's chunks
/// describe, with LittleCMS (relative colorimetric intent: the badge's red stays the
/// nearest red the icon's space holds). One conversion serves one render (one
/// thread).
///
/// - An sRGB chunk: the icon is sRGB; nothing to convert.
/// - An iCCP profile of an RGB space: sRGB → that profile.
/// - gAMA and/or cHRM without a profile: sRGB → the RGB space they describe (sRGB's
///   primaries and white where cHRM is absent; the gamma 1 / gAMA where gAMA is),
///   as PNG 1.2 section 10.5 reads them.
/// - Anything else (a grey or CMYK profile, a profile LittleCMS cannot read): no
///   conversion, and the caller notes it.
final class ColorConversion {
    /// What `make` found.
    enum Result {
        /// sRGB or untagged: nothing to convert.
        case none
        case convert(ColorConversion)
        /// The chunks describe a space this cannot convert into; why.
        case unsupported(String)
    }

    private let colors: cmsHTRANSFORM
    private let pixels: cmsHTRANSFORM

    private init(colors: cmsHTRANSFORM, pixels: cmsHTRANSFORM) {
        self.colors = colors
        self.pixels = pixels
    }

    deinit {
        cmsDeleteTransform(colors)
        cmsDeleteTransform(pixels)
    }

    /// The conversion from sRGB into the space `chunks` describe.
    static func make(_ chunks: ColorChunks?) -> Result {
        guard let chunks, chunks.describesColor, chunks.srgbIntent == nil, !chunks.isSRGBEquivalent else {
            return .none
        }
        let target: cmsHPROFILE?
        if let profile = chunks.profile {
            target = profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
            guard let target else { return .unsupported("LittleCMS cannot read its ICC profile") }
            guard cmsGetColorSpace(target) == cmsSigRgbData else {
                cmsCloseProfile(target)
                return .unsupported("its ICC profile is not an RGB profile")
            }
        } else {
            let c = (chunks.chromaticities ?? ColorChunks.srgbChromaticities).map {
                Double($0) / 100000
            }
            var white = cmsCIExyY(x: c[0], y: c[1], Y: 1)
            var primaries = cmsCIExyYTRIPLE(
                Red: cmsCIExyY(x: c[2], y: c[3], Y: 1), Green: cmsCIExyY(x: c[4], y: c[5], Y: 1),
                Blue: cmsCIExyY(x: c[6], y: c[7], Y: 1))
            let exponent = chunks.gamma.map { 100000 / Double(max($0, 1)) } ?? 2.2
            let curve = cmsBuildGamma(nil, exponent)
            var curves: [OpaquePointer?] = [curve, curve, curve]
            target = curves.withUnsafeMutableBufferPointer { cmsCreateRGBProfile(&white, &primaries, $0.baseAddress) }
            cmsFreeToneCurve(curve)
            guard target != nil else { return .unsupported("its gAMA/cHRM describe no usable RGB space") }
        }
        let source = cmsCreate_sRGBProfile()
        defer {
            cmsCloseProfile(source)
            cmsCloseProfile(target)
        }
        let intent = cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC)
        guard
            let colors = cmsCreateTransform(
                source, IB_TYPE_RGB_8, target, IB_TYPE_RGB_8, intent, 0)
        else { return .unsupported("LittleCMS cannot convert into its colour space") }
        // Cairo's ARGB32 words are B, G, R, A bytes in memory on little-endian CPUs.
        let layout = isLittleEndian ? IB_TYPE_BGRA_8_PREMUL : IB_TYPE_ARGB_8_PREMUL
        guard
            let pixels = cmsCreateTransform(
                source, layout, target, layout, intent, cmsUInt32Number(cmsFLAGS_COPY_ALPHA))
        else {
            cmsDeleteTransform(colors)
            return .unsupported("LittleCMS cannot convert into its colour space")
        }
        return .convert(ColorConversion(colors: colors, pixels: pixels))
    }

    private static var isLittleEndian: Bool { 1.littleEndian == 1 }

    /// `color` (straight sRGB) in the icon's space, alpha kept.
    func convert(_ color: Color) -> Color {
        var input: [UInt8] = [color.red, color.green, color.blue]
        var output: [UInt8] = [0, 0, 0]
        cmsDoTransform(colors, &input, &output, 1)
        return Color(red: output[0], green: output[1], blue: output[2], alpha: color.alpha)
    }

    /// Converts premultiplied ARGB32 pixels (a badge image, taken as sRGB) in place.
    func convert(_ surface: ImageSurface) {
        for row in 0..<surface.height {
            let start = surface.data + row * surface.stride
            cmsDoTransform(pixels, start, start, cmsUInt32Number(surface.width))
        }
        surface.markDirty()
    }
}
