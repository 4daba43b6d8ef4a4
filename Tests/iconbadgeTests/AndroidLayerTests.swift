import BadgeCore
import BadgeJobs
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Adaptive icons drawn as the launcher draws them, on the real apps of
/// `Fixtures/android` (the sample app, Wikipedia, Nextcloud QA): their layers
/// converted from VectorDrawable and rendered, checked against an independent
/// rendering; themed icons whose badge letters are empty; filters on every layer;
/// `--avoid-content`; bad drawables refused with their file and line.
@Suite struct AndroidLayerTests {
    /// The real apps: folder and launcher icon name.
    static let apps = [("sample-app", "ic_launcher"), ("wikipedia", "launcher"), ("nextcloud-qa", "ic_launcher")]

    /// A copy of an app of `Fixtures/android` in a scratch folder.
    static func app(_ name: String, _ scratch: String) throws -> String {
        let folder = Paths.scratch(scratch) + "/" + name
        try FileManager.default.copyItem(atPath: Paths.fixture("android/\(name)"), toPath: folder)
        return folder
    }

    /// The drawing iconbadge makes of one layer of an app's adaptive icon.
    static func layerDrawing(app: String, icon: String, layer: String, density: Double = 4) throws -> AndroidDrawing {
        let res = Paths.fixture("android/\(app)/res")
        var notes: [String] = []
        let resources = try AndroidResources(folder: res, names: [icon], notes: &notes)
        let adaptive = try #require(resources.adaptive.first)
        let element = try #require(adaptive.root.child(layer))
        let table = try AndroidResourceTable(folder: res, limits: ImageLimits())
        return try AndroidDrawableSVG.layerDrawing(
            element, of: adaptive.bytes, path: res + "/" + adaptive.components.joined(separator: "/"), width: 108,
            height: 108, density: density, lookup: table.lookup, limits: ImageLimits())
    }

    /// The SVG document iconbadge makes of one layer of an app's adaptive icon.
    static func layerSVG(app: String, icon: String, layer: String, density: Double = 4) throws -> [UInt8] {
        try layerDrawing(app: app, icon: icon, layer: layer, density: density).svg(
            maxBytes: ImageLimits().maxSVGBytes, path: app)
    }

    /// Each layer of the real apps, converted and drawn at xxxhdpi (432 px) natively
    /// (`AndroidDrawingPainter`, what `android` and `preview` use) and, written as
    /// SVG, by iconbadge's isolated renderer, matches the same paths written as SVG
    /// by hand (`Fixtures/android/reference/*.svg`) and drawn by rsvg-convert (the
    /// PNGs beside them), compared as `iconbadge compare --threshold 0.1`.
    @Test func layersMatchAnIndependentRendering() throws {
        let references = try FileManager.default.contentsOfDirectory(atPath: Paths.fixture("android/reference"))
        #expect(references.count == 10)
        let cases = [
            ("sample-app", "ic_launcher", "foreground", "sample-app-foreground"),
            ("sample-app", "ic_launcher", "monochrome", "sample-app-foreground"),
            ("wikipedia", "launcher", "background", "wikipedia-background"),
            ("wikipedia", "launcher", "foreground", "wikipedia-foreground"),
            ("wikipedia", "launcher", "monochrome", "wikipedia-foreground"),
            ("nextcloud-qa", "ic_launcher", "background", "nextcloud-qa-background"),
            ("nextcloud-qa", "ic_launcher", "foreground", "nextcloud-qa-foreground"),
            ("nextcloud-qa", "ic_launcher", "monochrome", "nextcloud-qa-foreground"),
        ]
        let scratch = Paths.scratch("android-crosscheck")
        for (app, icon, layer, reference) in cases {
            let native = scratch + "/\(app)-\(layer)-native.png"
            try Data(
                try AndroidDrawingPainter.png(
                    try Self.layerDrawing(app: app, icon: icon, layer: layer), width: 432, height: 432, name: layer,
                    limits: ImageLimits())
            ).write(to: URL(fileURLWithPath: native))
            let nativeCompare = try runIconbadge([
                "compare", native, Paths.fixture("android/reference/\(reference).png"), "--threshold", "0.1",
            ])
            #expect(nativeCompare.status == 0, "\(app) \(layer): \(nativeCompare.stdoutText)\(nativeCompare.stderr)")
            let svg = scratch + "/\(app)-\(layer).svg"
            try Data(try Self.layerSVG(app: app, icon: icon, layer: layer)).write(to: URL(fileURLWithPath: svg))
            let ours = scratch + "/\(app)-\(layer).png"
            let render = try runIconbadge([svg, "--size", "432x432", "--value", "0", "-o", ours])
            #expect(render.status == 0, "\(render.stderr)")
            let compare = try runIconbadge([
                "compare", ours, Paths.fixture("android/reference/\(reference).png"), "--threshold", "0.1",
            ])
            #expect(compare.status == 0, "\(app) \(layer): \(compare.stdoutText)\(compare.stderr)")
        }
    }

    /// rsvg-convert (Debian's librsvg2-bin), or nil.
    static let rsvgConvert = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The reference PNGs are what rsvg-convert draws of the hand-written SVGs.
    /// Disabled, with the reason, without rsvg-convert; `make deps` installs it, and
    /// `make test` stops when it is missing (scripts/check-test-tools.sh).
    @Test(
        .enabled(
            if: AndroidLayerTests.rsvgConvert != nil,
            "rsvg-convert is not installed (Debian: apt-get install librsvg2-bin; make deps installs it)"))
    func referencesAreRsvgConvertsDrawings() throws {
        let rsvg = try #require(Self.rsvgConvert)
        let scratch = Paths.scratch("android-rsvg")
        for name in [
            "sample-app-foreground", "wikipedia-background", "wikipedia-foreground", "nextcloud-qa-background",
            "nextcloud-qa-foreground",
        ] {
            let drawn = scratch + "/\(name).png"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: rsvg)
            process.arguments = ["-w", "432", "-h", "432", "-o", drawn, Paths.fixture("android/reference/\(name).svg")]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let compare = try runIconbadge([
                "compare", drawn, Paths.fixture("android/reference/\(name).png"), "--threshold", "0.1",
            ])
            #expect(compare.status == 0, "\(name): \(compare.stdoutText)")
        }
    }

    /// On every real app, the themed icon's badge letters are empty and no pixel of
    /// the icon shows inside the badge: inside the badge (where the foreground's badge
    /// layer is opaque) the monochrome layer's alpha is exactly that of the badge drawn
    /// on an empty monochrome layer, holes for the letters included; where the badge
    /// is only partly opaque (its antialiased edge, down to alpha 1) the drawing adds
    /// nothing either; outside it the drawing is there. At the default size and at
    /// `--relative-size 0.28`, whose pill ends left the drawing at alpha 6–12 under the
    /// badge's faintest mdpi edge pixels when only the 1 pt gap was cleared.
    @Test(arguments: [[String](), ["--relative-size", "0.28"]])
    func themedIconsHaveEmptyLetters(size: [String]) throws {
        for (name, icon) in Self.apps {
            let scratch = size.isEmpty ? "android-themed" : "android-themed-large"
            let app = try Self.app(name, scratch)
            var run = try runIconbadge(
                ["android", app + "/res", "--out", app + "/debug/res", "--value", "BETA"] + size)
            #expect(run.status == 0, "\(run.stderr)")
            // The same badge on an empty monochrome drawing.
            let blank = try Self.app(name, scratch + "-blank")
            let xml = blank + "/res/mipmap-anydpi-v26/\(icon).xml"
            var text = try String(contentsOfFile: xml, encoding: .utf8)
            let monochrome = try #require(text.range(of: #"<monochrome[^>]*/>"#, options: .regularExpression))
            text.replaceSubrange(
                monochrome, with: "<monochrome><color android:color=\"#00000000\" /></monochrome>")
            try text.write(toFile: xml, atomically: true, encoding: .utf8)
            run = try runIconbadge(
                ["android", blank + "/res", "--out", blank + "/debug/res", "--value", "BETA"] + size)
            #expect(run.status == 0, "\(run.stderr)")
            for (density, side) in [("mdpi", 108), ("xxhdpi", 324), ("xxxhdpi", 432)] {
                let file = "drawable-\(density)/iconbadge_\(icon)_monochrome.png"
                let themed = try ImageFile.pixels(at: app + "/debug/res/" + file)
                let alone = try ImageFile.pixels(at: blank + "/debug/res/" + file)
                let badge = try ImageFile.pixels(at: app + "/debug/res/drawable-\(density)/iconbadge_\(icon)_badge.png")
                #expect(themed.width == side && alone.width == side && badge.width == side)
                var inside = 0
                var holes = 0
                var drawing = 0
                for y in 0..<side {
                    for x in 0..<side {
                        if badge[x, y].alpha == 255 {
                            inside += 1
                            #expect(themed[x, y].alpha == alone[x, y].alpha, "\(name) \(density) \(x),\(y)")
                            if themed[x, y].alpha == 0 { holes += 1 }
                        } else if badge[x, y].alpha > 0 {
                            #expect(
                                themed[x, y].alpha == alone[x, y].alpha,
                                "\(name) \(density) \(x),\(y): the drawing shows under the badge's edge")
                        } else if themed[x, y].alpha > 0 {
                            drawing += 1
                        }
                    }
                }
                #expect(inside > side * side / 40, "\(name) \(density)")
                #expect(holes > inside / 20, "\(name) \(density): the letters are not cut out")
                #expect(drawing > side * side / 200, "\(name) \(density): the drawing is gone")
            }
        }
    }

    /// `--icon-filter greyscale` on adaptive icons: the foreground (with its badge)
    /// and a drawable background are drawn per density in greys, a `@color`
    /// background becomes a filtered colour, the badge keeps its colour, and the
    /// adaptive icon's copy points at them.
    @Test func greyscaleAdaptiveIcons() throws {
        for (name, icon) in Self.apps {
            let app = try Self.app(name, "android-grey")
            let run = try runIconbadge([
                "android", app + "/res", "--out", app + "/debug/res", "--value", "BETA", "--icon-filter", "greyscale",
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let xml = try String(
                contentsOfFile: app + "/debug/res/mipmap-anydpi-v26/\(icon).xml", encoding: .utf8)
            #expect(
                xml.contains("<foreground android:drawable=\"@drawable/iconbadge_\(icon)_foreground\" />"), "\(xml)")
            #expect(xml.contains("<monochrome android:drawable=\"@drawable/iconbadge_\(icon)_monochrome\" />"))
            let foreground = try ImageFile.pixels(
                at: app + "/debug/res/drawable-xxxhdpi/iconbadge_\(icon)_foreground.png")
            var red = 0
            var coloured = 0
            for y in 0..<432 {
                for x in 0..<432 where foreground[x, y].alpha == 255 {
                    let c = foreground[x, y]
                    if c.red == 0xFF, c.green == 0x3B, c.blue == 0x30 {
                        red += 1
                    } else if c.red != c.green || c.green != c.blue {
                        coloured += 1
                    }
                }
            }
            #expect(red > 1000, "\(name): the badge lost its colour")
            // Only the badge's antialiased text edges mix red with white.
            #expect(coloured < red / 4, "\(name): \(coloured) coloured pixels")
            if name == "sample-app" {
                #expect(xml.contains("<background android:drawable=\"@color/iconbadge_\(icon)_background\" />"))
                let colors = try String(
                    contentsOfFile: app + "/debug/res/values/iconbadge_\(icon)_background_colors.xml", encoding: .utf8)
                // #2E7D32's Rec. 709 luma: 0.2126·46 + 0.7152·125 + 0.0722·50 = 102.8.
                #expect(colors.contains("<color name=\"iconbadge_\(icon)_background\">#FF676767</color>"), "\(colors)")
            } else {
                #expect(xml.contains("<background android:drawable=\"@drawable/iconbadge_\(icon)_background\" />"))
                let background = try ImageFile.pixels(
                    at: app + "/debug/res/drawable-mdpi/iconbadge_\(icon)_background.png")
                #expect(background.width == 108)
                for y in stride(from: 0, to: 108, by: 7) {
                    for x in stride(from: 0, to: 108, by: 7) {
                        let c = background[x, y]
                        #expect(c.alpha == 255 && c.red == c.green && c.green == c.blue, "\(name) \(x),\(y): \(c)")
                    }
                }
            }
        }
    }

    /// `--avoid-content` places the badge where it covers fewer of the foreground's
    /// pixels, in the anchor's quadrant, and says how many; never more than clamp.
    @Test func avoidContentCoversLess() throws {
        var lowered = 0
        for (name, icon) in Self.apps {
            let app = try Self.app(name, "android-avoid")
            let run = try runIconbadge([
                "android", app + "/res", "--out", app + "/debug/res", "--value", "BETA", "--height", "28%",
                "--avoid-content",
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let line = try #require(
                run.stderrLines.first { $0.contains("\(icon): --avoid-content: the badge covers") }, "\(run.stderr)")
            // "… covers 792 px of the foreground (1259 where clamp puts it), 792 px of the monochrome (…) at xxxhdpi"
            let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            #expect(numbers.count == 4, "\(line)")
            let (placed, clamped) = (numbers[0], numbers[1])
            #expect(placed <= clamped, "\(line)")
            if placed < clamped { lowered += 1 }
            // The badge stays in the top-right quadrant of the visible 72 dp square.
            let badge = try ImageFile.pixels(at: app + "/debug/res/drawable-xxxhdpi/iconbadge_\(icon)_badge.png")
            var sumX = 0
            var sumY = 0
            var count = 0
            for y in 0..<432 {
                for x in 0..<432 where badge[x, y].alpha == 255 {
                    sumX += x
                    sumY += y
                    count += 1
                }
            }
            #expect(count > 0)
            #expect(Double(sumX) / Double(count) >= 216 - 1 && Double(sumY) / Double(count) <= 216 + 1, "\(name)")
        }
        #expect(lowered >= 2)
    }

    /// A drawable iconbadge cannot draw is refused with one line naming the file and
    /// line (65), and nothing is written: an unknown element, an unknown attribute, a
    /// theme attribute, a reference that does not resolve, a file that is neither
    /// XML nor an image.
    @Test func badDrawablesAreRefused() throws {
        let foreground = "res/drawable/ic_launcher_foreground.xml"
        let cases: [(file: String, text: String, status: Int32, message: String)] = [
            (
                foreground,
                "<vector xmlns:android=\"http://schemas.android.com/apk/res/android\" android:width=\"108dp\" android:height=\"108dp\"\n android:viewportWidth=\"108\" android:viewportHeight=\"108\">\n<path android:pathData=\"M0 0h9v9z\" />\n<text android:text=\"x\" />\n</vector>",
                65, "/res/drawable/ic_launcher_foreground.xml\": line 4: <text> is not a VectorDrawable element"
            ),
            (
                foreground,
                "<vector xmlns:android=\"http://schemas.android.com/apk/res/android\" android:width=\"108dp\" android:height=\"108dp\"\n android:viewportWidth=\"108\" android:viewportHeight=\"108\">\n<path android:pathData=\"M0 0h9v9z\"\n android:fillGradient=\"#fff\" />\n</vector>",
                65, "line 3: <path> has the attribute android:fillGradient, which iconbadge does not draw"
            ),
            (
                foreground,
                "<vector xmlns:android=\"http://schemas.android.com/apk/res/android\" android:width=\"108dp\" android:height=\"108dp\"\n android:viewportWidth=\"108\" android:viewportHeight=\"108\">\n<path android:pathData=\"M0 0h9v9z\" android:fillColor=\"?attr/colorPrimary\" />\n</vector>",
                65, "line 3: android:fillColor is the theme attribute ?attr/colorPrimary"
            ),
            (
                foreground,
                "<vector xmlns:android=\"http://schemas.android.com/apk/res/android\" android:width=\"108dp\" android:height=\"108dp\"\n android:viewportWidth=\"108\" android:viewportHeight=\"108\">\n<path android:pathData=\"M0 0h9v9z\" android:fillColor=\"@color/brand\" />\n</vector>",
                65, "line 3: android:fillColor: @color/brand is not defined in res/values*/"
            ),
            (
                foreground,
                "<layer-list xmlns:android=\"http://schemas.android.com/apk/res/android\">\n<item android:drawable=\"@drawable/ic_launcher_foreground\" />\n</layer-list>",
                65, "refers to itself"
            ),
            (
                foreground,
                "<vector xmlns:android=\"http://schemas.android.com/apk/res/android\" android:width=\"108dp\" android:height=\"108dp\"\n android:viewportWidth=\"108\" android:viewportHeight=\"108\">\n<path android:pathData=\"M0 0h9v9z\" />\n<path android:pathData=\"M0 0 L 1e12 0\" />\n</vector>",
                65, "line 4: android:pathData has a number over 1000000000 in magnitude (at character 8)"
            ),
        ]
        for (index, bad) in cases.enumerated() {
            let app = try Self.app("sample-app", "android-bad-\(index)")
            try bad.text.write(toFile: app + "/" + bad.file, atomically: true, encoding: .utf8)
            let run = try runIconbadge(["android", app + "/res", "--out", app + "/debug/res", "--value", "BETA"])
            #expect(run.status == bad.status, "\(run.stderr)")
            #expect(run.stderrLines.count == 1 && run.stderrLines[0].contains(bad.message), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: app + "/debug"))
        }
        // A drawable that is neither XML nor an image.
        let app = try Self.app("sample-app", "android-bad-bytes")
        try FileManager.default.removeItem(atPath: app + "/" + foreground)
        try Data("not a drawable".utf8).write(
            to: URL(fileURLWithPath: app + "/res/drawable/ic_launcher_foreground.png"))
        let run = try runIconbadge(["android", app + "/res", "--out", app + "/debug/res", "--value", "BETA"])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(
            run.stderrLines == [
                "iconbadge: error: \"\(app)/res/drawable/ic_launcher_foreground.png\": is neither XML nor an image (PNG, WebP, JPEG or GIF) (the monochrome of ic_launcher)"
            ], "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: app + "/debug"))
    }

    /// A layer made of bitmaps, as Android Studio's Image Asset writes a raster one:
    /// `@mipmap/NAME` picks each density's own file (a WebP at xxxhdpi), an `<inset>`
    /// places it, and the layers are drawn and filtered like vector ones.
    @Test func bitmapLayersPickTheirDensity() throws {
        let app = try Self.app("sample-app", "android-bitmaps")
        let res = app + "/res"
        for density in ["mdpi", "hdpi", "xhdpi", "xxhdpi"] {
            try FileManager.default.copyItem(
                atPath: "\(res)/mipmap-\(density)/ic_launcher.png",
                toPath: "\(res)/mipmap-\(density)/ic_launcher_foreground.png")
        }
        let webp = try runIconbadge([
            res + "/mipmap-xxxhdpi/ic_launcher.png", "--value", "0", "-o",
            res + "/mipmap-xxxhdpi/ic_launcher_foreground.webp",
        ])
        #expect(webp.status == 0, "\(webp.stderr)")
        try """
        <?xml version="1.0" encoding="utf-8"?>
        <adaptive-icon xmlns:android="http://schemas.android.com/apk/res/android">
            <background android:drawable="@color/ic_launcher_background" />
            <foreground>
                <inset android:drawable="@mipmap/ic_launcher_foreground" android:inset="25%" />
            </foreground>
            <monochrome android:drawable="@mipmap/ic_launcher_foreground" />
        </adaptive-icon>
        """.write(toFile: res + "/mipmap-anydpi-v26/ic_launcher.xml", atomically: true, encoding: .utf8)
        var notes: [String] = []
        let resources = try AndroidResources(folder: res, names: ["ic_launcher"], notes: &notes)
        let adaptive = try #require(resources.adaptive.first)
        let table = try AndroidResourceTable(folder: res, limits: ImageLimits())
        for (density, type, file) in [
            (1.0, "png", "mipmap-mdpi"), (3, "png", "mipmap-xxhdpi"), (4, "webp", "mipmap-xxxhdpi"),
        ] {
            let svg = String(
                decoding: try AndroidDrawableSVG.layer(
                    try #require(adaptive.root.child("monochrome")), of: adaptive.bytes, path: "ic_launcher.xml",
                    width: 108, height: 108, density: density, lookup: table.lookup, limits: ImageLimits()),
                as: UTF8.self)
            let bytes = try Data(
                contentsOf: URL(fileURLWithPath: "\(res)/\(file)/ic_launcher_foreground.\(type)"))
            #expect(svg.contains("data:image/\(type);base64," + bytes.base64EncodedString()), "\(density)")
        }
        let run = try runIconbadge([
            "android", res, "--out", app + "/debug/res", "--value", "BETA", "--icon-filter", "greyscale", "--icon",
            "ic_launcher",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let foreground = try ImageFile.pixels(
            at: app + "/debug/res/drawable-xxxhdpi/iconbadge_ic_launcher_foreground.png")
        // The inset leaves a quarter of the layer empty on each side; inside, the bitmap, in greys.
        #expect(foreground[40, 400].alpha == 0 && foreground[400, 400].alpha == 0)
        let inside = foreground[216, 300]
        #expect(inside.alpha == 255 && inside.red == inside.green && inside.green == inside.blue, "\(inside)")
        let monochrome = try ImageFile.pixels(at: app + "/debug/res/drawable-mdpi/iconbadge_ic_launcher_monochrome.png")
        #expect(monochrome.width == 108 && monochrome[54, 90].alpha == 255 && monochrome[54, 2].alpha == 0)
    }

    /// Apps that keep the themed icon's XML apart (`mipmap-anydpi-v26` without
    /// `<monochrome>`, `mipmap-anydpi-v33` with it, as Android 13 reads it): both are
    /// badged, the second with resources of its own.
    static func android13App(_ scratch: String) throws -> String {
        let app = try Self.app("sample-app", scratch)
        let res = app + "/res"
        let v33 = res + "/mipmap-anydpi-v33"
        try FileManager.default.createDirectory(atPath: v33, withIntermediateDirectories: true)
        for name in ["ic_launcher", "ic_launcher_round"] {
            try FileManager.default.moveItem(
                atPath: "\(res)/mipmap-anydpi-v26/\(name).xml", toPath: "\(v33)/\(name).xml")
            try """
            <?xml version="1.0" encoding="utf-8"?>
            <adaptive-icon xmlns:android="http://schemas.android.com/apk/res/android">
                <background android:drawable="@color/ic_launcher_background" />
                <foreground android:drawable="@drawable/ic_launcher_foreground" />
            </adaptive-icon>
            """.write(toFile: "\(res)/mipmap-anydpi-v26/\(name).xml", atomically: true, encoding: .utf8)
        }
        return app
    }

    @Test func anAndroid13VersionGetsItsOwnLayers() throws {
        let app = try Self.android13App("android-v33")
        let run = try runIconbadge(["android", app + "/res", "--out", app + "/debug/res", "--value", "BETA"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderrLines.last?.hasSuffix(
                "badged 10 legacy icon images and 4 adaptive icons into \"\(app)/debug/res\"") == true, "\(run.stderr)")
        let v26 = try String(contentsOfFile: app + "/debug/res/mipmap-anydpi-v26/ic_launcher.xml", encoding: .utf8)
        let v33 = try String(contentsOfFile: app + "/debug/res/mipmap-anydpi-v33/ic_launcher.xml", encoding: .utf8)
        #expect(v26.contains("@drawable/iconbadge_ic_launcher_foreground") && !v26.contains("monochrome"), "\(v26)")
        #expect(v33.contains("@drawable/iconbadge_ic_launcher_anydpi_v33_foreground"), "\(v33)")
        #expect(
            v33.contains("<monochrome android:drawable=\"@drawable/iconbadge_ic_launcher_anydpi_v33_monochrome\" />"))
        #expect(
            FileManager.default.fileExists(
                atPath: app + "/debug/res/drawable-xxxhdpi/iconbadge_ic_launcher_anydpi_v33_monochrome.png"))
    }

    /// A later run replaces what an earlier one wrote for the same icons: the
    /// filtered layers of a greyscale run are removed when the next run is not
    /// filtered, so that no two configurations of one resource remain.
    @Test func staleLayersAreRemoved() throws {
        let app = try Self.app("wikipedia", "android-stale")
        var run = try runIconbadge([
            "android", app + "/res", "--out", app + "/debug/res", "--value", "BETA", "--icon-filter", "greyscale",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            FileManager.default.fileExists(atPath: app + "/debug/res/drawable-mdpi/iconbadge_launcher_foreground.png"))
        run = try runIconbadge(["android", app + "/res", "--out", app + "/debug/res", "--value", "BETA"])
        #expect(run.status == 0, "\(run.stderr)")
        for density in ["mdpi", "hdpi", "xhdpi", "xxhdpi", "xxxhdpi"] {
            for layer in ["foreground", "background"] {
                #expect(
                    !FileManager.default.fileExists(
                        atPath: app + "/debug/res/drawable-\(density)/iconbadge_launcher_\(layer).png"))
            }
        }
        #expect(FileManager.default.fileExists(atPath: app + "/debug/res/drawable/iconbadge_launcher_foreground.xml"))
        // Only this run's icons: ic_launcher_round's files stay when ic_launcher alone is badged.
        let sample = try Self.app("sample-app", "android-stale-icons")
        run = try runIconbadge([
            "android", sample + "/res", "--out", sample + "/debug/res", "--value", "BETA", "--icon-filter", "greyscale",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        run = try runIconbadge([
            "android", sample + "/res", "--out", sample + "/debug/res", "--value", "BETA", "--icon", "ic_launcher",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let files = sample + "/debug/res/drawable-mdpi/"
        #expect(!FileManager.default.fileExists(atPath: files + "iconbadge_ic_launcher_foreground.png"))
        #expect(FileManager.default.fileExists(atPath: files + "iconbadge_ic_launcher_round_foreground.png"))
        #expect(
            FileManager.default.fileExists(
                atPath: sample + "/debug/res/values/iconbadge_ic_launcher_round_background_colors.xml"))
        #expect(
            !FileManager.default.fileExists(
                atPath: sample + "/debug/res/values/iconbadge_ic_launcher_background_colors.xml"))
    }
}
