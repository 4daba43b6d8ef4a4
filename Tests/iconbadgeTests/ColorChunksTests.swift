import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// An icon's colour chunks (iCCP, sRGB, gAMA, cHRM) are kept in its badged PNG, its
/// pixels stay exact, and the badge's sRGB colours are converted into its space.
@Suite struct ColorChunksTests {
    /// The chunk types of a PNG file, in order.
    static func chunks(_ path: String) throws -> [String] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var types: [String] = []
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
            offset += 12 + length
        }
        return types
    }

    static func count(_ pixels: PixelBuffer, _ color: Color, tolerance: Int = 0) -> Int {
        var count = 0
        for y in 0..<pixels.height {
            for x in 0..<pixels.width {
                let c = pixels[x, y]
                if abs(Int(c.red) - Int(color.red)) <= tolerance, abs(Int(c.green) - Int(color.green)) <= tolerance,
                    abs(Int(c.blue) - Int(color.blue)) <= tolerance, c.alpha == color.alpha
                {
                    count += 1
                }
            }
        }
        return count
    }

    /// A Generic-RGB-like profile (gamma 1.8): the profile is kept byte for byte, the
    /// icon's (0, 119, 235) stays, and the badge's #FF3B30 becomes (252, 33, 37), as
    /// Pillow's own LittleCMS (2.19) converts it (sRGB → the profile, relative
    /// colorimetric); ±1 for the two libraries' rounding.
    @Test func aProfileIsKeptAndTheBadgeConvertedIntoIt() throws {
        let icon = Paths.fixture("icons/icon-generic-rgb-96.png")
        let out = Paths.scratch("color-profile") + "/out.png"
        let run = try runIconbadge([icon, "--value", "3", "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(try Self.chunks(out).contains("iCCP"))
        // The profile (zlib-compressed in the chunk) decodes to the same bytes.
        let kept = try ImageFile.colorChunks(at: out)
        #expect(kept?.profile != nil)
        #expect(kept?.profile == (try ImageFile.colorChunks(at: icon))?.profile)
        #expect(
            kept?.profile
                == [UInt8](try Data(contentsOf: URL(fileURLWithPath: Paths.fixture("icons/icon-generic-rgb-96.icc")))))
        let pixels = try ImageFile.pixels(at: out)
        #expect(pixels[2, 90] == Color(rgb: 0x0077EB))
        #expect(Self.count(pixels, Color(red: 252, green: 33, blue: 37, alpha: 255), tolerance: 1) > 100)
        #expect(Self.count(pixels, Color(rgb: 0xFF3B30)) == 0)
        // Without the profile's conversion the badge would be #FF3B30: an sRGB icon.
        let plain = Paths.scratch("color-srgb")
        let srgb = try ImageFile.pngData(of: PixelBuffer(width: 96, height: 96, fill: Color(rgb: 0x0077EB)))
        try Data(srgb).write(to: URL(fileURLWithPath: plain + "/in.png"))
        #expect(try runIconbadge([plain + "/in.png", "--value", "3", "-o", plain + "/out.png"]).status == 0)
        #expect(Self.count(try ImageFile.pixels(at: plain + "/out.png"), Color(rgb: 0xFF3B30)) > 100)
        #expect(try !Self.chunks(plain + "/out.png").contains("iCCP"))
    }

    /// A badge image is converted too (a copy: the image file is not touched).
    @Test func aBadgeImageIsConvertedIntoTheProfile() throws {
        let folder = Paths.scratch("color-image")
        let red = try ImageFile.pngData(of: PixelBuffer(width: 20, height: 20, fill: Color(rgb: 0xFF3B30)))
        try Data(red).write(to: URL(fileURLWithPath: folder + "/red.png"))
        let run = try runIconbadge([
            Paths.fixture("icons/icon-generic-rgb-96.png"), "--image", folder + "/red.png", "-o", folder + "/out.png",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let pixels = try ImageFile.pixels(at: folder + "/out.png")
        #expect(Self.count(pixels, Color(red: 252, green: 33, blue: 37, alpha: 255), tolerance: 1) > 100)
    }

    /// gAMA 1/2.2 with sRGB's cHRM is sRGB (as browsers and libpng read it): the
    /// chunks are kept and the badge's colour is exact.
    @Test func gammaAndChromaticitiesOfSRGBAreKeptAsTheyAre() throws {
        let out = Paths.scratch("color-gama") + "/out.png"
        let run = try runIconbadge([Paths.fixture("icons/folder-132x132.png"), "--value", "3", "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.chunks(out).filter { ["gAMA", "cHRM"].contains($0) } == ["gAMA", "cHRM"])
        #expect(Self.count(try ImageFile.pixels(at: out), Color(rgb: 0xFF3B30)) > 100)
    }

    /// A 16-bit icon is written with 8 bits per channel, with a note saying why.
    @Test func aSixteenBitIconGetsANote() throws {
        let out = Paths.scratch("color-16") + "/out.png"
        let run = try runIconbadge([try Corpus.path("pngsuite/basn6a16.png"), "--dot", "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderrLines == [
                "iconbadge: note: the icon has 16 bits per channel; the output has 8 (Cairo 1.16 composites 8 bits per channel)"
            ], "\(run.stderr)")
    }
}
