import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

@Suite struct PNGDecodingTests {
    /// The 14 corrupt PngSuite files (`x*.png`).
    static let corrupt = [
        "xc1n0g08", "xc9n2c08", "xcrn0g04", "xcsn0g01", "xd0n2c08", "xd3n2c08", "xd9n2c08", "xdtn0g01", "xhdn0g08",
        "xlfn0g04", "xs1n0g01", "xs2n0g01", "xs4n0g01", "xs7n0g01",
    ]

    /// All of PngSuite: 175 images, 161 of them valid.
    @Test func everyValidPngSuiteImageDecodes() throws {
        let suite = try Corpus.files(in: "pngsuite").filter { $0.hasSuffix(".png") }
        #expect(suite.count == 175)
        let valid = suite.filter { !$0.hasPrefix("x") }
        #expect(valid.count == 161)
        for name in valid {
            let pixels = try ImageFile.pixels(at: try Corpus.path("pngsuite/\(name)"))
            #expect(pixels.width > 0 && pixels.height > 0, "\(name)")
        }
    }

    @Test func everyCorruptPngSuiteImageIs65WithAReason() throws {
        let files = try regularFiles(in: try Corpus.path("pngsuite")).filter { $0.hasPrefix("x") }
        #expect(files == Self.corrupt.map { $0 + ".png" })
        for name in files {
            let path = try Corpus.path("pngsuite/\(name)")
            do {
                _ = try ImageFile.pixels(at: path)
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
        let grey = try ImageFile.pixels(at: try Corpus.path("pngsuite/basn0g08.png"))
        #expect(grey[0, 0] == Color(red: 0, green: 0, blue: 0))
        #expect(grey[31, 31].red == grey[31, 31].green)
        let interlaced = try ImageFile.pixels(at: try Corpus.path("pngsuite/basi6a16.png"))
        let plain = try ImageFile.pixels(at: try Corpus.path("pngsuite/basn6a16.png"))
        #expect(interlaced == plain)
        // tRNS on a grey image becomes alpha 0 for the keyed value.
        let keyed = try ImageFile.pixels(at: try Corpus.path("pngsuite/tbbn0g04.png"))
        #expect(keyed.bytes.enumerated().contains { $0.offset % 4 == 3 && $0.element == 0 })
    }

    /// libpng's crashers whose chunk claims a length of about 1 GiB: refused with 65,
    /// naming the file, before anything that size is allocated.
    @Test(arguments: ["huge_bKGD_chunk.png", "huge_IDAT.png", "huge_iTXt_chunk.png"])
    func hugeChunkCrashersFailFastWithoutAllocating(name: String) throws {
        let path = try Corpus.path("libpng-testpngs/crashers/\(name)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count < 100)
        do {
            _ = try ImageFile.pixels(at: path)
            Issue.record("\(name) decoded")
        } catch {
            #expect(error.exitCode == .dataError, "\(name): \(error.message)")
            #expect(error.message.contains(name) && !error.message.contains("out of memory"), "\(error.message)")
        }
    }
}

@Suite struct StraightDecodingTests {
    /// Comparisons read a PNG's samples exactly as stored (values read with Pillow):
    /// a translucent pixel keeps its colour, a transparent one becomes (0, 0, 0, 0).
    @Test func translucentPixelsAreExact() throws {
        let pixels = try ImageFile.pixels(at: try Corpus.path("pngsuite/basn6a08.png"))
        #expect(pixels[5, 3] == Color(red: 255, green: 95, blue: 8, alpha: 41))
        #expect(pixels[20, 10] == Color(red: 192, green: 255, blue: 6, alpha: 164))
        #expect(pixels[31, 31] == Color(red: 0, green: 32, blue: 255, alpha: 255))
        #expect(pixels[0, 0] == Color(red: 0, green: 0, blue: 0, alpha: 0))
    }
}
