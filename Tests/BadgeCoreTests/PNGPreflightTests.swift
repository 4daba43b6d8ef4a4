import Foundation
import TestSupport
import Testing

@testable import BadgeCore

@Suite struct PNGPreflightTests {
    func check(_ bytes: [UInt8], limits: ImageLimits = ImageLimits()) throws(PNGPreflightError) -> PNGHeader {
        let result: Result<PNGHeader, PNGPreflightError> = bytes.withUnsafeBytes { raw in
            Result { () throws(PNGPreflightError) in try PNGPreflight.check(raw, limits: limits) }
        }
        return try result.get()
    }

    /// The bytes of a file of the test corpus (`pngsuite/basi6a16.png`).
    func file(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: try Corpus.path(relative))))
    }

    @Test func readsTheHeader() throws {
        let header = try check(try file("pngsuite/basi6a16.png"))
        #expect(header == PNGHeader(width: 32, height: 32, bitDepth: 16, colorType: 6, interlaced: true))
    }

    @Test func refusesLyingChunkLengthsBeforeAnyDecoder() throws {
        // All 19 of libpng's huge_* crashers.
        let crashers = try Corpus.files(in: "libpng-testpngs/crashers").filter { $0.hasPrefix("huge_") }
        #expect(crashers.count == 19)
        for name in crashers {
            let bytes = Array(
                try Data(contentsOf: URL(fileURLWithPath: try Corpus.path("libpng-testpngs/crashers/\(name)"))))
            #expect(throws: PNGPreflightError.self, "\(name)") { try check(bytes) }
        }
    }

    @Test(arguments: ["xs1n0g01", "xs2n0g01", "xs4n0g01", "xs7n0g01", "xcrn0g04", "xlfn0g04"])
    func refusesBadSignatures(name: String) throws {
        #expect(throws: PNGPreflightError.corrupt("not a PNG file (bad signature)")) {
            try check(try file("pngsuite/\(name).png"))
        }
    }

    @Test func namesBadColourTypeAndDepth() throws {
        #expect(throws: PNGPreflightError.corrupt("invalid colour type 1")) {
            try check(try file("pngsuite/xc1n0g08.png"))
        }
        #expect(throws: PNGPreflightError.corrupt("invalid bit depth 0 for colour type 2")) {
            try check(try file("pngsuite/xd0n2c08.png"))
        }
        #expect(throws: PNGPreflightError.corrupt("no image data (no IDAT chunk)")) {
            try check(try file("pngsuite/xdtn0g01.png"))
        }
    }

    @Test func enforcesSizeLimitsFromTheHeader() throws {
        var limits = ImageLimits()
        limits.maxSide = 16
        #expect(
            throws: PNGPreflightError.tooLarge(.imageSide(width: 32, height: 32, limit: 16))
        ) {
            try check(try file("pngsuite/basn2c08.png"), limits: limits)
        }
        limits = ImageLimits()
        limits.maxPixels = 1000
        #expect(throws: PNGPreflightError.tooLarge(.imagePixels(width: 32, height: 32, limit: 1000))) {
            try check(try file("pngsuite/basn2c08.png"), limits: limits)
        }
    }
}
