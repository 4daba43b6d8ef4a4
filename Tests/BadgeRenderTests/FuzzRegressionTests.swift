import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Inputs kept from FuzzPNG, FuzzSVG and FuzzCompare (Fixtures/fuzz-regressions/<target>),
/// decoded as those targets decode them: an image or a 65, never a crash.
@Suite struct ImageFuzzRegressionTests {
    static func files(_ target: String) -> [String] {
        let folder = Paths.fixture("fuzz-regressions/\(target)")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { folder + "/" + $0 }
    }

    static var smallLimits: ImageLimits {
        var limits = ImageLimits()
        limits.maxSide = 512
        limits.maxPixels = 262_144
        limits.maxSVGBytes = 1 << 20
        return limits
    }

    @Test(arguments: ["FuzzPNG", "FuzzSVG"])
    func keptImagesDecodeOrAreRefusedWith65(target: String) throws {
        for path in Self.files(target) {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            do {
                let pixels = try ImageFile.pixels(of: bytes, path: path, limits: Self.smallLimits)
                #expect(pixels.bytes.count == pixels.width * pixels.height * 4)
            } catch {
                #expect(error.exitCode == .dataError, "\(path): \(error.message)")
            }
        }
    }
}
