import BadgeCore
import Foundation
import TestSupport
import Testing

@testable import BadgeRender

/// JPEGs that libjpeg-turbo reads cleanly are decoded in this process (JPEGCodec), with
/// the pixels of the isolated gdk-pixbuf child; every other one goes to that child.
@Suite struct JPEGDecodingTests {
    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// What the isolated child gives (gdk-pixbuf's loader), as straight RGBA.
    static func isolated(_ bytes: [UInt8]) throws -> PixelBuffer {
        try IsolatedLoader.decode(bytes, kind: "jpeg", scale: 1, size: nil, limits: ImageLimits(), path: "t.jpg")
            .surface.pixelBuffer()
    }

    /// Baseline and progressive, 4:2:0 colour (the odiff tiger, 1000 × 667), arithmetic
    /// coding, grey, progressive grey: the same pixels as the child's, in both forms.
    @Test(arguments: [
        "libjpeg-turbo-testimages/testorig.jpg", "libjpeg-turbo-testimages/testimgari.jpg",
        "libjpeg-turbo-testimages/testimgint.jpg", "odiff-bench/tiger.jpg",
    ])
    func corpusJPEGsGiveTheChildsPixels(name: String) throws {
        let bytes = try Self.bytes(try Corpus.path(name))
        let here = try #require(JPEGCodec.decodeStraight(bytes, limits: ImageLimits()))
        #expect(here == (try Self.isolated(bytes)), "\(name)")
        let surface = try #require(JPEGCodec.decodeSurface(bytes, limits: ImageLimits()))
        #expect(surface.pixelBuffer() == here, "\(name)")
    }

    @Test(arguments: ["folder-48.jpg", "folder-48-grey-progressive.jpg"])
    func fixturesGiveTheChildsPixels(name: String) throws {
        let bytes = try Self.bytes(Paths.fixture("formats/\(name)"))
        let here = try #require(JPEGCodec.decodeStraight(bytes, limits: ImageLimits()))
        #expect(here == (try Self.isolated(bytes)))
        #expect(try ImageFile.pixels(of: bytes, path: name) == here)
    }

    /// CMYK, 12-bit samples, 64 progressive scans (over the 32 read here), a truncated
    /// file (libjpeg warns), a size over the limits: declined here, and the child
    /// decodes or refuses them as it did.
    @Test func unusualFilesGoToTheChild() throws {
        let cmyk = try Self.bytes(Paths.fixture("formats/folder-48-cmyk.jpg"))
        let scans = try Self.bytes(Paths.fixture("formats/folder-48-64-scans.jpg"))
        let twelve = try Self.bytes(try Corpus.path("libjpeg-turbo-testimages/monkey12.jpg"))
        let whole = try Self.bytes(try Corpus.path("libjpeg-turbo-testimages/testorig.jpg"))
        let truncated = Array(whole.prefix(whole.count / 2))
        for bytes in [cmyk, scans, twelve, truncated] {
            #expect(JPEGCodec.decodeStraight(bytes, limits: ImageLimits()) == nil)
            #expect(JPEGCodec.decodeSurface(bytes, limits: ImageLimits()) == nil)
        }
        var small = ImageLimits()
        small.maxSide = 100
        #expect(JPEGCodec.decodeStraight(whole, limits: small) == nil)
        // The child still reads them: the same pixels as before, or its error.
        #expect(try ImageFile.pixels(of: cmyk, path: "c.jpg").width == 48)
        #expect(try ImageFile.pixels(of: scans, path: "s.jpg") == (try Self.isolated(scans)))
        #expect(try ImageFile.pixels(of: truncated, path: "t.jpg") == (try Self.isolated(truncated)))
        do {
            _ = try ImageFile.pixels(of: twelve, path: "m.jpg")
            Issue.record("a 12-bit JPEG decoded")
        } catch {
            #expect(error.message.contains("Unsupported JPEG data precision 12"), "\(error.message)")
        }
        do {
            _ = try ImageFile.pixels(of: whole, path: "w.jpg", limits: small)
            Issue.record("a JPEG over the side limit decoded")
        } catch {
            #expect(error.exitCode == .dataError && error.message.contains("100 px side limit"), "\(error.message)")
        }
    }
}
