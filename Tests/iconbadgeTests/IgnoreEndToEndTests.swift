import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// `--ignore`, `--mask` and `--stored-color` on `compare` and `--check`, run as CI would:
/// exit codes, messages, JSON keys and the hidden colour of hand-made PNGs.
@Suite struct IgnoreEndToEndTests {
    static let icon = Paths.fixture("icons/folder-48x48.png")

    func json(_ run: RunResult) throws -> JSONValue { try JSONParser().parse(run.stdoutText) }

    /// 40 × 20 white with a black bar (the expected image), and the same with a
    /// "timestamp" changed in the bottom-right 10 × 5 corner (the actual image).
    func pair(in folder: String) throws -> (actual: String, expected: String) {
        var expected = PixelBuffer(width: 40, height: 20, fill: .white)
        for x in 2..<20 { expected[x, 4] = .black }
        var actual = expected
        for x in 31..<39 { actual[x, 17] = Color(red: 200, green: 0, blue: 0) }
        actual[35, 16] = .black
        try Data(try ImageFile.pngData(of: expected)).write(to: URL(fileURLWithPath: folder + "/expected.png"))
        try Data(try ImageFile.pngData(of: actual)).write(to: URL(fileURLWithPath: folder + "/actual.png"))
        return (folder + "/actual.png", folder + "/expected.png")
    }

    @Test func ignoringTheChangedRectangleTurnsADifferenceIntoAMatch() throws {
        let folder = Paths.scratch("ignore-compare")
        let (actual, expected) = try pair(in: folder)
        let differ = try runIconbadge(["compare", actual, expected, "--json"])
        #expect(differ.status == 1)
        #expect(try json(differ)["differentPixels"] == .number(9))
        // In pixels, in percent (75 % of 40 is 30, of 20 is 15), and as two rectangles.
        for ignore in [["30,15,10,5"], ["75%,75%,25%,25%"], ["31,17,8,1", "35,16,1,1"]] {
            let run = try runIconbadge(["compare", actual, expected] + ignore.flatMap { ["--ignore", $0] })
            #expect(run.status == 0, "\(ignore): \(run.stdoutText)\(run.stderr)")
            let ignored = ignore.count == 2 ? 9 : 50
            #expect(run.stdoutText == "same: \(800 - ignored) pixels equal, \(ignored) ignored\n", "\(ignore)")
        }
        // One pixel short: the one left over still differs, and the line says how many were ignored.
        let short = try runIconbadge(["compare", actual, expected, "--ignore", "31,17,8,1", "--json"])
        #expect(short.status == 1)
        let report = try json(short)
        #expect(report["differentPixels"] == .number(1))
        #expect(report["ignoredPixels"] == .number(8))
        #expect(report["totalPixels"] == .number(800))
        let line = try runIconbadge(["compare", actual, expected, "--ignore", "31,17,8,1", "--max-diff-pixels", "0"])
        #expect(line.stdoutText.hasSuffix(", 8 ignored\n"), "\(line.stdoutText)")
        // The exact mode's quick answer (no --json, no budget) still stops at a difference.
        let quick = try runIconbadge(["compare", actual, expected, "--ignore", "31,17,8,1"])
        #expect(quick.status == 1)
        #expect(quick.stdoutText.hasPrefix("different: pixels differ (stopped at the first"), "\(quick.stdoutText)")
    }

    @Test func ratioBudgetIsOverAllPixelsIgnoredOnesIncluded() throws {
        let folder = Paths.scratch("ignore-ratio")
        let (actual, expected) = try pair(in: folder)
        // 1 of 800 differs once 8 are ignored: 0.00125 of all pixels (1 of 792 compared
        // would be 0.00126, over the budget).
        let run = try runIconbadge([
            "compare", actual, expected, "--ignore", "31,17,8,1", "--max-diff-ratio", "0.00125",
        ])
        #expect(run.status == 0, "\(run.stdoutText)")
        #expect(run.stdoutText.hasPrefix("same within budget: 1 of 800 pixels differ (0.125%)"), "\(run.stdoutText)")
    }

    @Test func maskIgnoresItsDarkAndTransparentAreas() throws {
        let folder = Paths.scratch("ignore-mask")
        let (actual, expected) = try pair(in: folder)
        // White (compared) with the bottom-right corner black and one pixel transparent.
        var mask = PixelBuffer(width: 40, height: 20, fill: .white)
        for y in 17..<20 { for x in 30..<40 { mask[x, y] = .black } }
        mask[35, 16] = .transparent
        try Data(try ImageFile.pngData(of: mask)).write(to: URL(fileURLWithPath: folder + "/mask.png"))
        let run = try runIconbadge(["compare", actual, expected, "--mask", folder + "/mask.png", "--json"])
        #expect(run.status == 0, "\(run.stdoutText)\(run.stderr)")
        let report = try json(run)
        #expect(report["ignoredPixels"] == .number(31))
        #expect(report["mask"] == .string(folder + "/mask.png"))
        #expect(report["ignoreRegions"] == .number(0))
        // Mask and rectangle together: the union (the rectangle adds row 16's other 9 pixels).
        let union = try runIconbadge([
            "compare", actual, expected, "--mask", folder + "/mask.png", "--ignore", "30,16,10,1", "--json",
        ])
        #expect(try json(union)["ignoredPixels"] == .number(40))
        #expect(try json(union)["ignoreRegions"] == .number(1))
    }

    @Test func maskErrorsAreBadDataAndMissingInput() throws {
        let folder = Paths.scratch("ignore-mask-errors")
        let (actual, expected) = try pair(in: folder)
        try Data(try ImageFile.pngData(of: PixelBuffer(width: 20, height: 20, fill: .white)))
            .write(to: URL(fileURLWithPath: folder + "/small.png"))
        let wrong = try runIconbadge(["compare", actual, expected, "--mask", folder + "/small.png"])
        #expect(wrong.status == 65)
        #expect(
            wrong.stderr
                == "iconbadge: error: \"\(folder)/small.png\": the mask is 20 × 20 pixels and the expected image 40 × 20; make the mask the expected image's size\n"
        )
        let missing = try runIconbadge(["compare", actual, expected, "--mask", folder + "/none.png"])
        #expect(missing.status == 66)
        #expect(missing.stderr == "iconbadge: error: \"\(folder)/none.png\": no such mask image\n")
        // The mask is an input: neither --diff nor a check's artifact may write over it.
        let mask = folder + "/mask.png"
        try Data(try ImageFile.pngData(of: PixelBuffer(width: 40, height: 20, fill: .white)))
            .write(to: URL(fileURLWithPath: mask))
        let overDiff = try runIconbadge(["compare", actual, expected, "--mask", mask, "--diff", mask])
        #expect(overDiff.status == 64)
        #expect(overDiff.stderr.contains("is an input file"), "\(overDiff.stderr)")
        let golden = folder + "/icon.png"
        #expect(try runIconbadge([Self.icon, "--value", "3", "--check", golden, "--update"]).status == 0)
        try Data(try ImageFile.pngData(of: PixelBuffer(width: 48, height: 48, fill: .black)))
            .write(to: URL(fileURLWithPath: folder + "/icon.diff.png"))
        let overArtifact = try runIconbadge([
            Self.icon, "--value", "4", "--check", golden, "--mask", folder + "/icon.diff.png",
        ])
        #expect(overArtifact.status == 64, "\(overArtifact.stderr)")
        #expect(try ImageFile.pixels(at: folder + "/icon.diff.png")[0, 0] == .black)
        let stdin = try runIconbadge(["compare", actual, expected, "--mask", "-"])
        #expect(stdin.status == 64)
        #expect(stdin.stderr.contains("--mask: \"-\" is standard input; give the mask as a file path"))
    }

    @Test func badIgnoreValuesAreUsageErrorsNamingTheValue() throws {
        let folder = Paths.scratch("ignore-usage")
        let (actual, expected) = try pair(in: folder)
        let cases: [(String, String)] = [
            ("1,2,3", "--ignore: \"1,2,3\" is not X,Y,W,H (give four values, each pixels or a percentage"),
            ("-1,0,5,5", "--ignore: \"-1,0,5,5\" has X = -1; X and Y must be 0 or more"),
            ("0,0,0,5", "--ignore: \"0,0,0,5\" has W = 0; W and H must be greater than 0"),
            ("0,0,5,120%", "--ignore: \"0,0,5,120%\" has H = 120%; a percentage is at most 100%"),
            ("0,top,5,5", "--ignore: \"0,top,5,5\" has Y = \"top\", which is not a number of pixels or a percentage"),
        ]
        for (value, message) in cases {
            let run = try runIconbadge(["compare", actual, expected, "--ignore", value])
            #expect(run.status == 64, "\(value)")
            #expect(run.stderrLines.count == 1, "\(value): \(run.stderr)")
            #expect(run.stderr.hasPrefix("iconbadge: error: " + message), "\(run.stderr)")
        }
        // Without --check, the render command refuses the comparison options.
        let render = try runIconbadge([Self.icon, "--value", "3", "--ignore", "0,0,5,5", "-o", folder + "/o.png"])
        #expect(render.status == 64)
    }

    @Test func jsonHasTheNewKeysWithTheirDefaults() throws {
        let folder = Paths.scratch("ignore-json")
        let (actual, expected) = try pair(in: folder)
        let report = try json(try runIconbadge(["compare", actual, expected, "--json"]))
        #expect(report["schema"] == .number(1))
        #expect(report["ignoredPixels"] == .number(0))
        #expect(report["ignoreRegions"] == .number(0))
        #expect(report["mask"] == .null)
        #expect(report["storedColor"] == .bool(false))
        let flagged = try json(try runIconbadge(["compare", actual, expected, "--json", "--stored-color"]))
        #expect(flagged["storedColor"] == .bool(true))
    }

    @Test func checkAgainstAGoldenHonoursIgnore() throws {
        let folder = Paths.scratch("ignore-check")
        let golden = folder + "/icon.png"
        #expect(try runIconbadge([Self.icon, "--value", "3", "--check", golden, "--update"]).status == 0)
        let differ = try runIconbadge([Self.icon, "--value", "4", "--check", golden, "--artifacts", folder + "/a"])
        #expect(differ.status == 1)
        // The badge sits in the top-right quarter.
        let ignored = try runIconbadge([
            Self.icon, "--value", "4", "--check", golden, "--ignore", "50%,0,50%,50%", "--artifacts", folder + "/b",
        ])
        #expect(ignored.status == 0, "\(ignored.stdoutText)\(ignored.stderr)")
        #expect(ignored.stdoutText == "passed \(golden): 1728 pixels equal, 576 ignored\n")
        #expect(!FileManager.default.fileExists(atPath: folder + "/b"))
        // A failing check draws the ignored quarter in the diff image.
        let left = try runIconbadge([
            Self.icon, "--value", "4", "--check", golden, "--ignore", "0,0,50%,100%", "--artifacts", folder + "/c",
        ])
        #expect(left.status == 1)
        let diff = try ImageFile.pixels(at: folder + "/c/icon.png.diff.png")
        #expect(diff[0, 0] == Color(red: 153, green: 204, blue: 255), "a transparent corner: faded white, tinted")
        #expect(diff[47, 47] != Color(red: 153, green: 204, blue: 255))
        // batch --check takes the same options.
        let manifest = #"{"jobs":[{"icon":"\#(Self.icon)","value":"4","output":"icon.png"}]}"#
        try manifest.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        let batch = try runIconbadge(["batch", folder + "/m.json", "--check", folder, "--ignore", "50%,0,50%,50%"])
        #expect(batch.status == 0, "\(batch.stderr)")
        // A job adds its own regions ("ignore": [...]) and mask to the command's.
        let keyed =
            #"{"jobs":[{"icon":"\#(Self.icon)","value":"4","output":"icon.png","ignore":["50%,0,50%,25%","50%,25%,50%,25%"]}]}"#
        try keyed.write(toFile: folder + "/k.json", atomically: true, encoding: .utf8)
        let perJob = try runIconbadge(["batch", folder + "/k.json", "--check", folder], in: folder)
        #expect(perJob.status == 0, "\(perJob.stderr)")
        let tooSmall =
            #"{"jobs":[{"icon":"\#(Self.icon)","value":"4","output":"icon.png","ignore":["50%,0,50%,25%"]}]}"#
        try tooSmall.write(toFile: folder + "/t.json", atomically: true, encoding: .utf8)
        #expect(try runIconbadge(["batch", folder + "/t.json", "--check", folder], in: folder).status == 1)
        // A bad region names the job and key; strictness stays the command's (65).
        let bad = #"{"jobs":[{"icon":"\#(Self.icon)","value":"4","output":"icon.png","ignore":"0,0,0,1"}]}"#
        try bad.write(toFile: folder + "/b.json", atomically: true, encoding: .utf8)
        let badRun = try runIconbadge(["batch", folder + "/b.json", "--check", folder], in: folder)
        #expect(badRun.status == 65 && badRun.stderr.contains("jobs[0].ignore"), "\(badRun.stderr)")
        let strict = #"{"jobs":[{"icon":"\#(Self.icon)","value":"4","output":"icon.png","threshold":"0.5"}]}"#
        try strict.write(toFile: folder + "/s.json", atomically: true, encoding: .utf8)
        #expect(try runIconbadge(["batch", folder + "/s.json", "--check", folder], in: folder).status == 65)
        // Everything ignored compares nothing: refused.
        let all = try runIconbadge([Self.icon, "--value", "4", "--check", golden, "--ignore", "0,0,100%,100%"])
        #expect(all.status == 64 && all.stderr.contains("leave no pixel"), "\(all.stderr)")
    }

    // MARK: - Stored colour under alpha 0

    /// An 8-bit RGBA PNG of `pixels` exactly as given, colour under alpha 0 included
    /// (iconbadge's own encoder writes such pixels as 0, 0, 0, 0): filter 0 rows in
    /// stored (uncompressed) deflate blocks, RFC 1950/1951.
    static func rawPNG(_ pixels: PixelBuffer) -> [UInt8] {
        var raw: [UInt8] = []
        for y in 0..<pixels.height {
            raw.append(0)
            raw += pixels.bytes[(y * pixels.width * 4)..<((y + 1) * pixels.width * 4)]
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, raw.count - offset)
            let final: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        var a = 1
        var b = 0
        for byte in raw {
            a = (a + Int(byte)) % 65521
            b = (b + a) % 65521
        }
        zlib += HostileFiles.be32(b << 16 | a)
        return PNGPreflight.signature
            + HostileFiles.chunk(
                "IHDR", HostileFiles.be32(pixels.width) + HostileFiles.be32(pixels.height) + [8, 6, 0, 0, 0])
            + HostileFiles.chunk("IDAT", zlib) + HostileFiles.chunk("IEND", [])
    }

    /// IgnoreRegionTests' 8 × 5 case: black column 0, column 1 black / grey / white /
    /// grey / black, the centre (2, 2) `centre`, the rest transparent, storing a colour
    /// of its own under each pixel when `hidden`.
    static func transparentEdge(centre: Color, hidden: Bool) -> PixelBuffer {
        var image = PixelBuffer(width: 8, height: 5, fill: .transparent)
        let grey = Color(red: 128, green: 128, blue: 128)
        for y in 0..<5 {
            image[0, y] = .black
            for x in 2..<8 where hidden {
                image[x, y] = Color(red: UInt8(30 * x), green: UInt8(40 * y), blue: 7, alpha: 0)
            }
        }
        for (y, color) in [Color.black, grey, .white, grey, .black].enumerated() { image[1, y] = color }
        image[2, 2] = centre
        return image
    }

    @Test func storedColorKeepsWhatAPNGStoresUnderAlphaZero() throws {
        let folder = Paths.scratch("stored-color")
        let hidden = Self.transparentEdge(centre: .white, hidden: true)
        try Data(Self.rawPNG(hidden)).write(to: URL(fileURLWithPath: folder + "/hidden.png"))
        #expect(try ImageFile.pixels(at: folder + "/hidden.png", keepTransparentColor: true) == hidden)
        let cleared = try ImageFile.pixels(at: folder + "/hidden.png")
        #expect(cleared == Self.transparentEdge(centre: .white, hidden: false))
        #expect(cleared[5, 3] == .transparent)
    }

    @Test func storedColorChangesTheExactCount() throws {
        let folder = Paths.scratch("stored-color-exact")
        let actual = Self.transparentEdge(centre: .white, hidden: true)
        let expected = Self.transparentEdge(centre: .white, hidden: false)
        try Data(Self.rawPNG(actual)).write(to: URL(fileURLWithPath: folder + "/a.png"))
        try Data(Self.rawPNG(expected)).write(to: URL(fileURLWithPath: folder + "/e.png"))
        let plain = try runIconbadge(["compare", folder + "/a.png", folder + "/e.png", "--json"])
        #expect(plain.status == 0)
        #expect(try json(plain)["differentPixels"] == .number(0))
        // 29 transparent pixels store a colour in a.png and none in e.png.
        let stored = try runIconbadge(["compare", folder + "/a.png", folder + "/e.png", "--json", "--stored-color"])
        #expect(stored.status == 1)
        #expect(try json(stored)["differentPixels"] == .number(29))
        #expect(try json(stored)["maxChannelDelta"] == .number(210))
    }

    /// pixelmatch's anti-aliasing sibling test compares raw values: with the stored
    /// colours kept, the changed centre has no darkest neighbour with equal siblings, so
    /// it is a difference, not anti-aliasing. pixelmatch v7.1.0 (its index.js run on the
    /// same RGBA arrays, threshold 0.1) counts 1 with the hidden colours and 0 without.
    @Test func storedColorChangesThePerceptualCount() throws {
        let folder = Paths.scratch("stored-color-perceptual")
        let grey = Color(red: 128, green: 128, blue: 128)
        try Data(Self.rawPNG(Self.transparentEdge(centre: .white, hidden: true)))
            .write(to: URL(fileURLWithPath: folder + "/a.png"))
        try Data(Self.rawPNG(Self.transparentEdge(centre: grey, hidden: true)))
            .write(to: URL(fileURLWithPath: folder + "/e.png"))
        let arguments = ["compare", folder + "/a.png", folder + "/e.png", "--threshold", "0.1", "--json"]
        let plain = try runIconbadge(arguments)
        #expect(plain.status == 0)
        #expect(try json(plain)["differentPixels"] == .number(0))
        #expect(try json(plain)["antialiasedPixels"] == .number(1))
        let stored = try runIconbadge(arguments + ["--stored-color"])
        #expect(stored.status == 1)
        #expect(try json(stored)["differentPixels"] == .number(1))
        #expect(try json(stored)["antialiasedPixels"] == .number(0))
        // pixelmatch's published counts hold with the flag too (1a and 1b store no colour
        // under alpha 0 that changes them).
        let pixelmatch = try Corpus.path("pixelmatch")
        let published = try runIconbadge([
            "compare", pixelmatch + "/1b.png", pixelmatch + "/1a.png", "--threshold", "0.05", "--stored-color",
            "--json",
        ])
        #expect(try json(published)["differentPixels"] == .number(143))
    }
}
