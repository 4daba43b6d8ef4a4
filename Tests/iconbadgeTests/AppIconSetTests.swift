import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// `appiconset` on a set built by the test: legacy sizes, the single 1024 px
/// icon, and iOS 18's dark and tinted appearances; badged, written and re-read.
@Suite struct AppIconSetTests {
    static let contents = """
        {
          "images" : [
            { "filename" : "icon-40.png", "idiom" : "iphone", "scale" : "2x", "size" : "20x20" },
            { "filename" : "icon-120.png", "idiom" : "iphone", "scale" : "2x", "size" : "60x60" },
            { "filename" : "icon-180.png", "idiom" : "iphone", "scale" : "3x", "size" : "60x60" },
            { "idiom" : "ipad", "scale" : "1x", "size" : "20x20" },
            { "filename" : "icon-1024.png", "idiom" : "universal", "platform" : "ios", "size" : "1024x1024" },
            { "appearances" : [ { "appearance" : "luminosity", "value" : "dark" } ], "filename" : "dark.png", "idiom" : "universal", "platform" : "ios", "size" : "1024x1024" },
            { "appearances" : [ { "appearance" : "luminosity", "value" : "tinted" } ], "filename" : "tinted.png", "idiom" : "universal", "platform" : "ios", "size" : "1024x1024" }
          ],
          "info" : { "author" : "xcode", "version" : 1 }
        }
        """

    /// A set whose images are solid blue squares of the declared sizes.
    static func makeSet(in folder: String) throws -> String {
        let set = folder + "/AppIcon.appiconset"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        try contents.write(toFile: set + "/Contents.json", atomically: true, encoding: .utf8)
        for (name, side) in [
            ("icon-40", 40), ("icon-120", 120), ("icon-180", 180), ("icon-1024", 1024), ("dark", 1024),
            ("tinted", 1024),
        ] {
            let png = try ImageFile.pngData(of: PixelBuffer(width: side, height: side, fill: Color(rgb: 0x0040C0)))
            try Data(png).write(to: URL(fileURLWithPath: "\(set)/\(name).png"))
        }
        return set
    }

    /// The badge's height in a badged image: the most rows, in any column of the
    /// right half, that are not the blue fill.
    static func badgeHeight(_ pixels: PixelBuffer) -> Int {
        var tallest = 0
        for x in pixels.width / 2..<pixels.width {
            var rows = 0
            for y in 0..<pixels.height where pixels[x, y] != Color(rgb: 0x0040C0) { rows += 1 }
            tallest = max(tallest, rows)
        }
        return tallest
    }

    @Test func everyImageIsBadgedAtItsOwnSize() throws {
        let folder = Paths.scratch("appiconset")
        let set = try Self.makeSet(in: folder)
        let run = try runIconbadge(["appiconset", set, "--value", "BETA", "--out", folder + "/out"])
        #expect(run.status == 0, "\(run.stderr)")
        let out = folder + "/out/AppIcon.appiconset"
        #expect(try String(contentsOfFile: out + "/Contents.json", encoding: .utf8) == Self.contents)
        for (name, side) in [("icon-40", 40), ("icon-120", 120), ("icon-180", 180), ("icon-1024", 1024)] {
            let pixels = try ImageFile.pixels(at: "\(out)/\(name).png")
            #expect(pixels.width == side && pixels.height == side)
            // The badge is 0.3 of the side at every size (rounded to whole pixels).
            let expected = 0.3 * Double(side)
            #expect(
                abs(Double(Self.badgeHeight(pixels)) - expected) <= 2,
                "\(name): \(Self.badgeHeight(pixels)) vs \(expected)")
        }
        // The source set is untouched.
        #expect(
            try ImageFile.pixels(at: set + "/icon-40.png")
                == PixelBuffer(width: 40, height: 40, fill: Color(rgb: 0x0040C0)))
    }

    @Test func darkKeepsTheColourAndTintedIsGrey() throws {
        let folder = Paths.scratch("appiconset-appearances")
        let set = try Self.makeSet(in: folder)
        #expect(try runIconbadge(["appiconset", set, "--value", "BETA", "--out", folder + "/out"]).status == 0)
        let out = folder + "/out/AppIcon.appiconset"
        let dark = try ImageFile.pixels(at: out + "/dark.png")
        let tinted = try ImageFile.pixels(at: out + "/tinted.png")
        // The badge's fill: the most common opaque colour that is neither the icon's
        // blue nor the text's white.
        func fill(_ pixels: PixelBuffer) -> Color {
            var counts: [Color: Int] = [:]
            for y in 0..<pixels.height {
                for x in 0..<pixels.width {
                    let color = pixels[x, y]
                    guard color.alpha == 255, color != Color(rgb: 0x0040C0), color != .white else { continue }
                    counts[color, default: 0] += 1
                }
            }
            return counts.max { $0.value < $1.value }?.key ?? .white
        }
        #expect(fill(dark) == .systemRed, "\(fill(dark))")
        let grey = fill(tinted)
        #expect(grey.red == grey.green && grey.green == grey.blue, "\(grey)")
    }

    @Test func inPlaceReplacesTheImagesAndNothingElse() throws {
        let folder = Paths.scratch("appiconset-in-place")
        let set = try Self.makeSet(in: folder)
        let run = try runIconbadge(["appiconset", set, "--dot", "--in-place", "--relative-size", "0.2"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try ImageFile.pixels(at: set + "/icon-180.png")
                != PixelBuffer(width: 180, height: 180, fill: Color(rgb: 0x0040C0)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: set).count == 7)
    }

    /// A badge in points fits the large images and not the 40 px one: nothing is
    /// written, in place or as a copy (the set was left half-badged, and badged twice
    /// on the next run).
    @Test func aSetIsBadgedWholeOrNotAtAll() throws {
        let folder = Paths.scratch("appiconset-all-or-nothing")
        let set = try Self.makeSet(in: folder)
        func snapshot() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: set) {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: set + "/" + name))
            }
            return files
        }
        let before = try snapshot()
        #expect(before.count == 7)
        for destination in [["--in-place"], ["--out", folder + "/out"]] {
            let run = try runIconbadge(["appiconset", set, "--value", "3", "--height", "30"] + destination)
            #expect(run.status == 64, "\(run.stderr)")
            #expect(run.stderrLines.count == 2, "\(run.stderr)")
            #expect(run.stderrLines.first?.contains("icon-40.png") == true, "\(run.stderr)")
            #expect(run.stderrLines.last == "iconbadge: appiconset: nothing written: 1 of 6 images failed")
        }
        #expect(try snapshot() == before)
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
    }

    /// `--out` ending in `.appiconset` is the new set itself, so a beta set lands in
    /// the catalog under its own name; any other folder gets the set's name below it.
    @Test func outNamedAsASetIsTheSetItself() throws {
        let folder = Paths.scratch("appiconset-named-out")
        let set = try Self.makeSet(in: folder)
        let beta = folder + "/Assets.xcassets/AppIconBeta.appiconset"
        let run = try runIconbadge(["appiconset", set, "--dot", "--out", beta])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "iconbadge: appiconset: badged 6 images into \(Quoted(beta))\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: beta).count == 7)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: beta + "/Contents.json"))
                == Data(contentsOf: URL(fileURLWithPath: set + "/Contents.json")))
        let plain = try runIconbadge(["appiconset", set, "--dot", "--out", folder + "/build"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/build/AppIcon.appiconset/icon-40.png"))
        #expect(try runIconbadge(["appiconset", set, "--dot", "--out", set]).status == 64)
    }

    /// The slips a new user makes with a set name the fix.
    @Test func catalogSlipsNameTheFix() throws {
        let folder = Paths.scratch("appiconset-slips")
        let set = try Self.makeSet(in: folder)
        let render = try runIconbadge([set, "--value", "3", "-o", folder + "/x.png"])
        #expect(render.status == 66)
        #expect(render.stderr.hasSuffix("is an Xcode app icon set, not an image file: use iconbadge appiconset\n"))
        let short = try runIconbadge(["appiconset", set, "--value", "3", "-o", folder + "/o"])
        #expect(short.stderr == "iconbadge: error: unknown option \"-o\" (did you mean --out?)\n")
        let both = try runIconbadge(["appiconset", set, "--value", "3", "--out", folder + "/o", "--in-place"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--out and --in-place are exclusive"))
        let contents = try runIconbadge(["appiconset", set + "/Contents.json", "--dot", "--out", folder + "/o"])
        #expect(contents.status == 0, "\(contents.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/o/AppIcon.appiconset/icon-40.png"))
    }

    @Test func pathTraversalInContentsIsRefused() throws {
        let folder = Paths.scratch("appiconset-traversal")
        let set = try Self.makeSet(in: folder)
        try #"{"images":[{"filename":"../../etc/passwd","idiom":"iphone","scale":"2x","size":"20x20"}]}"#
            .write(toFile: set + "/Contents.json", atomically: true, encoding: .utf8)
        let run = try runIconbadge(["appiconset", set, "--value", "3", "--in-place"])
        #expect(run.status == 65)
        #expect(run.stderr.contains("is not a plain file name"))
    }

    /// A slot named .jpg or .svg (the PNG file renamed, as a pull request could) was
    /// rewritten with PNG bytes under that name. Refused before anything is written.
    @Test(arguments: [("icon.jpg", "a JPEG file"), ("icon.svg", "an SVG file"), ("icon.webp", "a WebP file")])
    func slotsNamedForAnotherFormatAreRefused(name: String, what: String) throws {
        let folder = Paths.scratch("appiconset-jpg")
        let set = try Self.makeSet(in: folder)
        try FileManager.default.copyItem(atPath: set + "/icon-120.png", toPath: set + "/" + name)
        let before = try Data(contentsOf: URL(fileURLWithPath: set + "/" + name))
        try Self.contents.replacingOccurrences(of: "icon-120.png", with: name)
            .write(toFile: set + "/Contents.json", atomically: true, encoding: .utf8)
        for destination in [["--in-place"], ["--out", folder + "/out"]] {
            let run = try runIconbadge(["appiconset", set, "--value", "3"] + destination)
            #expect(run.status == 65, "\(run.stderr)")
            #expect(
                run.stderr.contains("\(name)\": is named as \(what); iconbadge rewrites a set's images as PNG or PDF"),
                "\(run.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: set + "/" + name)) == before)
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
    }

    @Test func eachImageIsPlacedInItsIdiomsShape() throws {
        let folder = Paths.scratch("appiconset-idioms")
        let set = try Self.makeSet(in: folder)
        let run = try runIconbadge(["appiconset", set, "--value", "3", "--out", folder + "/out"])
        #expect(run.status == 0, "\(run.stderr)")
        let pixels = try ImageFile.pixels(at: folder + "/out/AppIcon.appiconset/icon-1024.png")
        // The iOS mask cuts the corner: the badge keeps off it, so the corner is icon blue.
        #expect(pixels[1023, 0] == Color(rgb: 0x0040C0))
        #expect(pixels[1000, 24] == Color(rgb: 0x0040C0))
        // Forced onto the canvas, the badge sits in the corner.
        let canvas = try runIconbadge(
            ["appiconset", set, "--value", "3", "--platform", "canvas", "--out", folder + "/canvas"])
        #expect(canvas.status == 0)
        // (The top of the 307 px circle badge, which the iOS placement moves down.)
        #expect(
            try ImageFile.pixels(at: folder + "/canvas/AppIcon.appiconset/icon-1024.png")[870, 6]
                != Color(rgb: 0x0040C0))
        #expect(pixels[870, 6] == Color(rgb: 0x0040C0))
        // At 20 %, the smallest slot (40 px) draws BETA as a dot (5.3 px text), and says so.
        let beta = try runIconbadge([
            "appiconset", set, "--value", "BETA", "--height", "20%", "--out", folder + "/beta",
        ])
        #expect(beta.stderr.contains("icon-40.png: the text \"BETA\" would be"), "\(beta.stderr)")
    }

    @Test func relativeSizeAndHeightAreOneSetting() throws {
        let folder = Paths.scratch("appiconset-relative")
        let set = try Self.makeSet(in: folder)
        let both = try runIconbadge(
            ["appiconset", set, "--value", "3", "--relative-size", "0.2", "--height", "20%", "--out", folder + "/o"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--relative-size and --height both set the badge's height"))
        let relative = try runIconbadge([
            "appiconset", set, "--value", "3", "--relative-size", "0.2", "--out", folder + "/r",
        ])
        let height = try runIconbadge(["appiconset", set, "--value", "3", "--height", "20%", "--out", folder + "/h"])
        #expect(relative.status == 0 && height.status == 0)
        #expect(
            try ImageFile.pixels(at: folder + "/r/AppIcon.appiconset/icon-1024.png")
                == ImageFile.pixels(at: folder + "/h/AppIcon.appiconset/icon-1024.png"))
    }

    /// A hidden badge (0, or an empty value) writes nothing: one note and exit 0, or
    /// 64 with --fail-if-hidden, for a build that must not ship an unbadged beta icon.
    @Test func aHiddenBadgeWritesNothing() throws {
        let folder = Paths.scratch("appiconset-hidden")
        let set = try Self.makeSet(in: folder)
        let before = try FileManager.default.contentsOfDirectory(atPath: set).sorted().map {
            try Data(contentsOf: URL(fileURLWithPath: set + "/" + $0))
        }
        for (value, why) in [("0", "the value is 0"), ("", "the value is empty")] {
            var run = try runIconbadge(["appiconset", set, "--value", value, "--in-place"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                run.stderrLines == [
                    "iconbadge: note: appiconset: the badge is hidden: \(why)\(value == "0" ? " (--show-zero draws it)" : ""); nothing written (--fail-if-hidden makes this an error)"
                ], "\(run.stderr)")
            run = try runIconbadge(["appiconset", set, "--value", value, "--out", folder + "/out", "--fail-if-hidden"])
            #expect(run.status == 64, "\(run.stderr)")
            #expect(run.stderr.contains("--fail-if-hidden: the badge is hidden: \(why)"), "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
        let after = try FileManager.default.contentsOfDirectory(atPath: set).sorted().map {
            try Data(contentsOf: URL(fileURLWithPath: set + "/" + $0))
        }
        #expect(after == before)
        // --show-zero draws a 0.
        let shown = try runIconbadge(["appiconset", set, "--value", "0", "--show-zero", "--out", folder + "/zero"])
        #expect(shown.status == 0, "\(shown.stderr)")
    }

    /// `--overflow expand` would grow each image past its slot: 64, nothing written.
    @Test func expandIsRefusedForASet() throws {
        let folder = Paths.scratch("appiconset-expand")
        let set = try Self.makeSet(in: folder)
        let run = try runIconbadge(["appiconset", set, "--value", "3", "--overflow", "expand", "--out", folder + "/o"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--overflow expand grows each image past its slot's size"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/o"))
    }

    /// A set whose every slot is empty is a note and exit 0 (a loop over every set of
    /// a catalog goes on).
    @Test func anEmptySetIsANote() throws {
        let folder = Paths.scratch("appiconset-empty") + "/Empty.appiconset"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try #"{"images":[{"idiom":"universal","platform":"ios","size":"1024x1024"}],"info":{"version":1}}"#.write(
            toFile: folder + "/Contents.json", atomically: true, encoding: .utf8)
        let run = try runIconbadge(["appiconset", folder, "--value", "3", "--in-place"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("has no images (every slot is empty); nothing to badge"), "\(run.stderr)")
    }

    /// A tinted image gets a grey badge whatever the badge is made of: a drawn badge,
    /// colour emoji, a colour badge image. On a grey icon every pixel stays grey.
    @Test(arguments: [["--value", "BETA"], ["--value", "🔥"], ["--image", Paths.fixture("icons/folder-48x48.png")]])
    func tintedGreysEveryKindOfBadge(badge: [String]) throws {
        let folder = Paths.scratch("appiconset-tinted") + "/T.appiconset"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try
            #"{"images":[{"appearances":[{"appearance":"luminosity","value":"tinted"}],"filename":"t.png","idiom":"universal","platform":"ios","size":"1024x1024"},{"filename":"d.png","idiom":"universal","platform":"ios","size":"1024x1024"}]}"#
            .write(toFile: folder + "/Contents.json", atomically: true, encoding: .utf8)
        let grey = try ImageFile.pngData(of: PixelBuffer(width: 256, height: 256, fill: Color(rgb: 0x808080)))
        try Data(grey).write(to: URL(fileURLWithPath: folder + "/t.png"))
        try Data(grey).write(to: URL(fileURLWithPath: folder + "/d.png"))
        let run = try runIconbadge(["appiconset", folder, "--in-place"] + badge)
        #expect(run.status == 0, "\(run.stderr)")
        func colouredPixels(_ path: String) throws -> Int {
            let pixels = try ImageFile.pixels(at: path)
            var count = 0
            for y in 0..<pixels.height {
                for x in 0..<pixels.width {
                    let c = pixels[x, y]
                    if c.red != c.green || c.green != c.blue { count += 1 }
                }
            }
            return count
        }
        #expect(try colouredPixels(folder + "/d.png") > 100)  // the default badge is in colour
        #expect(try colouredPixels(folder + "/t.png") == 0)
    }
}
