import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// `--icon-filter` through the built binary: its messages, order and `none`, the
/// environment, `--report`, PDF and SVG outputs, batch manifests and asset catalogs.
@Suite struct IconFilterEndToEndTests {
    static let ios = Paths.fixture("icons/app-ios-180.png")
    static let trash = Paths.fixture("icons/user-trash-256x256.png")

    struct Case: CustomTestStringConvertible, Sendable {
        let value: String
        let message: String
        var testDescription: String { value }
    }

    static let refused: [Case] = [
        Case(value: "tint", message: "--icon-filter: \"tint\" needs a colour (e.g. tint:#007AFF"),
        Case(
            value: "tint:red:1.5",
            message: "--icon-filter: \"tint:red:1.5\" has the amount 1.5, out of range (use 0 to 1, or 0% to 100%)"),
        Case(value: "dim:-0.1", message: "--icon-filter: \"dim:-0.1\" has the amount -0.1, out of range"),
        Case(value: "dim", message: "--icon-filter: \"dim\" needs an amount from 0 to 1 (e.g. dim:0.3 is 30% darker)"),
        Case(value: "greyscal", message: "--icon-filter: \"greyscal\" is not an icon filter (use greyscale,"),
        Case(value: "tint:blu:0.5", message: "--icon-filter: \"tint:blu:0.5\" has the colour \"blu\""),
        Case(
            value: "grey",
            message:
                "is not an icon filter (use greyscale, desaturate:AMOUNT, dim:AMOUNT, tint:COLOR[:AMOUNT] or none); did you mean greyscale?"
        ),
        Case(value: "greyscale,dim:0.3", message: "give one filter per --icon-filter and repeat it"),
    ]

    /// Exit 64, one line naming the option and the value (and the fix), nothing written.
    @Test(arguments: refused)
    func badValuesAreUsageErrors(_ testCase: Case) throws {
        let folder = Paths.scratch("icon-filter-errors")
        let run = try runIconbadge([Self.ios, "--value", "3", "--icon-filter", testCase.value, "-o", folder + "/o.png"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("iconbadge: error: --icon-filter: \"\(testCase.value)\""), "\(run.stderr)")
        #expect(run.stderr.contains(testCase.message), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func aMisspeltNameGetsASuggestion() throws {
        let run = try runIconbadge([Self.ios, "--value", "3", "--icon-filter", "greyscal", "--report"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("did you mean greyscale?"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    static func report(_ arguments: [String], environment: [String: String] = [:]) throws -> JSONValue? {
        let run = try runIconbadge(arguments + ["--report"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        return try ReportJSON(run.stdoutText).json["iconFilters"]
    }

    /// Filters apply in the order given, in their canonical spelling in `--report`;
    /// `none` drops those before it; the flag overrides `ICONBADGE_ICON_FILTER`.
    @Test func orderNoneAndTheEnvironment() throws {
        let base = [Self.ios, "--value", "3"]
        #expect(
            try Self.report(base + ["--icon-filter", "GRAYSCALE", "--icon-filter", "tint:rgb(0,122,255):50%"])
                == .array([.string("greyscale"), .string("tint:#007AFFFF:0.5")]))
        #expect(
            try Self.report(base + ["--icon-filter", "dim:1", "--icon-filter", "none", "--icon-filter", "dim:0.25"])
                == .array([.string("dim:0.25")]))
        #expect(try Self.report(base) == nil, "no filters, no key")
        let environment = ["ICONBADGE_ICON_FILTER": "desaturate:0.5"]
        #expect(try Self.report(base, environment: environment) == .array([.string("desaturate:0.5")]))
        #expect(
            try Self.report(base + ["--icon-filter", "greyscale"], environment: environment)
                == .array([.string("greyscale")]))
        #expect(try Self.report(base + ["--icon-filter", "none"], environment: environment) == nil)
        let bad = try runIconbadge(base + ["--report"], environment: ["ICONBADGE_ICON_FILTER": "greyscal"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("ICONBADGE_ICON_FILTER: \"greyscal\" is not an icon filter"), "\(bad.stderr)")
    }

    /// Through the binary: outside the badge's rectangle (from `--report`) the
    /// render equals the filtered icon alone (`--value 0`), and the badge keeps its
    /// colour.
    @Test(arguments: ["1", "2", "3"])
    func outsideTheBadgeIsTheFilteredIconAlone(scale: String) throws {
        let folder = Paths.scratch("icon-filter-e2e-\(scale)")
        let common = [
            Self.ios, "--platform", "ios", "--height", "28%", "--icon-filter", "greyscale", "--scale", scale,
        ]
        let badged = try runIconbadge(common + ["--value", "3", "-o", folder + "/badged.png", "--report"])
        #expect(badged.status == 0, "\(badged.stderr)")
        let alone = try runIconbadge(common + ["--value", "0", "-o", folder + "/alone.png"])
        #expect(alone.status == 0, "\(alone.stderr)")
        let rect = try #require(try ReportJSON(badged.stdoutText).rect("badge", "rect"))
        let with = try ImageFile.pixels(at: folder + "/badged.png")
        let without = try ImageFile.pixels(at: folder + "/alone.png")
        var outside = 0
        for y in 0..<with.height {
            for x in 0..<with.width
            where Double(x + 1) <= rect.minX.rounded(.down) || Double(x) >= rect.maxX.rounded(.up)
                || Double(y + 1) <= rect.minY.rounded(.down) || Double(y) >= rect.maxY.rounded(.up)
            {
                outside += 1
                #expect(with[x, y] == without[x, y], "\(x),\(y)")
                #expect(with[x, y].red == with[x, y].green && with[x, y].green == with[x, y].blue, "\(x),\(y)")
            }
        }
        #expect(outside > 180 * 180 / 2)
        #expect(with[Int(rect.minX) + 2, Int(rect.center.y)] == Color.systemRed)
    }

    /// Pixels of a PDF through poppler's pdftocairo at 72 dpi (a pixel a point).
    static func pdfPixels(_ path: String) throws -> PixelBuffer {
        let base = String(path.dropLast(4)) + "-pdf"
        let run = try runIconbadgeWith(
            executable: "/usr/bin/pdftocairo", ["-png", "-transp", "-r", "72", "-singlefile", path, base])
        #expect(run.status == 0, "pdftocairo (poppler-utils, installed by make deps): \(run.stderr)")
        return try ImageFile.pixels(at: base + ".png")
    }

    /// PDF and SVG outputs with a filter, of a raster icon and of an SVG one (drawn
    /// as filtered pixels): valid, grey where the icon is, the badge red.
    @Test(arguments: ["trash", "svg"])
    func pdfAndSVGOutputsAreFiltered(icon: String) throws {
        let folder = Paths.scratch("icon-filter-vector-\(icon)")
        let path = icon == "svg" ? try Corpus.path("icons/papirus-svg/firefox.svg") : Self.trash
        let arguments = [path, "--value", "3", "--icon-filter", "greyscale", "--scale", "3"]
        let report = try runIconbadge(arguments + ["--report"])
        let rect = try #require(try ReportJSON(report.stdoutText).rect("badge", "rect"))
        for format in ["pdf", "svg", "png"] {
            let output = "\(folder)/out.\(format)"
            let run = try runIconbadge(arguments + ["-o", output])
            #expect(run.status == 0, "\(format): \(run.stderr)")
            let pixels = format == "pdf" ? try Self.pdfPixels(output) : try ImageFile.pixels(at: output)
            var greys = 0
            var colours = 0
            for y in 0..<pixels.height {
                for x in 0..<pixels.width where pixels[x, y].alpha == 255 {
                    let p = pixels[x, y]
                    let inBadge =
                        Double(x) >= rect.minX - 1 && Double(x) < rect.maxX + 1 && Double(y) >= rect.minY - 1
                        && Double(y) < rect.maxY + 1
                    if inBadge { continue }
                    let spread = max(p.red, p.green, p.blue) - min(p.red, p.green, p.blue)
                    if spread <= 3 { greys += 1 } else { colours += 1 }
                }
            }
            #expect(greys > 1000, "\(format)")
            #expect(colours == 0, "\(format): \(colours) coloured opaque pixels outside the badge")
            let centre = pixels[Int(rect.minX) + 4, Int(rect.center.y)]
            #expect(
                centre.red >= 250 && centre.green <= 70 && centre.blue <= 60, "\(format): badge \(centre) is not red")
        }
    }

    /// Manifests: `icon-filter` as a string or a list, in the defaults or a job
    /// (a job's own replaces the defaults', `[]` clears them), `batch --set`, and a
    /// bad value named with its job (65).
    @Test func manifestsAndBatchSet() throws {
        let folder = Paths.scratch("icon-filter-batch")
        let manifest = """
            {"defaults": {"icon": "\(Self.ios)", "value": "3", "icon-filter": "greyscale"},
             "jobs": [{"output": "grey.png"},
                      {"output": "blue.png", "icon-filter": ["greyscale", "tint:#007AFF"]},
                      {"output": "plain.png", "icon-filter": []}]}
            """
        try manifest.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        let run = try runIconbadge(["batch", "m.json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        func render(_ filters: [String]) throws -> PixelBuffer {
            var arguments = [Self.ios, "--value", "3", "-o", folder + "/expected.png"]
            for filter in filters { arguments += ["--icon-filter", filter] }
            #expect(try runIconbadge(arguments).status == 0)
            return try ImageFile.pixels(at: folder + "/expected.png")
        }
        let grey = try render(["greyscale"])
        let blue = try render(["greyscale", "tint:#007AFF"])
        let plain = try render([])
        #expect(try ImageFile.pixels(at: folder + "/grey.png") == grey)
        #expect(try ImageFile.pixels(at: folder + "/blue.png") == blue)
        #expect(try ImageFile.pixels(at: folder + "/plain.png") == plain)
        let set = try runIconbadge(["batch", "m.json", "--set", "icon-filter=dim:1"], in: folder)
        #expect(set.status == 0, "\(set.stderr)")
        let black = try render(["dim:1"])
        for name in ["grey", "blue", "plain"] {
            #expect(try ImageFile.pixels(at: "\(folder)/\(name).png") == black, "\(name)")
        }
        // A repeatable key given twice takes both, in order, as the flag does.
        let chain = try runIconbadge(
            ["batch", "m.json", "--set", "icon-filter=greyscale", "--set", "icon-filter=tint:#007AFF"], in: folder)
        #expect(chain.status == 0, "\(chain.stderr)")
        for name in ["grey", "blue", "plain"] {
            #expect(try ImageFile.pixels(at: "\(folder)/\(name).png") == blue, "\(name)")
        }
        let none = try runIconbadge(["batch", "m.json", "--set", "icon-filter=none"], in: folder)
        #expect(none.status == 0, "\(none.stderr)")
        for name in ["grey", "blue", "plain"] {
            #expect(try ImageFile.pixels(at: "\(folder)/\(name).png") == plain, "\(name)")
        }
        let bad = try runIconbadge(["batch", "m.json", "--set", "icon-filter=tint:red:2"], in: folder)
        #expect(bad.status == 65)
        #expect(
            bad.stderr.contains("jobs[0].icon-filter: \"tint:red:2\" has the amount 2, out of range"), "\(bad.stderr)")
    }

    /// The asset-catalog command shares the render options: a debug set, greyscale,
    /// every image filtered, the badge red.
    @Test func anAppIconSetCanBeGreyscale() throws {
        let folder = Paths.scratch("icon-filter-appiconset")
        let set = folder + "/AppIcon.appiconset"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        let contents = """
            {"images": [{"filename": "icon-120.png", "idiom": "iphone", "scale": "2x", "size": "60x60"},
                        {"filename": "icon-1024.png", "idiom": "universal", "platform": "ios", "size": "1024x1024"}],
             "info": {"author": "xcode", "version": 1}}
            """
        try contents.write(toFile: set + "/Contents.json", atomically: true, encoding: .utf8)
        for side in [120, 1024] {
            let png = try ImageFile.pngData(of: PixelBuffer(width: side, height: side, fill: Color(rgb: 0x0040C0)))
            try Data(png).write(to: URL(fileURLWithPath: "\(set)/icon-\(side).png"))
        }
        let run = try runIconbadge([
            "appiconset", set, "--value", "BETA", "--icon-filter", "greyscale", "--out", folder + "/out",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        // Y(0, 64, 192) = 0.7152 × 64 + 0.0722 × 192 = 59.63.
        let grey = Color(red: 60, green: 60, blue: 60)
        for side in [120, 1024] {
            let pixels = try ImageFile.pixels(at: "\(folder)/out/AppIcon.appiconset/icon-\(side).png")
            #expect(pixels.width == side)
            #expect(pixels[2, side - 3] == grey, "\(side): \(pixels[2, side - 3])")
            var red = 0
            for y in 0..<side / 2 { for x in side / 2..<side where pixels[x, y] == Color.systemRed { red += 1 } }
            #expect(red > side * side / 100, "\(side): the badge is red")
        }
    }

    /// `android` filters every icon: the legacy launcher icons, and the adaptive
    /// icons' layers drawn per density (AndroidLayerTests checks those).
    @Test func androidFiltersLegacyAndAdaptiveIcons() throws {
        let folder = Paths.scratch("icon-filter-android")
        let app = folder + "/app"
        try FileManager.default.copyItem(atPath: Paths.fixture("android/sample-app"), toPath: app)
        let run = try runIconbadge([
            "android", app + "/res", "--out", app + "/debug/res", "--value", "3", "--icon-filter", "greyscale",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            FileManager.default.fileExists(
                atPath: app + "/debug/res/drawable-xxxhdpi/iconbadge_ic_launcher_foreground.png"))
        let badged = try ImageFile.pixels(at: app + "/debug/res/mipmap-xxxhdpi/ic_launcher.png")
        let original = try ImageFile.pixels(at: app + "/res/mipmap-xxxhdpi/ic_launcher.png")
        var greyed = 0
        for y in 0..<badged.height {
            for x in 0..<badged.width / 2 where original[x, y].alpha == 255 {
                let p = badged[x, y]
                #expect(p.red == p.green && p.green == p.blue, "\(x),\(y): \(p)")
                if original[x, y] != p { greyed += 1 }
            }
        }
        #expect(greyed > 100)
    }

    /// An Icon Composer bundle gets the badge as a layer of its own: nothing of the
    /// icon is redrawn, so a filter is refused (64).
    @Test func anIconComposerBundleRefusesAFilter() throws {
        let folder = Paths.scratch("icon-filter-bundle")
        let bundle = folder + "/AppIcon.icon"
        try FileManager.default.createDirectory(atPath: bundle + "/Assets", withIntermediateDirectories: true)
        try #"{"groups": [{"layers": [{"image-name": "front.png", "name": "front"}]}]}"#.write(
            toFile: bundle + "/icon.json", atomically: true, encoding: .utf8)
        let png = try ImageFile.pngData(of: PixelBuffer(width: 1024, height: 1024, fill: Color(rgb: 0x0040C0)))
        try Data(png).write(to: URL(fileURLWithPath: bundle + "/Assets/front.png"))
        let run = try runIconbadge([
            "appiconset", bundle, "--value", "3", "--icon-filter", "dim:0.5", "--out", folder + "/out",
        ])
        #expect(run.status == 64)
        #expect(run.stderr.contains("is an Icon Composer bundle, whose layers iconbadge keeps"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
    }
}
