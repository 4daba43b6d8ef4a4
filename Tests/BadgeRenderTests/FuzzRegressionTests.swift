import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Inputs kept from FuzzPNG and FuzzSVG (Fixtures/fuzz-regressions/<target>), decoded
/// as those targets decode them, with the invariants they check: an image or a 65,
/// never a crash; for FuzzPNG also the write and read-back of the pixels.
@Suite struct ImageFuzzRegressionTests {
    /// The kept inputs of a target's folder (which must exist: a missing folder is an
    /// error, not a loop over nothing).
    static func files(_ target: String) throws -> [String] {
        let folder = Paths.fixture("fuzz-regressions/\(target)")
        return try regularFiles(in: folder).map { folder + "/" + $0 }
    }

    static var smallLimits: ImageLimits {
        var limits = ImageLimits()
        limits.maxSide = 512
        limits.maxPixels = 262_144
        limits.maxSVGBytes = 1 << 20
        return limits
    }

    /// How many inputs each target's folder holds.
    @Test(arguments: [("FuzzPNG", 1), ("FuzzSVG", 2)])
    func keptImagesDecodeOrAreRefusedWith65(target: String, count: Int) throws {
        let files = try Self.files(target)
        #expect(files.count == count, "\(files)")
        for path in files {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            do {
                let pixels = try ImageFile.pixels(of: bytes, path: path, limits: Self.smallLimits)
                #expect(pixels.bytes.count == pixels.width * pixels.height * 4)
                if target == "FuzzPNG" {
                    // FuzzPNG's invariant: what a golden goes through gives the same pixels.
                    let encoded = try ImageFile.pngData(of: pixels, compression: .fast)
                    #expect(try ImageFile.pixels(of: encoded, path: "again.png") == pixels, "\(path)")
                }
            } catch {
                #expect(error.exitCode == .dataError, "\(path): \(error.message)")
            }
        }
    }

    /// write-read-back-basn4a08.png (PngSuite's basn4a08): before 18345be its pixels
    /// written as PNG and read back differed (premultiplication lost 453 colours), so
    /// FuzzPNG's invariant failed on it. It decodes; the invariant above holds for it.
    @Test func keptPNGDecodes() throws {
        let path = Paths.fixture("fuzz-regressions/FuzzPNG/write-read-back-basn4a08.png")
        let pixels = try ImageFile.pixels(at: path, limits: Self.smallLimits)
        #expect(pixels.width == 32 && pixels.height == 32)
    }
}
