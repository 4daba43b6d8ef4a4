import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

@Suite struct PNGDecodingTests {
    /// PngSuite's file names; empty (and the tests then fail, saying so) when the
    /// shared corpus is not beside the checkout.
    static let suite = ((try? FileManager.default.contentsOfDirectory(atPath: Paths.corpus("pngsuite"))) ?? [])
        .filter { $0.hasSuffix(".png") }.sorted()

    @Test func everyValidPngSuiteImageDecodes() throws {
        let valid = Self.suite.filter { !$0.hasPrefix("x") }
        #expect(valid.count >= 160, "the shared corpus must be at \(Paths.corpus("pngsuite"))")
        for name in valid {
            let pixels = try ImageFile.pixels(at: Paths.corpus("pngsuite/\(name)"))
            #expect(pixels.width > 0 && pixels.height > 0, "\(name)")
        }
    }

    @Test func everyCorruptPngSuiteImageIs65WithAReason() {
        let corrupt = Self.suite.filter { $0.hasPrefix("x") }
        #expect(corrupt.count == 14)
        for name in corrupt {
            do {
                _ = try ImageFile.pixels(at: Paths.corpus("pngsuite/\(name)"))
                Issue.record("\(name) decoded")
            } catch {
                #expect(error.exitCode == .dataError, "\(name)")
                #expect(!error.message.contains("out of memory"), "\(name): \(error.message)")
                #expect(error.message.contains(name), "\(name): \(error.message)")
            }
        }
    }

    @Test func expandsEveryColourTypeToTheSamePixels() throws {
        // basn0g08 (grey) and its RGB rendering agree; palette and RGB agree.
        let grey = try ImageFile.pixels(at: Paths.corpus("pngsuite/basn0g08.png"))
        #expect(grey[0, 0] == Color(red: 0, green: 0, blue: 0))
        #expect(grey[31, 31].red == grey[31, 31].green)
        let interlaced = try ImageFile.pixels(at: Paths.corpus("pngsuite/basi6a16.png"))
        let plain = try ImageFile.pixels(at: Paths.corpus("pngsuite/basn6a16.png"))
        #expect(interlaced == plain)
        // tRNS on a grey image becomes alpha 0 for the keyed value.
        let keyed = try ImageFile.pixels(at: Paths.corpus("pngsuite/tbbn0g04.png"))
        #expect(keyed.bytes.enumerated().contains { $0.offset % 4 == 3 && $0.element == 0 })
    }

    @Test func hugeChunkCrashersFailFastWithoutAllocating() {
        for name in ["huge_bKGD_chunk.png", "huge_IDAT.png", "huge_iTXt_chunk.png"] {
            let path = Paths.corpus("libpng-testpngs/crashers/\(name)")
            guard FileManager.default.fileExists(atPath: path) else { continue }
            #expect(throws: BadgeError.self, "\(name)") { try ImageFile.pixels(at: path) }
        }
    }
}

@Suite struct StraightDecodingTests {
    /// Comparisons read a PNG's samples exactly as stored (values read with Pillow):
    /// a translucent pixel keeps its colour, a transparent one becomes (0, 0, 0, 0).
    @Test func translucentPixelsAreExact() throws {
        let pixels = try ImageFile.pixels(at: Paths.corpus("pngsuite/basn6a08.png"))
        #expect(pixels[5, 3] == Color(red: 255, green: 95, blue: 8, alpha: 41))
        #expect(pixels[20, 10] == Color(red: 192, green: 255, blue: 6, alpha: 164))
        #expect(pixels[31, 31] == Color(red: 0, green: 32, blue: 255, alpha: 255))
        #expect(pixels[0, 0] == Color(red: 0, green: 0, blue: 0, alpha: 0))
    }
}
