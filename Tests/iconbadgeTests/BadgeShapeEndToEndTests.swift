import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// `--shape`, its options and `--and` on the command line and in manifests: what
/// users type, and the errors they get.
@Suite struct BadgeShapeEndToEndTests {
    static let ios = Paths.fixture("icons/app-ios-180.png")

    func run(_ arguments: [String], in folder: String? = nil) throws -> RunResult {
        try runIconbadge(arguments, in: folder ?? Paths.scratch("shape-cli"))
    }

    @Test(arguments: [
        (
            ["--shape", "ribon", "--text", "BETA"],
            "--shape: \"ribon\" is not one of pill, ribbon, banner, shield; did you mean ribbon?"
        ),
        (
            ["--shape", "ribbon", "--text", "BETA", "--anchor", "top"],
            "--anchor: \"top\" is not a corner: a ribbon goes across top-left, top-right, bottom-left or bottom-right; did you mean top-left?"
        ),
        (["--shape", "ribbon", "--text", "BETA", "--anchor", "top-rigth"], "did you mean top-right?"),
        (
            ["--shape", "banner", "--text", "BETA", "--anchor", "top-left"],
            "--anchor: \"top-left\" is not an edge: a banner runs along the top or the bottom; did you mean top?"
        ),
        (
            ["--shape", "shield", "--text", "1.4.2"],
            "--text: \"1.4.2\" is not a shield's two parts: give LABEL|MESSAGE"
        ),
        (
            ["--shape", "shield", "--value", "|beta"],
            "--value: \"|beta\" has an empty label: both sides of | need text"
        ),
        (["--shape", "shield", "--value", "1.4.2|"], "--value: \"1.4.2|\" has an empty message"),
        (["--shape", "ribbon", "--dot"], "--shape ribbon holds text: give --value or --text, not --dot or --image"),
        (["--shape", "ribbon", "--text", "B", "--offset", "2,2"], "--offset does not apply to a ribbon"),
        (["--shape", "banner", "--text", "B", "--overflow", "expand"], "--overflow does not apply to a banner"),
        (
            ["--value", "3", "--ribbon-distance", "30%"],
            "--ribbon-distance goes with --shape ribbon (the shape is pill)"
        ),
        (
            ["--shape", "ribbon", "--text", "B", "--label-background", "red"],
            "--label-background goes with --shape shield"
        ),
        (
            ["--shape", "banner", "--text", "B", "--banner-ends", "curved"],
            "--banner-ends: \"curved\" is not one of shape, straight"
        ),
        (["--value", "3", "--and"], "--and must be followed by the next badge's options"),
        (
            ["--value", "3", "--and", "--value", "2", "--overflow", "expand"],
            "--overflow expand grows the canvas for one badge"
        ),
        (["--value", "3", "--and", "--background", "red"], "badge 2: nothing to draw: give --value TEXT"),
        (
            ["--value", "3", "--and", "--shape", "shield", "--text", "x"],
            "badge 2: --text: \"x\" is not a shield's two parts"
        ),
    ])
    func badInputIsUsageNamingTheValue(arguments: [String], message: String) throws {
        let output = Paths.scratch("shape-cli") + "/bad.png"
        let result = try run([Self.ios] + arguments + ["-o", output])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: output), "nothing written")
    }

    @Test func textThatCannotFitIsDataErrorNamingTheSizes() throws {
        let output = Paths.scratch("shape-cli") + "/long.png"
        let result = try run([
            Self.ios, "--platform", "ios", "--shape", "ribbon", "--text", "A RELEASE CANDIDATE FOR TESTERS", "-o",
            output,
        ])
        #expect(result.status == 65)
        #expect(result.stderr.contains("does not fit the ribbon even at 7 px (--min-text-px 7)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func ribbonReportsItsBandAndShowsNumbersAsWritten() throws {
        let result = try run([
            Self.ios, "--platform", "ios", "--shape", "ribbon", "--value", "1234", "--anchor", "bottom-left",
            "--report",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try ReportJSON(result.stdoutText)
        #expect(report.string("badge", "shape") == "ribbon")
        #expect(report.string("badge", "label") == "1234", "a ribbon shows its text as written, never 99+")
        #expect(report.number("badge", "band", "angle") == 45)
        #expect(report.number("badge", "band", "thickness") == 28.8, "16 % of 180 px")
        #expect(report.number("badge", "band", "centre", "x") == 36)
        #expect(report.number("badge", "band", "centre", "y") == 144)
    }

    @Test func shieldDefaultsToTheBottomAndBannerToo() throws {
        let shield = try ReportJSON(
            try run([Self.ios, "--shape", "shield", "--text", "1.4.2|beta", "--report"]).stdoutText)
        #expect(shield.number("badge", "rect", "y").map { $0 + shield.number("badge", "rect", "height")! } == 180)
        let banner = try ReportJSON(try run([Self.ios, "--shape", "banner", "--text", "DEBUG", "--report"]).stdoutText)
        let centre = try #require(banner.number("badge", "band", "centre", "y"))
        #expect(abs(centre - (180 - 32.4 / 2)) < 1e-9, "18 % of 180 px, at the bottom")
    }

    @Test func andDrawsSeveralBadgesWhereverTheRenderOptionsAre() throws {
        let folder = Paths.scratch("shape-and")
        let result = try run(
            [
                Self.ios, "--platform", "ios", "--shape", "ribbon", "--text", "BETA", "--anchor", "top-left", "--and",
                "--value", "3", "--height", "28%", "-o", "both.png", "--report",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try ReportJSON(result.stdoutText)
        #expect(report.string("badges", "0", "shape") == "ribbon")
        #expect(report.string("badges", "1", "label") == "3")
        #expect(report.string("badges", "1", "shape") == "pill")
        // The second badge starts from the defaults: not a ribbon, not top-left.
        #expect(try #require(report.number("badges", "1", "rect", "x")) > 90)
        #expect(FileManager.default.fileExists(atPath: folder + "/both.png"))
        // --and as an option's value is text, not a separator.
        let literal = try run([Self.ios, "--text", "--and", "--report"], in: folder)
        let literalReport = try ReportJSON(literal.stdoutText)
        #expect(literal.status == 0 && literalReport.string("badge", "label") == "--and")
    }

    @Test func manifestBadgesShareTheJobsKeys() throws {
        let folder = Paths.scratch("shape-manifest")
        let manifest = """
            {"defaults": {"icon": "\(Self.ios)", "platform": "ios", "background": "#007AFF"},
             "jobs": [
               {"output": "a{@scale}.png", "scales": [1, 2], "badges": [
                  {"shape": "ribbon", "text": "BETA", "anchor": "top-left"},
                  {"value": "7", "height": "28%", "background": "#FF3B30"}]},
               {"output": "b.png", "value": "3"}
             ]}
            """
        try manifest.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        let result = try run(["batch", "m.json"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let pixels = try ImageFile.pixels(at: folder + "/a.png")
        // The ribbon took the job's blue, the count its own red.
        #expect(pixels[30, 30] == Color(red: 0, green: 0x7A, blue: 0xFF))
        let single = try run([Self.ios, "--platform", "ios", "--value", "7", "--height", "28%", "--report"])
        let rect = try #require(try ReportJSON(single.stdoutText).rect("badge", "rect"))
        #expect(pixels[Int(rect.center.x), Int(rect.minY) + 3] == Color(red: 0xFF, green: 0x3B, blue: 0x30))
        for (badges, message) in [
            ("[]", "badges: must be a non-empty array"),
            ("[{\"value\": \"1\", \"output\": \"x.png\"}]", "badges[0].output: is a key of the whole job"),
            ("[{\"valu\": \"1\"}]", "badges[0]: unknown key \"valu\" (did you mean value?)"),
            ("[{\"shape\": \"ribon\", \"text\": \"B\"}]", "badges[0].shape: \"ribon\" is not one of"),
        ] {
            let bad = """
                {"jobs": [{"icon": "\(Self.ios)", "output": "c.png", "badges": \(badges)}]}
                """
            try bad.write(toFile: folder + "/bad.json", atomically: true, encoding: .utf8)
            let failed = try run(["batch", "bad.json"], in: folder)
            #expect(failed.status == 65, "\(badges): \(failed.stderr)")
            #expect(failed.stderr.contains(message), "\(failed.stderr)")
        }
        let both = """
            {"jobs": [{"icon": "\(Self.ios)", "output": "d.png", "value": "1", "badges": [{"value": "2"}]}]}
            """
        try both.write(toFile: folder + "/both.json", atomically: true, encoding: .utf8)
        let conflict = try run(["batch", "both.json"], in: folder)
        #expect(conflict.status == 65 && conflict.stderr.contains("gives each badge its content"), "\(conflict.stderr)")
    }

    /// An SVG icon with a pill and then a ribbon, written as SVG: the ribbon follows the
    /// icon's alpha. It was exit 70 ("an SVG drawn only as vectors has no pixels") when
    /// a child of its own rebuilt the scene without the icon's pixels.
    @Test func svgIconWithAPillThenARibbonWritesSVG() throws {
        let folder = Paths.scratch("svg-pill-ribbon")
        let icon = Paths.fixture("icons/mail-unread-symbolic.svg")
        let options = [icon, "--size", "128", "--value", "3", "--and", "--text", "BETA", "--shape", "ribbon"]
        let svg = try runIconbadge(options + ["-o", folder + "/two.svg"])
        #expect(svg.status == 0, "\(svg.stderr)")
        let png = try runIconbadge(options + ["-o", folder + "/two.png"])
        #expect(png.status == 0, "\(png.stderr)")
        // The SVG is the PNG's drawing: compared through librsvg, as the format tests do.
        let compared = try runIconbadge([
            "compare", folder + "/two.png", folder + "/two.svg", "--threshold", "0.1", "--max-diff-ratio", "0.01",
        ])
        #expect(compared.status == 0, "\(compared.stdoutText) \(compared.stderr)")
    }
}

extension BadgeShapeEndToEndTests {
    @Test func catalogsTakeShapesAndSeveralBadges() throws {
        let folder = Paths.scratch("shape-catalog")
        let set = folder + "/AppIcon.appiconset"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.ios, toPath: set + "/icon-60@3x.png")
        let contents = """
            {"images": [{"filename": "icon-60@3x.png", "idiom": "iphone", "scale": "3x", "size": "60x60"}],
             "info": {"author": "xcode", "version": 1}}
            """
        try contents.write(toFile: set + "/Contents.json", atomically: true, encoding: .utf8)
        let result = try run(
            [
                "appiconset", "AppIcon.appiconset", "--shape", "ribbon", "--text", "BETA", "--anchor", "top-left",
                "--and", "--value", "3", "--out", "out",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let badged = try ImageFile.pixels(at: folder + "/out/AppIcon.appiconset/icon-60@3x.png")
        // The same pixels as render gives with the catalog's sizes (the count 30 % tall).
        let render = try run(
            [
                Self.ios, "--platform", "ios", "--scale", "3", "--shape", "ribbon", "--text", "BETA", "--anchor",
                "top-left", "--and", "--value", "3", "--height", "30%", "-o", "render.png",
            ], in: folder)
        #expect(render.status == 0, "\(render.stderr)")
        #expect(badged == (try ImageFile.pixels(at: folder + "/render.png")))
    }
}

extension BadgeShapeEndToEndTests {
    /// A set is all or nothing: text that cannot fit at one size drops there (a note),
    /// as it does on the small images; render and batch still refuse it (65).
    @Test func catalogsDropTextThatCannotFitInsteadOfFailingTheSet() throws {
        let folder = Paths.scratch("shape-catalog-fit")
        let set = folder + "/AppIcon.appiconset"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.ios, toPath: set + "/icon-60@3x.png")
        try """
        {"images": [{"filename": "icon-60@3x.png", "idiom": "iphone", "scale": "3x", "size": "60x60"}],
         "info": {"author": "xcode", "version": 1}}
        """.write(toFile: set + "/Contents.json", atomically: true, encoding: .utf8)
        let long = "A RELEASE CANDIDATE FOR TESTERS"
        let result = try run(
            ["appiconset", "AppIcon.appiconset", "--shape", "ribbon", "--text", long, "--out", "out"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("the band is drawn without it"), "\(result.stderr)")
        let rendered = try run(
            [Self.ios, "--platform", "ios", "--shape", "ribbon", "--text", long, "-o", "r.png"], in: folder)
        #expect(rendered.status == 65)
        // --relative-size, when given, sizes a ribbon too.
        let thick = try run(
            [
                "appiconset", "AppIcon.appiconset", "--shape", "ribbon", "--text", "B", "--relative-size", "0.3",
                "--out", "thick",
            ],
            in: folder)
        #expect(thick.status == 0, "\(thick.stderr)")
        let thin = try run(
            ["appiconset", "AppIcon.appiconset", "--shape", "ribbon", "--text", "B", "--out", "thin"], in: folder)
        #expect(thin.status == 0)
        #expect(
            try ImageFile.pixels(at: folder + "/thick/AppIcon.appiconset/icon-60@3x.png")
                != ImageFile.pixels(at: folder + "/thin/AppIcon.appiconset/icon-60@3x.png"))
    }

    @Test func smallShieldBecomesADotAndPartsAreTrimmed() throws {
        let small = try run([
            Paths.fixture("icons/user-trash-32x32.png"), "--shape", "shield", "--text", "1.4.2|beta", "--report",
        ])
        #expect(small.status == 0, "\(small.stderr)")
        let report = try ReportJSON(small.stdoutText)
        #expect(report.string("badge", "kind") == "dot")
        #expect(report.string("smallText", "became") == "dot")
        let spaced = try ReportJSON(
            try run([Self.ios, "--shape", "shield", "--text", "1.4.2 | beta", "--report"]).stdoutText)
        #expect(spaced.string("badge", "parts", "0", "label") == "1.4.2")
        #expect(spaced.string("badge", "parts", "1", "label") == "beta")
    }

    @Test func setCannotGuessWhichOfSeveralBadges() throws {
        let folder = Paths.scratch("shape-set")
        try """
        {"jobs": [{"icon": "\(Self.ios)", "output": "a.png", "badges": [{"value": "1"}, {"value": "2"}]}]}
        """.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        let result = try run(["batch", "m.json", "--set", "text=RC1"], in: folder)
        #expect(result.status == 65)
        #expect(result.stderr.contains("jobs[0] draws several badges (\"badges\"), so --set text cannot say which"))
    }
}

/// What an attack on the new options found, held.
extension BadgeShapeEndToEndTests {
    @Test func expansionsAndListsAreBounded() throws {
        let folder = Paths.scratch("shape-bounds")
        // 40 references to a 100 KB variable: refused at the first value past 64 KiB.
        let refs = String(repeating: "${X}", count: 40)
        try """
        {"jobs": [{"icon": "\(Self.ios)", "output": "a.png", "text": "\(refs)"}]}
        """.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        let big = try runIconbadge(
            ["batch", "m.json", "--env", "X"], environment: ["X": String(repeating: "A", count: 100_000)], in: folder)
        #expect(big.status == 65, "\(big.stderr)")
        #expect(big.stderr.contains("${X} makes the value longer than 64 KiB"), "\(big.stderr)")
        let filters = Array(repeating: ["--icon-filter", "dim:0.1"], count: 9).flatMap { $0 }
        let many = try run([Self.ios, "--value", "3", "-o", "f.png"] + filters, in: folder)
        #expect(many.status == 64 && many.stderr.contains("at most 8 are applied"), "\(many.stderr)")
        let long = try run([Self.ios, "--text", String(repeating: "A", count: 70_000), "-o", "l.png"], in: folder)
        #expect(long.status == 64 && long.stderr.contains("over the 64 KiB limit"), "\(long.stderr)")
        let shield = try run(
            [Self.ios, "--shape", "shield", "--text", String(repeating: "A", count: 2000) + "|B", "-o", "s.png"],
            in: folder)
        #expect(shield.status == 65 && shield.stderr.contains("1024"), "\(shield.stderr)")
    }

    @Test func sharedValuesAreThePillsAndOwnOnesAreRefused() throws {
        let folder = Paths.scratch("shape-shared")
        // From the environment, an offset or a ribbon's option is shared: not an error.
        let offset = try runIconbadge(
            [Self.ios, "--shape", "ribbon", "--text", "B", "-o", "a.png"], environment: ["ICONBADGE_OFFSET": "2,2"],
            in: folder)
        #expect(offset.status == 0, "\(offset.stderr)")
        let distance = try runIconbadge(
            [Self.ios, "--value", "3", "-o", "b.png"], environment: ["ICONBADGE_RIBBON_DISTANCE": "30%"], in: folder)
        #expect(distance.status == 0, "\(distance.stderr)")
        // A manifest's defaults are shared too; a job's own offset on a ribbon is refused.
        try """
        {"defaults": {"icon": "\(Self.ios)", "offset": "2,2", "label-background": "blue"},
         "jobs": [{"output": "c.png", "value": "3"}, {"output": "d.png", "shape": "ribbon", "text": "B"},
                  {"output": "e.png", "shape": "shield", "text": "a|b"}]}
        """.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        let shared = try run(["batch", "m.json"], in: folder)
        #expect(shared.status == 0, "\(shared.stderr)")
        try """
        {"jobs": [{"icon": "\(Self.ios)", "output": "f.png", "shape": "ribbon", "text": "B", "offset": "2,2"}]}
        """.write(toFile: folder + "/own.json", atomically: true, encoding: .utf8)
        let own = try run(["batch", "own.json"], in: folder)
        #expect(own.status == 65 && own.stderr.contains("--offset does not apply to a ribbon"), "\(own.stderr)")
        // Several badges with expand are refused while planning, as a manifest's 65.
        try """
        {"jobs": [{"icon": "\(Self.ios)", "output": "g.png", "overflow": "expand", "badges": [{"value": "1"}, {"value": "2"}]}]}
        """.write(toFile: folder + "/expand.json", atomically: true, encoding: .utf8)
        let expand = try run(["batch", "expand.json"], in: folder)
        #expect(expand.status == 65 && expand.stderr.contains("grows the canvas for one badge"), "\(expand.stderr)")
    }

    @Test func shieldPartsAreCutEachAndMustHoldText() throws {
        let cut = try ReportJSON(
            try run([Self.ios, "--shape", "shield", "--text", "BETA|xyzw", "--max-chars", "3", "--report"]).stdoutText)
        #expect(cut.string("badge", "parts", "0", "label") == "BE…")
        #expect(cut.string("badge", "parts", "1", "label") == "xy…")
        for blank in ["a| ", "  |  ", "a|\u{200B}"] {
            let result = try run([Self.ios, "--shape", "shield", "--text", blank, "-o", "x.png"])
            #expect(result.status == 64, "\(blank): \(result.stderr)")
        }
    }

    /// The band's alpha mask carries alpha only: a job in a batch, whose icon is shared
    /// with another job and so filtered on a copy, writes the same bytes as alone.
    @Test func batchAndSingleRenderWriteTheSameVectorBytes() throws {
        let folder = Paths.scratch("shape-batch-same")
        let icon = Paths.fixture("icons/mail-unread-symbolic.svg")
        let job =
            "\"icon\": \"\(icon)\", \"scale\": 8, \"icon-filter\": \"greyscale\", \"shape\": \"ribbon\", \"anchor\": \"top-left\", \"text\": \"B\""
        try """
        {"jobs": [{\(job), "output": "a.svg"}, {"icon": "\(icon)", "scale": 8, "value": "3", "height": "28%", "output": "b.png"}]}
        """.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        let batch = try run(["batch", "m.json", "-j", "1"], in: folder)
        #expect(batch.status == 0, "\(batch.stderr)")
        let single = try run(
            [
                icon, "--scale", "8", "--icon-filter", "greyscale", "--shape", "ribbon", "--anchor", "top-left",
                "--text", "B", "-o", "single.svg",
            ],
            in: folder)
        #expect(single.status == 0, "\(single.stderr)")
        #expect(
            FileManager.default.contents(atPath: folder + "/a.svg")
                == FileManager.default.contents(atPath: folder + "/single.svg"))
    }
}
